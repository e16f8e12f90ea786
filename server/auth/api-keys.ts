// API keys of integration clients. Only a SHA-256 hash is stored (the keys
// are long random strings, so a fast hash is safe); the key itself is shown
// once, when it is issued.
import { createHash, randomBytes } from "node:crypto";
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
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

// The lookups under way, and how many times the keys were forgotten: a
// lookup that started before a revocation here neither serves nor caches
// what it read. (Apart from the cache: the metrics read the cache's Map
// under its own key, server/metrics/collectors.ts.)
const inflightKey = Symbol.for("taxi.apiKeyLookups");
type Inflight = { lookups: Map<string, Promise<ApiKeyIdentity | null>>; generation: number };
type InflightHolder = { [inflightKey]?: Inflight };

function inflight(): Inflight {
  const holder = globalThis as InflightHolder;
  holder[inflightKey] ??= { lookups: new Map(), generation: 0 };
  return holder[inflightKey];
}

/**
 * The key's identity, null when unknown or revoked, cached; its last use
 * (for the console) written by the same statement, so at most once per
 * cache period per key and instance.
 */
async function lookUp(db: DbOrTx, hash: string, now: number): Promise<ApiKeyIdentity | null> {
  const generation = inflight().generation;
  const [row] = await sqlQuery<ApiKeyIdentity>(
    db,
    `UPDATE api_key SET last_used_at = $2 WHERE key_hash = $1 AND revoked_at IS NULL RETURNING id, name, callback_template AS "callbackTemplate"`,
    [hash, new Date(now)],
  );
  const identity = row ?? null;
  if (generation !== inflight().generation) return lookUp(db, hash, Date.now());
  if (cache().size > 10_000) cache().clear();
  cache().set(hash, { identity, at: now });
  return identity;
}

function cache(): Map<string, Cached> {
  const holder = globalThis as Holder;
  holder[cacheKey] ??= new Map();
  return holder[cacheKey];
}

export function forgetApiKeys(): void {
  cache().clear();
  inflight().lookups.clear();
  inflight().generation += 1;
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
  // One lookup at a time per key: when the entry runs out, the requests in
  // flight (an integrator's 20 connections) wait for the same statement
  // instead of each sending its own (they did: 4 statements each, every 5 s).
  const { lookups } = inflight();
  let pending = lookups.get(hash);
  if (!pending) {
    const started: Promise<ApiKeyIdentity | null> = lookUp(db, hash, now).finally(() => {
      if (lookups.get(hash) === started) lookups.delete(hash);
    });
    pending = started;
    lookups.set(hash, started);
  }
  const identity = await pending;
  if (!identity) throw new AuthError("BAD_API_KEY");
  return identity;
}
