// Driver app keys: each driver's app holds a secret key of its own, issued
// by the fleet's back office through the provisioning call and shown once.
// Only its SHA-256 hash is stored (Driver.appKeyHash; the keys are long
// random strings, so a fast hash is safe). Issuing a new key replaces the
// old one, which stops working at once on every instance (the change is
// announced on the event bus, which reaches the others by LISTEN).
//
// The provisioning key that may issue driver keys is derived from APP_SECRET
// (HMAC-SHA256 with a fixed label), so it is never stored and every instance
// sharing the secret accepts the same one; whoever holds APP_SECRET (the
// server itself, the operator) can compute it. See docs/driver-app.md.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { DbOrTx } from "../db";
import { appSecret } from "../auth/secret";
import { AuthError, ValidationError } from "../errors";
import { publish, subscribe } from "../events/bus";
import { sqlQuery } from "../db/sql";

const PROVISIONING_LABEL = "taxi-dispatch/driver-app/provisioning/v1";

/** The provisioning key of an installation with this APP_SECRET. */
export function provisioningKeyFor(secret: string): string {
  return `dp_${createHmac("sha256", secret).update(PROVISIONING_LABEL).digest("base64url")}`;
}

export function provisioningKey(): string {
  return provisioningKeyFor(appSecret());
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function checkProvisioningKey(presented: string | undefined): void {
  if (!presented) throw new AuthError("UNAUTHORIZED", { reason: "the provisioning key is missing" });
  if (!sameSecret(presented, provisioningKey())) throw new AuthError("UNAUTHORIZED", { reason: "bad provisioning key" });
}

export function hashAppKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function generateAppKey(): string {
  return `da_${randomBytes(32).toString("base64url")}`;
}

export interface DriverIdentity {
  id: number;
  callSign: string;
  cityId: number;
  /** The hash of the key the caller presented: a long-lived stream re-checks it (server/driver-app/offers.ts). */
  keyHash?: string;
}

/**
 * Tells every instance that the driver's key changed or the driver was
 * disabled (after the change committed): open offer streams and long polls
 * re-check the key at once, and every instance forgets its cached keys.
 */
export function announceDriverAccessChanged(driverId: number): void {
  forgetDriverKeys();
  publish({ type: "driver.accessRevoked", driverId });
}

/** Issues a new key for the driver (replacing any old one); the key is returned once. */
export async function issueDriverAppKey(db: DbOrTx, callSign: string): Promise<{ driverId: number; callSign: string; key: string }> {
  const driver = await db.driver.findUnique({ where: { callSign }, select: { id: true, active: true } });
  if (!driver || !driver.active) throw new ValidationError("NOT_FOUND", { what: "Driver", id: callSign });
  const key = generateAppKey();
  await db.driver.update({ where: { id: driver.id }, data: { appKeyHash: hashAppKey(key) }, select: { id: true } });
  announceDriverAccessChanged(driver.id);
  return { driverId: driver.id, callSign, key };
}

/** The driver's app key stops working. */
export async function revokeDriverAppKey(db: DbOrTx, callSign: string): Promise<void> {
  const driver = await db.driver.findUnique({ where: { callSign }, select: { id: true } });
  if (!driver) throw new ValidationError("NOT_FOUND", { what: "Driver", id: callSign });
  await db.driver.update({ where: { id: driver.id }, data: { appKeyHash: null }, select: { id: true } });
  announceDriverAccessChanged(driver.id);
}

// Every call of a driver app is authenticated; a cache keeps that off the
// database. A new key, a revocation or a disabled driver clears it on every
// instance at once (announceDriverAccessChanged, carried between instances by
// the event relay), so the time limit is only the fallback for a change made
// behind the server's back (plain SQL). It is longer than a phone's position
// period (5 s): with 5 s, nearly every position paid a query (docs/performance.md,
// "A fleet of ten thousand").
const CACHE_MS = 60_000;
/** Entries kept at most (a fleet of 10,000 drivers and their replaced keys); more clears the cache. */
const CACHE_MAX = 50_000;
const cacheKey = Symbol.for("taxi.driverAppKeyCache");
type Cached = { identity: DriverIdentity | null; at: number };
type Holder = { [cacheKey]?: Map<string, Cached> };

function cache(): Map<string, Cached> {
  const holder = globalThis as Holder;
  if (!holder[cacheKey]) {
    holder[cacheKey] = new Map();
    // A change announced by another instance clears this one's cache too (announceDriverAccessChanged).
    subscribe((event) => {
      if (event.type === "driver.accessRevoked") holder[cacheKey]?.clear();
    });
  }
  return holder[cacheKey];
}

export function forgetDriverKeys(): void {
  cache().clear();
}

/** The driver holding this app key; UNAUTHORIZED for a missing, unknown or replaced key, or an inactive driver. */
export async function authenticateDriver(db: DbOrTx, key: string | undefined): Promise<DriverIdentity> {
  if (!key) throw new AuthError("UNAUTHORIZED", { reason: "the driver app key is missing" });
  if (key.length > 200) throw new AuthError("UNAUTHORIZED", { reason: "bad driver app key" });
  const hash = hashAppKey(key);
  const now = Date.now();
  const hit = cache().get(hash);
  if (hit && now - hit.at < CACHE_MS) {
    if (!hit.identity) throw new AuthError("UNAUTHORIZED", { reason: "unknown or replaced driver app key" });
    return hit.identity;
  }
  // By hand: a fleet's every phone comes here once a minute (docs/performance.md, "A fleet of ten thousand").
  const [row] = await sqlQuery<{ id: number; callSign: string; cityId: number; active: boolean }>(
    db,
    `SELECT id, call_sign AS "callSign", city_id AS "cityId", active FROM driver WHERE app_key_hash = $1`,
    [hash],
  );
  const identity = row && row.active ? { id: row.id, callSign: row.callSign, cityId: row.cityId, keyHash: hash } : null;
  if (cache().size > CACHE_MAX) cache().clear();
  cache().set(hash, { identity, at: now });
  if (!identity) throw new AuthError("UNAUTHORIZED", { reason: "unknown or replaced driver app key" });
  return identity;
}
