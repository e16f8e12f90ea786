// The seeded PGlite directory behind tests/support/local-db.ts: migrated and
// seeded with the demo city and the unit tests' known key and administrator.
// One per vitest process, shared by the projects' global setups.
import { rmSync } from "node:fs";
import { createTemplate } from "../reliability/support/db";

export const LOCAL_SEED = {
  apiKey: "unit-test-key-0123456789",
  adminEmail: "admin@unit.local",
  adminPassword: "unit-password",
  appSecret: "unit-test-secret-unit-test-secret-0123456",
};

const key = Symbol.for("taxi.tests.localDbTemplate");
type Holder = { [key]?: { dir: Promise<string>; users: number } };

export function acquireLocalTemplate(): Promise<string> {
  const holder = globalThis as Holder;
  holder[key] ??= { dir: createTemplate("pglite", LOCAL_SEED).then((t) => t.location), users: 0 };
  holder[key].users++;
  return holder[key].dir;
}

export async function releaseLocalTemplate(): Promise<void> {
  const holder = globalThis as Holder;
  const entry = holder[key];
  if (!entry || --entry.users > 0) return;
  delete holder[key];
  rmSync(await entry.dir, { recursive: true, force: true });
}
