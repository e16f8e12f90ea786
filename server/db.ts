// One Prisma client per process. The adapter is chosen by configuration:
// PostgreSQL when DATABASE_URL is set, else the embedded PGlite in DATA_DIR.
// The client lives on globalThis because the custom server and Next's bundle
// each load their own copy of this module in the same process, and PGlite
// must be opened exactly once.
import path from "node:path";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { countStatements } from "./metrics/db-statements";
import { PrismaPg } from "@prisma/adapter-pg";
import type { Pool } from "pg";
import { PrismaClient, type Prisma } from "./generated/prisma/client";
import { config } from "./config";
import type { SqlSession } from "./db/migrate";
import { createHealingPool, type PoolHealth } from "./db/pool";
import { lockDataDir } from "./db/data-dir-lock";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
/** A client or an open transaction: services accept either. */
export type DbOrTx = PrismaClient | Tx;

export type RawQuery = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface Connection {
  prisma: PrismaClient;
  /** One round trip with the raw driver, for the hot paths. */
  query: RawQuery;
  kind: "pglite" | "postgres";
  pglite?: PGlite;
  pool?: Pool;
  /** The PostgreSQL connection string (for dedicated connections such as LISTEN). */
  url?: string;
  /** PostgreSQL: whether the pool is stuck (server/db/pool.ts); the health check reads it. */
  poolHealth?: () => PoolHealth;
  close: () => Promise<void>;
  /** Runs `hook` when the connection closes, before the pool or PGlite does (listeners, timers). */
  onClose: (hook: () => Promise<void>) => void;
}

/**
 * Start-up options of every PostgreSQL session we open (pool and dedicated connections). JIT off: the
 * statements here are short, and the few whose estimated cost crosses `jit_above_cost` (the dispatch round's
 * free drivers at fleet size) spent longer compiling than running (docs/performance.md, "JIT off").
 */
export const SESSION_OPTIONS = "-c TimeZone=UTC -c jit=off";

const key = Symbol.for("taxi.db");
type Holder = { [key]?: Connection };
type AdapterFactory = NonNullable<Prisma.PrismaClientOptions["adapter"]>;

// pglite-prisma-adapter 0.6 was written against an older driver-adapter-utils;
// package.json's overrides give it the client's own, so the types agree.
function pgliteAdapter(pglite: PGlite): AdapterFactory {
  return new PrismaPGlite(pglite);
}

/** Close hooks first (they may still need the database), then `close`. */
function closing(close: () => Promise<void>): Pick<Connection, "close" | "onClose"> {
  const hooks: Array<() => Promise<void>> = [];
  return {
    onClose: (hook) => void hooks.push(hook),
    close: async () => {
      for (const hook of hooks.splice(0)) await hook().catch(() => undefined);
      await close();
    },
  };
}

function open(): Connection {
  const cfg = config();
  if (cfg.DATABASE_URL) {
    // Every session in UTC: timestamps are stored without a zone, written by
    // Prisma as UTC and by SQL's now(); both must mean the same instant.
    // Timeouts and the watchdog: server/db/pool.ts.
    const healing = createHealingPool({
      url: cfg.DATABASE_URL,
      max: cfg.DATABASE_POOL_SIZE,
      sessionOptions: SESSION_OPTIONS,
      connectTimeoutMs: cfg.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: cfg.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: cfg.DATABASE_IDLE_TRANSACTION_TIMEOUT_MS,
    });
    const pool = healing.pool;
    pool.on("connect", countStatements);
    const prisma = new PrismaClient({
      adapter: new PrismaPg(pool),
      transactionOptions: { timeout: 15_000, maxWait: Math.min(15_000, cfg.DATABASE_CONNECT_TIMEOUT_MS) },
    });
    return {
      prisma,
      kind: "postgres",
      pool,
      url: cfg.DATABASE_URL,
      poolHealth: healing.health,
      query: async <T,>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
      ...closing(async () => {
        healing.stop();
        await prisma.$disconnect();
        await pool.end().catch(() => undefined);
      }),
    };
  }
  const dataDir = path.resolve(cfg.DATA_DIR, "pglite");
  mkdirSync(dataDir, { recursive: true });
  // One process per folder (server/db/data-dir-lock.ts): throws, naming the holder, before PGlite opens.
  const lock = lockDataDir(path.resolve(cfg.DATA_DIR));
  const pglite = new PGlite(dataDir, { relaxedDurability: false });
  // PGlite is one session and runs statements in order: this SET precedes every query.
  pglite.exec(`SET TIME ZONE 'UTC'`).catch(() => undefined);
  const prisma = new PrismaClient({ adapter: pgliteAdapter(pglite), transactionOptions: { timeout: 30_000, maxWait: 30_000 } });
  return {
    prisma,
    kind: "pglite",
    pglite,
    query: async <T,>(sql: string, params: unknown[] = []) => (await pglite.query<T>(sql, params)).rows,
    ...closing(async () => {
      await prisma.$disconnect();
      await pglite.close();
      lock.release();
    }),
  };
}

export function connection(): Connection {
  const holder = globalThis as Holder;
  holder[key] ??= open();
  return holder[key];
}

/**
 * The process's connection when `db` is its client; undefined for a
 * transaction or another client. Never opens the connection: a process that
 * passes its own client (a test, a tool) must not open DATA_DIR's database
 * as a side effect (it is locked: server/db/data-dir-lock.ts).
 */
export function connectionOf(db: DbOrTx): Connection | undefined {
  const conn = (globalThis as Holder)[key];
  return conn && db === conn.prisma ? conn : undefined;
}

/** The process's Prisma client. Opened on first use, never at import. */
export function db(): PrismaClient {
  return connection().prisma;
}

/** Runs `fn` on one dedicated connection (needed for locks and BEGIN/COMMIT). */
export async function withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T> {
  const conn = connection();
  if (conn.pool) {
    const client = await conn.pool.connect();
    // Long work (migrations, the seed) is bounded by its own work, not by the pool's statement timeouts.
    await client.query("SET statement_timeout = 0; SET idle_in_transaction_session_timeout = 0").catch((error: unknown) => {
      client.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    });
    try {
      return await fn({
        query: async <R,>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
        exec: async (sql: string) => {
          await client.query(sql);
        },
      });
    } finally {
      // Back to the pool's defaults for its next holder; a client that cannot be reset is discarded.
      await client.query("RESET statement_timeout; RESET idle_in_transaction_session_timeout").then(
        () => client.release(),
        (error: unknown) => client.release(error instanceof Error ? error : new Error(String(error))),
      );
    }
  }
  const pglite = conn.pglite!;
  return fn({
    query: async <R,>(sql: string, params: unknown[] = []) => (await pglite.query<R>(sql, params)).rows,
    exec: async (sql: string) => {
      await pglite.exec(sql);
    },
  });
}

/**
 * One round trip on the fastest path: the raw driver for the process's own
 * client (the hot reads skip Prisma's per-query cost), the transaction's own
 * connection inside a transaction.
 */
export function rawQuery(db: DbOrTx): RawQuery {
  const conn = connectionOf(db);
  if (conn) return conn.query;
  return <T,>(sql: string, params: unknown[] = []) => (db as Tx).$queryRawUnsafe<T[]>(sql, ...params);
}

export async function closeDb(): Promise<void> {
  const holder = globalThis as Holder;
  const conn = holder[key];
  holder[key] = undefined;
  if (conn) await conn.close();
}
