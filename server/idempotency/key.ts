// The Idempotency-Key request header (IETF draft-ietf-httpapi-idempotency-key-header,
// as Stripe uses it): reading the key and the fingerprint of the request it
// was sent with.
import { createHash } from "node:crypto";
import { ValidationError } from "../errors";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Visible ASCII: UUIDs, ULIDs, base64 and the like; nothing a log or a header could be confused by. */
const KEY_PATTERN = /^[\x21-\x7e]+$/;

/**
 * The key of a request, or undefined when none was sent. The draft sends it
 * as a structured-field string ("…"); clients usually send it bare: both are
 * read. A malformed key is refused rather than ignored, so that a client
 * never believes itself protected when it is not.
 */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const raw = (Array.isArray(header) ? header.join(",") : header).trim();
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "Idempotency-Key", expected: `1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters` });
  }
  return key;
}

/**
 * The request's fingerprint: the operation and its parameters that the
 * operation reads, sorted by name (unknown parameters are ignored by the API,
 * so stale ones a client carries along do not make a retry "different").
 */
export function requestFingerprint(operation: string, params: ReadonlyMap<string, string>, known: ReadonlySet<string>): string {
  const canonical = [...params].filter(([name]) => known.has(name) && name !== "api_key").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256").update(JSON.stringify([operation, canonical])).digest("hex");
}
