// The seed: the integration API key, the console's administrator and the demo
// city. Running it twice changes nothing. With SEED_API_KEY /
// SEED_ADMIN_EMAIL / SEED_ADMIN_PASSWORD it creates exactly those; without,
// it generates them on the first run and returns them to be printed once.
// The seed moves orders (the demo city): their effects must be wired.
import "../subscribers";
import { randomBytes } from "node:crypto";
import type { Db } from "../db";
import { hashApiKey, issueApiKey } from "../auth/api-keys";
import { hashPassword } from "../auth/passwords";

export interface SeedOptions {
  apiKey?: string;
  adminEmail?: string;
  adminPassword?: string;
  demo: boolean;
}

export interface SeedResult {
  /** Present only when created now (a generated secret is shown once). */
  apiKey?: string;
  admin?: { email: string; password: string };
  demoCreated: boolean;
}

export async function seedDatabase(db: Db, options: SeedOptions): Promise<SeedResult> {
  const result: SeedResult = { demoCreated: false };

  if (options.apiKey) {
    const exists = await db.apiKey.findUnique({ where: { keyHash: hashApiKey(options.apiKey) }, select: { id: true } });
    if (!exists) {
      await issueApiKey(db, { name: "Seed key", key: options.apiKey });
      result.apiKey = options.apiKey;
    }
  } else if ((await db.apiKey.count()) === 0) {
    result.apiKey = (await issueApiKey(db, { name: "Demo key" })).key;
  }

  const email = options.adminEmail ?? (options.adminPassword ? "admin@taxi.local" : undefined);
  if (email) {
    const exists = await db.user.findUnique({ where: { email }, select: { id: true } });
    if (!exists) {
      const password = options.adminPassword ?? randomBytes(9).toString("base64url");
      await db.user.create({
        data: { email, name: "Administrator", passwordHash: await hashPassword(password), roles: ["ADMIN", "DISPATCHER", "ACCOUNTANT", "EXCHANGE_OPERATOR"] },
        select: { id: true },
      });
      result.admin = { email, password };
    }
  } else if ((await db.user.count()) === 0) {
    const password = randomBytes(9).toString("base64url");
    await db.user.create({
      data: { email: "admin@taxi.local", name: "Administrator", passwordHash: await hashPassword(password), roles: ["ADMIN", "DISPATCHER", "ACCOUNTANT", "EXCHANGE_OPERATOR"] },
      select: { id: true },
    });
    result.admin = { email: "admin@taxi.local", password };
  }

  if (options.demo) {
    const { seedDemoCity } = await import("./demo");
    result.demoCreated = (await seedDemoCity(db)).created;
  }
  return result;
}
