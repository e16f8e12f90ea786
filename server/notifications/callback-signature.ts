// Signed status callbacks. Each API key's callback secret is generated here,
// shown to its integrator once, and kept sealed with APP_SECRET (AES-256-GCM,
// a key of its own derived by HKDF): the database alone cannot sign, and the
// secret must be readable by the server to compute an HMAC (a hash would not do).
//
// Every callback of a key with a secret carries
//   X-Callback-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<request target>")>
// where the request target is the path and query exactly as sent. A receiver
// recomputes it, compares in constant time and refuses old `t` (replays).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { appSecret } from "../auth/secret";
import { open, seal } from "../auth/sealed-box";

export const SIGNATURE_HEADER = "x-callback-signature";
const LABEL = { salt: "callback-secret", info: "api-key-callback-secret" };

/** A new secret: 32 random bytes, prefixed so that it is recognisable in a leak scan. */
export function generateCallbackSecret(): string {
  return `cbsec_${randomBytes(32).toString("base64url")}`;
}

export function sealCallbackSecret(plain: string, secret = appSecret()): string {
  return seal(LABEL, plain, secret);
}

/** The secret, or undefined when it cannot be opened (APP_SECRET changed): the callback then goes unsigned. */
export function openCallbackSecret(sealed: string, secret = appSecret()): string | undefined {
  const opened = open(LABEL, sealed, secret);
  return "plain" in opened ? opened.plain : undefined;
}

/** The request target of a URL as the outgoing client sends it (server/http/outgoing.ts: pathname + search). */
export function requestTargetOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** The header's value for a callback to `url` at `at`. */
export function signCallback(secret: string, url: string, at = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac("sha256", secret).update(`${t}.${requestTargetOf(url)}`, "utf8").digest("hex");
  return `t=${t},v1=${v1}`;
}

/**
 * What a receiver does (documented in docs/integrators.md; kept here for the
 * tests of our own signing): true when `header` signs `target` with `secret`
 * and is no older than `toleranceSeconds`.
 */
export function verifyCallbackSignature(secret: string, target: string, header: string, toleranceSeconds = 300, now = new Date()): boolean {
  const fields = new Map(header.split(",").map((part) => part.trim().split("=", 2) as [string, string]));
  const t = Number(fields.get("t"));
  const v1 = fields.get("v1") ?? "";
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${target}`, "utf8").digest();
  return timingSafeEqual(expected, Buffer.from(v1, "hex"));
}
