// The console's session outside Next: next-auth's session cookie read and
// decrypted with next-auth's own functions (`getToken` assembles the cookie,
// chunks `.0`, `.1`… included; `decode` decrypts and verifies the JWE and its
// expiry), giving the claims server/auth/next-auth.ts put in the token:
// `{ userId: uid, loginAt }`, as getServerSession gave them before. Roles and
// the disabled flag are not in the token: server/console/session.ts re-reads
// them from the database on every call.
//
// next-auth derives the JWE key from the secret (HKDF) on every decode. The
// console sends the same cookie with every call, so a decrypted cookie's
// claims are kept in a small cache, keyed by the cookie's exact value. Why
// that is safe:
//   - only a value that decrypted and authenticated under our secret is ever
//     stored (AES-256-GCM: the value carries its own authentication tag), so
//     a forged or altered value never equals a key in the cache; it misses
//     and is decrypted and refused as before;
//   - the key is the whole token, not a part of it (no prefix, no hash);
//   - an entry lives at most CACHE_TTL_MS and never past the token's own
//     `exp`, so an expired token is refused as before;
//   - what may change during a session (disabled, roles, the session epoch,
//     the absolute lifetime from loginAt) is checked on every call after
//     this, against the database, not cached;
//   - a changed secret starts a new cache.
// Replaying a stolen cookie works with or without the cache until it expires.
import { LRUCache } from "lru-cache";
import { decode, getToken, type GetTokenParams } from "next-auth/jwt";
import type { SessionClaims } from "../console/session";
import { cacheSizes } from "../metrics/collectors";
import { sessionCookieName } from "./next-auth";

/** How long a decrypted cookie's claims are kept at most. */
export const CACHE_TTL_MS = 60_000;
/** Distinct cookies kept: more live sessions than this on one instance only cost a decryption each. */
const CACHE_MAX = 5_000;

type Cache = LRUCache<string, SessionClaims>;
const cacheKey = Symbol.for("taxi.consoleSessionCache");
type Holder = { [cacheKey]?: { secret: string; cache: Cache } };

function cacheFor(secret: string): Cache {
  const holder = globalThis as Holder;
  if (holder[cacheKey]?.secret !== secret) {
    const cache: Cache = new LRUCache<string, SessionClaims>({ max: CACHE_MAX, ttl: CACHE_TTL_MS, updateAgeOnGet: false });
    holder[cacheKey] = { secret, cache };
    cacheSizes().set("console_sessions", () => cache.size);
  }
  return holder[cacheKey].cache;
}

/**
 * Cookies of a Cookie header, read as Next's request cookies read them (so a
 * cookie getServerSession found is found here): pairs split on ";" and the
 * spaces after it, the last of a name wins, values percent-decoded (one that
 * does not decode is dropped), a bare name is "true".
 */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const pair of header.split(/; */)) {
    if (!pair) continue;
    const at = pair.indexOf("=");
    if (at === -1) {
      cookies.set(pair, "true");
      continue;
    }
    try {
      cookies.set(pair.slice(0, at), decodeURIComponent(pair.slice(at + 1)));
    } catch {
      // not valid percent-encoding: no such cookie, as in Next
    }
  }
  return cookies;
}

function claimsOf(payload: Record<string, unknown> | null): SessionClaims | null {
  const uid = payload?.uid;
  if (typeof uid !== "number" || !Number.isSafeInteger(uid) || uid <= 0) return null;
  const loginAt = typeof payload?.loginAt === "number" ? payload.loginAt : 0;
  const epoch = payload?.epoch;
  if (epoch !== undefined && (typeof epoch !== "number" || !Number.isSafeInteger(epoch))) return null;
  return epoch === undefined ? { userId: uid, loginAt } : { userId: uid, loginAt, epoch };
}

/** The session's claims from a request's Cookie header, or null (no cookie, forged, altered, expired, another secret). */
export async function sessionClaims(cookieHeader: string | undefined): Promise<SessionClaims | null> {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret || !cookieHeader) return null;
  const name = sessionCookieName();
  // getToken with `raw`: next-auth's own reading of its (possibly chunked)
  // cookie. It reads only `req.cookies` and `req.headers`; with no headers it
  // has no other way in (getServerSession took no Bearer token either).
  const req = { cookies: parseCookies(cookieHeader), headers: {} } as unknown as GetTokenParams<true>["req"];
  const token = await getToken({ req, cookieName: name, secureCookie: name.startsWith("__Secure-"), raw: true, secret });
  if (!token) return null;
  const cache = cacheFor(secret);
  const cached = cache.get(token);
  if (cached) return cached;
  let payload: Record<string, unknown> | null;
  try {
    payload = await decode({ token, secret });
  } catch {
    return null;
  }
  const claims = claimsOf(payload);
  if (!claims) return null;
  // Frozen: one object answers every call with this cookie.
  Object.freeze(claims);
  const exp = typeof payload?.exp === "number" ? payload.exp * 1000 : Infinity;
  const ttl = Math.min(CACHE_TTL_MS, Math.floor(exp - Date.now()));
  if (ttl > 0) cache.set(token, claims, { ttl });
  return claims;
}
