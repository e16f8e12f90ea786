// The process's own database for in-process service tests: a fresh PGlite in
// a temporary directory, migrated and seeded with the demo city. Call before
// anything reads the configuration.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDb, db, withSession } from "../../server/db";
import { migrate } from "../../server/db/migrate";
import { seedDatabase } from "../../server/seed";

export async function openLocalDb(): Promise<{ close: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "taxi-unit-"));
  process.env.DATA_DIR = dir;
  process.env.APP_SECRET ??= "unit-test-secret-unit-test-secret-0123456";
  delete process.env.DATABASE_URL;
  await withSession((session) => migrate(session));
  await seedDatabase(db(), { demo: true, apiKey: "unit-test-key-0123456789", adminEmail: "admin@unit.local", adminPassword: "unit-password" });
  return {
    close: async () => {
      await closeDb();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
