// A database prepared before its server starts: migrated and filled by the
// test process through the application's own services (PGlite is one
// process's at a time, so the filling happens first; the server then opens
// the same data directory or PostgreSQL database).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "@/server/generated/prisma/client";
import { migrate } from "@/server/db/migrate";
import { createPostgresDatabase, startServer, type StartedServer, type TestDb } from "../server";
import { idleClientLost } from "../../reliability/support/db";
import { TEST_CLIENT_OPTIONS } from "../prisma-options";

type AdapterFactory = NonNullable<Prisma.PrismaClientOptions["adapter"]>;

export interface PreparedDb {
  kind: TestDb;
  /** Environment that points a server at this database. */
  env: Record<string, string>;
  /** Opens the database from the test process: PGlite only while its server is stopped. */
  open: () => Promise<{ prisma: PrismaClient; close: () => Promise<void> }>;
  drop: () => Promise<void>;
}

export async function prepareDatabase<T>(kind: TestDb, fill: (prisma: PrismaClient) => Promise<T>): Promise<{ db: PreparedDb; result: T }> {
  if (kind === "pglite") {
    const dir = mkdtempSync(path.join(tmpdir(), "taxi-exchange-"));
    const pglite = new PGlite(path.join(dir, "pglite"));
    await migrate({
      query: async <R,>(sql: string, params: unknown[] = []) => (await pglite.query<R>(sql, params)).rows,
      exec: async (sql: string) => {
        await pglite.exec(sql);
      },
    });
    const prisma = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPGlite(pglite) as unknown as AdapterFactory });
    let result: T;
    try {
      result = await fill(prisma);
    } finally {
      await prisma.$disconnect();
      await pglite.close();
    }
    const open = async () => {
      const again = new PGlite(path.join(dir, "pglite"));
      const client = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPGlite(again) as unknown as AdapterFactory });
      return {
        prisma: client,
        close: async () => {
          await client.$disconnect();
          await again.close();
        },
      };
    };
    return {
      db: { kind, env: { DATA_DIR: dir }, open, drop: async () => rmSync(dir, { recursive: true, force: true }) },
      result,
    };
  }
  const database = await createPostgresDatabase();
  const openPg = async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    pool.on("error", idleClientLost);
    const prisma = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPg(pool) });
    return {
      prisma,
      pool,
      close: async () => {
        await prisma.$disconnect();
        await pool.end().catch(() => undefined);
      },
    };
  };
  const first = await openPg();
  const client = await first.pool.connect();
  let result: T;
  try {
    await migrate({
      query: async <R,>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
      exec: async (sql: string) => {
        await client.query(sql);
      },
    });
    client.release();
    result = await fill(first.prisma);
  } finally {
    await first.close();
  }
  return {
    db: {
      kind,
      env: { DATABASE_URL: database.url },
      open: async () => {
        const o = await openPg();
        return { prisma: o.prisma, close: o.close };
      },
      drop: database.drop,
    },
    result,
  };
}

export const TEST_DB: TestDb = (process.env.TEST_DB as TestDb | undefined) ?? "pglite";

/** Starts the application on a prepared database. */
export async function startOn(prepared: PreparedDb, env: Record<string, string>): Promise<StartedServer> {
  return startServer({
    // startServer would make its own PostgreSQL database; ours wins through env.
    db: prepared.kind,
    seedDemo: false,
    env: { LOG_LEVEL: "error", OUTBOX_POLL_MS: "50", EXCHANGE_JOB_INTERVAL_MS: "200", EXCHANGE_CHECK_SECONDS: "0", ...prepared.env, ...env },
  });
}

/** Runs `fn` on the prepared database (for PGlite: after its server stopped). */
export async function withDatabase<T>(prepared: PreparedDb, fn: (prisma: PrismaClient) => Promise<T>): Promise<T> {
  const { prisma, close } = await prepared.open();
  try {
    return await fn(prisma);
  } finally {
    await close();
  }
}
