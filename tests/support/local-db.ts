// The process's own database for in-process service tests: a fresh PGlite in
// a temporary directory, migrated and seeded with the demo city: a copy of
// the run's seeded template (tests/support/local-db-setup.ts) when the
// project provides one, else migrated and seeded here. Call before anything
// reads the configuration.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { closeDb, db, withSession } from "../../server/db";
import { migrate } from "../../server/db/migrate";
import { seedDatabase } from "../../server/seed";
import { LOCAL_SEED } from "./local-db-template";

export async function openLocalDb(): Promise<{ close: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "taxi-unit-"));
  process.env.DATA_DIR = dir;
  process.env.APP_SECRET ??= LOCAL_SEED.appSecret;
  delete process.env.DATABASE_URL;
  const template = inject("localDbTemplate") as string | undefined;
  if (template) cpSync(template, dir, { recursive: true });
  else {
    await withSession((session) => migrate(session));
    await seedDatabase(db(), { demo: true, apiKey: LOCAL_SEED.apiKey, adminEmail: LOCAL_SEED.adminEmail, adminPassword: LOCAL_SEED.adminPassword });
  }
  return {
    close: async () => {
      await closeDb();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The file's tests on their own local database: opened before them, closed and removed after. */
export function useLocalDb(): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ close } = await openLocalDb());
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });
}

/**
 * The process's own database on the PostgreSQL at 127.0.0.1:5432 instead (for what only several connections
 * show): a fresh database, migrated and seeded with the demo city; closed and dropped by `close`.
 */
export async function openOwnPostgres(): Promise<{ close: () => Promise<void> }> {
  const { createPostgresDatabase } = await import("./server");
  const made = await createPostgresDatabase();
  process.env.DATABASE_URL = made.url;
  process.env.APP_SECRET ??= LOCAL_SEED.appSecret;
  process.env.LOG_LEVEL = "error";
  await withSession((session) => migrate(session));
  await seedDatabase(db(), { demo: true, apiKey: LOCAL_SEED.apiKey, adminEmail: LOCAL_SEED.adminEmail, adminPassword: LOCAL_SEED.adminPassword });
  return {
    close: async () => {
      await closeDb();
      await made.drop();
    },
  };
}
