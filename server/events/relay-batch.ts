// The relay's payloads: several envelopes of one instance in one NOTIFY
// (pg-relay.ts). A payload is a JSON array of envelopes under PostgreSQL's
// NOTIFY limit (8000 bytes); an envelope too large for any payload is
// dropped, as a single one always was (events are far smaller). A single
// envelope as a plain object (what instances of the previous version send)
// is still read, so instances of both versions can run side by side.
import type { Envelope } from "./bus";

/** Below PostgreSQL's 8000-byte NOTIFY payload limit. */
export const MAX_PAYLOAD = 7900;

/** The envelopes as the fewest payloads, in order. Lengths are counted in bytes (UTF-8). */
export function relayBatches(envelopes: readonly Envelope[], maxBytes = MAX_PAYLOAD): string[] {
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = 2; // "[" and "]"
  for (const envelope of envelopes) {
    const text = JSON.stringify(envelope);
    const bytes = Buffer.byteLength(text);
    if (bytes + 2 > maxBytes) continue;
    if (parts.length && size + 1 + bytes > maxBytes) {
      payloads.push(`[${parts.join(",")}]`);
      parts = [];
      size = 2;
    }
    size += bytes + (parts.length ? 1 : 0);
    parts.push(text);
  }
  if (parts.length) payloads.push(`[${parts.join(",")}]`);
  return payloads;
}

function isEnvelope(value: unknown): value is Envelope {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return typeof v.origin === "string" && typeof v.at === "number" && !!v.event && typeof v.event === "object";
}

/** The envelopes of one payload (an array, or one envelope); malformed entries are skipped. Throws on text that is not JSON. */
export function readRelayPayload(payload: string): Envelope[] {
  const parsed: unknown = JSON.parse(payload);
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.filter(isEnvelope);
}

/**
 * Whether a payload is this instance's own (it hears its own NOTIFYs on the
 * channel): told from its first characters, so its own events, a position's
 * among them, are not parsed again only to be dropped. Every envelope of a
 * payload is its sender's, and an envelope's first key is its origin.
 */
export function isOwnPayload(payload: string, instanceId: string): boolean {
  return payload.startsWith(`[{"origin":${JSON.stringify(instanceId)},`) || payload.startsWith(`{"origin":${JSON.stringify(instanceId)},`);
}
