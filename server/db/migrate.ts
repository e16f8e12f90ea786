// Applies prisma/migrations in order, on PGlite and PostgreSQL alike, and
// records them in Prisma's own `_prisma_migrations` table so that
// `prisma migrate status` agrees. Our own runner because the Prisma CLI is
// slow to start and needs an engine for every command.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import type { RawQuery } from "../db";

/** Both must run on one connection (a transaction and an advisory lock). */
export interface SqlSession {
  query: RawQuery;
  exec: (sql: string) => Promise<void>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = path.resolve("prisma", "migrations")): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Runs the migrations not yet applied; returns their names. */
export async function migrate({ query, exec }: SqlSession): Promise<string[]> {
  // Two instances starting at once on one PostgreSQL: one migrates, the other
  // waits. The lock comes first: even CREATE TABLE IF NOT EXISTS races.
  await exec("SELECT pg_advisory_lock(724001)");
  try {
    await exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const applied = new Set(
      (await query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      )).map((row) => row.migration_name),
    );
    const done: string[] = [];
    for (const migration of readMigrations()) {
      if (applied.has(migration.name)) continue;
      await exec(`BEGIN;\n${migration.sql}\n;COMMIT;`);
      await query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      done.push(migration.name);
    }
    return done;
  } finally {
    await exec("SELECT pg_advisory_unlock(724001)");
  }
}
