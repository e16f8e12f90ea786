// Databases of the reliability and security suites. The project's global
// setup migrates and seeds one template per run (the demo city, a known API
// key and administrator); every suite works on its own copy of it: a copied
// data directory (PGlite) or CREATE DATABASE ... TEMPLATE (PostgreSQL).
//
// The copy is filled and inspected from the test process: a PGlite
// directory only while no server has it open (one process at a time), a
// PostgreSQL database at any time.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "@/server/generated/prisma/client";
import { POSTGRES_ADMIN_URL, type TestDb } from "../../support/server";
import { TEST_CLIENT_OPTIONS } from "../../support/prisma-options";

type AdapterFactory = NonNullable<Prisma.PrismaClientOptions["adapter"]>;
export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export const TEST_DB: TestDb = (process.env.TEST_DB as TestDb | undefined) ?? "pglite";

/** What the template was seeded with (the servers start with the same, so the seed changes nothing). */
export interface Seeded {
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
  appSecret: string;
}

export interface Template extends Seeded {
  kind: TestDb;
  /** PGlite: the data directory (holding pglite/); PostgreSQL: the template database's name. */
  location: string;
}

export function postgresUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export interface TestDatabase {
  kind: TestDb;
  /** Environment that points a server at this database. */
  env: Record<string, string>;
  /** PostgreSQL only: the connection string. */
  url?: string;
  /** Runs fn with a Prisma client and a raw query on the database (PGlite: only while no server runs on it). */
  use<T>(fn: (prisma: PrismaClient, query: Query) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

function pgliteDatabase(dir: string): TestDatabase {
  return {
    kind: "pglite",
    env: { DATA_DIR: dir },
    async use(fn) {
      const pglite = new PGlite(path.join(dir, "pglite"));
      const prisma = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPGlite(pglite) as unknown as AdapterFactory });
      try {
        return await fn(prisma, async (sql, params = []) => (await pglite.query(sql, params)).rows as never[]);
      } finally {
        await prisma.$disconnect();
        await pglite.close();
      }
    },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A pool's idle client whose database a suite dropped (DROP DATABASE ... WITH (FORCE) ends its
 * connections: 57P01) emits "error" on the pool; with no listener that is an uncaught exception
 * in the test process, failing a lane on whichever file runs then (seen in CI on PostgreSQL).
 */
export function idleClientLost(): void {}

function postgresDatabase(name: string): TestDatabase {
  const url = postgresUrl(name);
  return {
    kind: "postgres",
    env: { DATABASE_URL: url },
    url,
    async use(fn) {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      pool.on("error", idleClientLost);
      const prisma = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPg(pool) });
      try {
        return await fn(prisma, async (sql, params = []) => (await pool.query(sql, params)).rows as never[]);
      } finally {
        await prisma.$disconnect();
        await pool.end().catch(() => undefined);
      }
    },
    async drop() {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Migrates and seeds a template (global setup); `seeded` defaults to fresh random secrets. */
export async function createTemplate(kind: TestDb, seeded: Seeded = randomSeeded()): Promise<Template> {
  const { migrate } = await import("@/server/db/migrate");
  const { seedDatabase } = await import("@/server/seed");
  const fill = async (prisma: PrismaClient, query: Query, exec: (sql: string) => Promise<void>) => {
    await migrate({ query, exec });
    await seedDatabase(prisma, { demo: true, apiKey: seeded.apiKey, adminEmail: seeded.adminEmail, adminPassword: seeded.adminPassword });
  };
  if (kind === "pglite") {
    const dir = mkdtempSync(path.join(tmpdir(), "taxi-rel-template-"));
    const pglite = new PGlite(path.join(dir, "pglite"));
    const prisma = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPGlite(pglite) as unknown as AdapterFactory });
    try {
      await fill(prisma, async (sql, params = []) => (await pglite.query(sql, params)).rows as never[], async (sql) => {
        await pglite.exec(sql);
      });
    } finally {
      await prisma.$disconnect();
      await pglite.close();
    }
    return { kind, location: dir, ...seeded };
  }
  const name = `taxi_rel_tmpl_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const pool = new pg.Pool({ connectionString: postgresUrl(name), max: 2 });
  pool.on("error", idleClientLost);
  const prisma = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPg(pool) });
  const client = await pool.connect();
  try {
    await fill(prisma, async (sql, params = []) => (await client.query(sql, params)).rows as never[], async (sql) => {
      await client.query(sql);
    });
  } finally {
    client.release();
    await prisma.$disconnect();
    await pool.end();
  }
  return { kind, location: name, ...seeded };
}

function randomSeeded(): Seeded {
  return {
    apiKey: `rel-key-${randomBytes(12).toString("hex")}`,
    adminEmail: "admin@reliability.test",
    adminPassword: `pw-${randomBytes(9).toString("base64url")}`,
    appSecret: `rel-secret-${randomBytes(24).toString("hex")}`,
  };
}

// One template per vitest process and database kind, shared by the projects' global setups (the
// integration and reliability projects run in one process per lane): the demo city is seeded once.
const sharedKey = Symbol.for("taxi.tests.sharedTemplates");
type Shared = Map<TestDb, { template: Promise<Template>; users: number }>;
function shared(): Shared {
  const holder = globalThis as { [sharedKey]?: Shared };
  holder[sharedKey] ??= new Map();
  return holder[sharedKey];
}

/**
 * A template `npm test` made before its lanes (scripts/test.sh; TEST_TEMPLATES
 * names the file tests/support/run-templates.ts wrote): every lane's vitest
 * process copies the same one, and the script drops it at the end.
 */
function madeByTheRun(kind: TestDb): Template | undefined {
  const file = process.env.TEST_TEMPLATES;
  if (!file) return undefined;
  return (JSON.parse(readFileSync(file, "utf8")) as Partial<Record<TestDb, Template>>)[kind];
}

/** The run's template of `kind`: the one `npm test` made, or made by the first global setup that asks. */
export function acquireTemplate(kind: TestDb): Promise<Template> {
  const made = madeByTheRun(kind);
  if (made) return Promise.resolve(made);
  const entry = shared().get(kind) ?? { template: createTemplate(kind), users: 0 };
  entry.users++;
  shared().set(kind, entry);
  return entry.template;
}

/** Dropped when the last global setup that acquired it lets it go. */
export async function releaseTemplate(kind: TestDb): Promise<void> {
  if (madeByTheRun(kind)) return;
  const entry = shared().get(kind);
  if (!entry || --entry.users > 0) return;
  shared().delete(kind);
  await dropTemplate(await entry.template);
}

export async function dropTemplate(template: Template): Promise<void> {
  if (template.kind === "pglite") rmSync(template.location, { recursive: true, force: true });
  else await adminQuery(`DROP DATABASE IF EXISTS ${template.location} WITH (FORCE)`);
}

/** A fresh copy of the template. */
export async function cloneTemplate(template: Template): Promise<TestDatabase> {
  if (template.kind === "pglite") {
    const dir = mkdtempSync(path.join(tmpdir(), "taxi-rel-"));
    cpSync(template.location, dir, { recursive: true });
    return pgliteDatabase(dir);
  }
  const name = `taxi_rel_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template.location}`);
  return postgresDatabase(name);
}

// ------------------------------------------------------------ fingerprints

/**
 * Bookkeeping columns that a refused request may still touch: when an API
 * key or an exchange session was last used (a key that authenticates is
 * "used" even when its request is then refused), and the exchange's checks
 * of participants' servers; and when a driver's app was last heard from (any
 * call with a good driver key proves the app alive, refused or not:
 * server/dispatch/liveness.ts). Everything else must stay exactly as it was.
 */
export const VOLATILE_COLUMNS: Record<string, string[]> = {
  api_key: ["last_used_at"],
  driver: ["app_seen_at"],
  exchange_session: ["last_used_at"],
  exchange_server: ["last_check_at", "last_check_ok", "vendor", "services_at"],
};

export interface TableFingerprint {
  rows: number;
  /** md5 of every row (as JSON, volatile columns left out), in a stable order. */
  md5: string;
}

export interface Fingerprint {
  tables: Record<string, TableFingerprint>;
  /** The money, spelled out so that a failure names it. */
  ledgers: Record<string, string>;
}

/** Row counts and a content hash of every table, and the ledgers' totals. */
export async function fingerprint(query: Query, skip: string[] = []): Promise<Fingerprint> {
  const names = (
    await query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    )
  ).map((r) => r.name);
  const tables: Record<string, TableFingerprint> = {};
  for (const name of names) {
    if (skip.includes(name)) continue;
    const drop = (VOLATILE_COLUMNS[name] ?? []).map((c) => ` - '${c}'`).join("");
    const [row] = await query<{ rows: number; md5: string }>(
      `SELECT count(*)::int AS rows, md5(coalesce(string_agg(j, E'\\n' ORDER BY j), '')) AS md5
         FROM (SELECT (to_jsonb(t)${drop})::text AS j FROM "${name}" t) s`,
    );
    tables[name] = { rows: row?.rows ?? -1, md5: row?.md5 ?? "" };
  }
  const one = async (sql: string) => String((await query<{ v: unknown }>(sql))[0]?.v ?? "");
  const ledgers = {
    driverBalances: await one(`SELECT coalesce(sum(balance), 0)::text AS v FROM driver`),
    driverLedger: await one(`SELECT count(*)::text || ' entries, ' || coalesce(sum(amount), 0)::text AS v FROM driver_ledger_entry`),
    customerBalances: await one(`SELECT coalesce(sum(balance), 0)::text AS v FROM customer`),
    customerLedger: await one(`SELECT count(*)::text || ' entries, ' || coalesce(sum(amount), 0)::text AS v FROM customer_ledger_entry`),
    clientBonuses: await one(`SELECT coalesce(sum(bonus), 0)::text AS v FROM client`),
    exchangeLedger: await one(`SELECT count(*)::text || ' entries, ' || coalesce(sum(amount), 0)::text AS v FROM exchange_ledger_entry`),
  };
  return { tables, ledgers };
}

/** An empty PostgreSQL database (not migrated): instances starting on it migrate and seed it. */
export async function emptyPostgresDatabase(): Promise<TestDatabase> {
  const name = `taxi_rel_empty_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  return postgresDatabase(name);
}
