// A started server's database, opened by a test to check what the server
// wrote: PostgreSQL beside the running server; PGlite only after the server
// has stopped (the embedded database has one owner).
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { StartedServer } from "./server";

export type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

/** Opens the server's database; on PGlite the server is stopped first. */
export async function openServerDatabase(s: StartedServer): Promise<{ query: Query; close: () => Promise<void> }> {
  if (s.databaseUrl) {
    const client = new pg.Client({ connectionString: s.databaseUrl });
    await client.connect();
    return { query: async <T,>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[], close: () => client.end() };
  }
  const exited = new Promise((resolve) => s.process.once("exit", resolve));
  s.process.kill("SIGTERM");
  await exited;
  const db = new PGlite(path.join(s.dataDir, "pglite"));
  return { query: async <T,>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows, close: () => db.close() };
}
