// API keys of integration clients. Only a SHA-256 hash is stored (the keys
// are long random strings, so a fast hash is safe); the key itself is shown
// once, when it is issued.
import { createHash, randomBytes } from "node:crypto";
import type { DbOrTx } from "../db";
import { AuthError } from "../errors";

export interface ApiKeyIdentity {
  id: number;
  name: string;
  callbackTemplate: string | null;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function generateApiKey(): string {
  return `tk_${randomBytes(24).toString("base64url")}`;
}

/** Creates a key; `key` given (the seed's SEED_API_KEY) or generated. */
export async function issueApiKey(db: DbOrTx, input: { name: string; key?: string; callbackTemplate?: string | null }) {
  const key = input.key ?? generateApiKey();
  const row = await db.apiKey.create({
    data: { name: input.name, prefix: key.slice(0, 8), keyHash: hashApiKey(key), callbackTemplate: input.callbackTemplate ?? null },
    select: { id: true, name: true, prefix: true, createdAt: true },
  });
  forgetApiKeys();
  return { ...row, key };
}

export async function revokeApiKey(db: DbOrTx, id: number): Promise<void> {
  await db.apiKey.update({ where: { id }, data: { revokedAt: new Date() }, select: { id: true } });
  forgetApiKeys();
}

// Keys are checked on every request; a short cache keeps that off the
// database. Revocation clears it here at once; other instances see it
// within CACHE_MS.
const CACHE_MS = 5_000;
const cacheKey = Symbol.for("taxi.apiKeyCache");
type Cached = { identity: ApiKeyIdentity | null; at: number };
type Holder = { [cacheKey]?: Map<string, Cached> };

function cache(): Map<string, Cached> {
  const holder = globalThis as Holder;
  holder[cacheKey] ??= new Map();
  return holder[cacheKey];
}

export function forgetApiKeys(): void {
  cache().clear();
}

/** The identity of a valid key; AuthError for a missing, unknown or revoked one. */
export async function authenticateApiKey(db: DbOrTx, key: string | undefined): Promise<ApiKeyIdentity> {
  if (!key) throw new AuthError("MISSING_API_KEY");
  if (key.length > 200) throw new AuthError("BAD_API_KEY");
  const hash = hashApiKey(key);
  const now = Date.now();
  const hit = cache().get(hash);
  if (hit && now - hit.at < CACHE_MS) {
    if (!hit.identity) throw new AuthError("BAD_API_KEY");
    return hit.identity;
  }
  const row = await db.apiKey.findUnique({
    where: { keyHash: hash },
    select: { id: true, name: true, callbackTemplate: true, revokedAt: true },
  });
  const identity = row && !row.revokedAt ? { id: row.id, name: row.name, callbackTemplate: row.callbackTemplate } : null;
  if (cache().size > 10_000) cache().clear();
  cache().set(hash, { identity, at: now });
  if (!identity) throw new AuthError("BAD_API_KEY");
  // Last use, for the console: written at most once per cache period per key,
  // off the request's path.
  db.apiKey.updateMany({ where: { id: identity.id }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
  return identity;
}
