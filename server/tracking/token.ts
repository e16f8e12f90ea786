// The tracking link's token: the order's uuid (16 random bytes) encrypted
// with AES-256 under a key derived from APP_SECRET, in base64url (22
// characters, 128 bits). One block of a block cipher is a keyed permutation:
// without the key no one can turn a uuid (which integrators see) or an order
// number into a token, nor a made-up token into an order (a random token
// names an order with a chance of orders / 2^128). Nothing is stored, so the
// same URL can be given at the order's creation (in its status callback), in
// every GET /api/order and in the SMS, and a database dump holds no tokens.
// Node's crypto (OpenSSL) does the cipher; this file only chooses the mode:
// ECB of exactly one block, no padding, which is what a permutation of
// 128-bit values is.
import { createCipheriv, createDecipheriv, hkdfSync } from "node:crypto";
import { appSecret } from "../auth/secret";

const TOKEN = /^[A-Za-z0-9_-]{22}$/;

let cached: { secret: string; key: Buffer } | undefined;

function key(): Buffer {
  const secret = appSecret();
  if (cached?.secret !== secret) {
    cached = { secret, key: Buffer.from(hkdfSync("sha256", secret, "taxi", "order-tracking-link v1", 32)) };
  }
  return cached.key;
}

function uuidBytes(uuid: string): Buffer {
  const hex = uuid.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error("not a uuid");
  return Buffer.from(hex, "hex");
}

/** The token of the order with this uuid. */
export function trackingToken(uuid: string): string {
  const cipher = createCipheriv("aes-256-ecb", key(), null).setAutoPadding(false);
  return Buffer.concat([cipher.update(uuidBytes(uuid)), cipher.final()]).toString("base64url");
}

/** The uuid a token names, or null for anything that is not a token (every malformed input alike). */
export function uuidOfTrackingToken(token: string): string | null {
  if (!TOKEN.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  // 22 characters carry 132 bits: the last 4 must be zero, so one block has one spelling.
  if (bytes.length !== 16 || bytes.toString("base64url") !== token) return null;
  const decipher = createDecipheriv("aes-256-ecb", key(), null).setAutoPadding(false);
  const hex = Buffer.concat([decipher.update(bytes), decipher.final()]).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
