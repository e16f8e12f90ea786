// `npm run db:migrate | db:seed | db:reset`: the database chosen by
// configuration (DATABASE_URL, or the embedded PGlite in DATA_DIR). With the
// embedded database the server must not be running (one process at a time):
// the folder's lock (server/db/data-dir-lock.ts) refuses to start while it runs.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { config } from "../server/config";
import { closeDb, connection, db, withSession } from "../server/db";
import { migrate } from "../server/db/migrate";
import { lockDataDir } from "../server/db/data-dir-lock";
import { ensureAppSecret } from "../server/auth/secret";
import { seedDatabase } from "../server/seed";

async function runMigrations(): Promise<void> {
  const applied = await withSession((session) => migrate(session));
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.");
}

async function runSeed(): Promise<void> {
  const cfg = config();
  const result = await seedDatabase(db(), { apiKey: cfg.SEED_API_KEY, adminEmail: cfg.SEED_ADMIN_EMAIL, adminPassword: cfg.SEED_ADMIN_PASSWORD, demo: cfg.SEED_DEMO });
  if (result.apiKey) console.log(`API key: ${result.apiKey}   (shown once)`);
  if (result.admin) console.log(`Admin login: ${result.admin.email} / ${result.admin.password}   (shown once)`);
  console.log(result.demoCreated ? "Demo city created." : "Seed data already present; nothing changed.");
}

async function reset(): Promise<void> {
  const cfg = config();
  if (cfg.DATABASE_URL) {
    await withSession(async ({ exec }) => {
      await exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
    });
    await closeDb();
  } else {
    // Not while a server (or another tool) holds the folder: the lock first, naming the holder (server/db/data-dir-lock.ts).
    mkdirSync(path.resolve(cfg.DATA_DIR), { recursive: true });
    lockDataDir(path.resolve(cfg.DATA_DIR));
    rmSync(path.resolve(cfg.DATA_DIR, "pglite"), { recursive: true, force: true });
  }
  console.log("Database emptied.");
}

async function main(): Promise<void> {
  const command = process.argv[2];
  ensureAppSecret();
  if (command === "migrate") await runMigrations();
  else if (command === "seed") {
    await runMigrations();
    await runSeed();
  } else if (command === "reset") {
    await reset();
    await runMigrations();
    await runSeed();
  } else {
    console.error("usage: tsx scripts/db.ts migrate|seed|reset");
    process.exit(2);
  }
  console.log(`(${connection().kind === "pglite" ? "embedded PGlite" : "PostgreSQL"})`);
  await closeDb();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
