// The application secret signs price tokens and console sessions. Set
// APP_SECRET when several instances share a database; a single instance
// generates one into DATA_DIR on its first start and keeps it.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "../config";

export function ensureAppSecret(): string {
  const cfg = config();
  let secret = cfg.APP_SECRET;
  if (!secret) {
    const file = path.resolve(cfg.DATA_DIR, "app-secret");
    if (existsSync(file)) secret = readFileSync(file, "utf8").trim();
    else {
      mkdirSync(cfg.DATA_DIR, { recursive: true });
      secret = randomBytes(32).toString("base64url");
      writeFileSync(file, secret, { mode: 0o600 });
    }
    cfg.APP_SECRET = secret;
    process.env.APP_SECRET = secret;
  }
  process.env.NEXTAUTH_SECRET ??= secret;
  return secret;
}

export function appSecret(): string {
  return config().APP_SECRET ?? ensureAppSecret();
}
