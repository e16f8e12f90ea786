// The event relay's payloads (server/events/relay-batch.ts): many envelopes in
// the fewest NOTIFY payloads, none over PostgreSQL's limit, order kept.
import { describe, expect, it } from "vitest";
import { MAX_PAYLOAD, readRelayPayload, relayBatches } from "../../server/events/relay-batch";
import type { Envelope } from "../../server/events/bus";

function envelope(i: number, filler = ""): Envelope {
  return { origin: "a", at: 1_700_000_000_000 + i, event: { type: "outbox.changed", messageId: i, status: `DELIVERED${filler}` } };
}

describe("event relay payloads", () => {
  it("puts a burst of events in few payloads, each under the limit, in order", () => {
    const sent = Array.from({ length: 1000 }, (_, i) => envelope(i));
    const payloads = relayBatches(sent);
    expect(payloads.length).toBeLessThan(sent.length / 50);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD);
    expect(payloads.flatMap(readRelayPayload)).toEqual(sent);
  });

  it("counts bytes, not characters (Cyrillic text is two bytes a letter)", () => {
    const sent = Array.from({ length: 200 }, (_, i) => envelope(i, "ж".repeat(100)));
    const payloads = relayBatches(sent);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD);
    expect(payloads.flatMap(readRelayPayload)).toEqual(sent);
  });

  it("drops only an envelope too large for any payload", () => {
    const sent = [envelope(1), envelope(2, "x".repeat(MAX_PAYLOAD)), envelope(3)];
    expect(relayBatches(sent).flatMap(readRelayPayload)).toEqual([sent[0], sent[2]]);
  });

  it("an envelope exactly at the limit goes alone", () => {
    const base = JSON.stringify(envelope(1)).length + 2;
    const exact = envelope(1, "x".repeat(MAX_PAYLOAD - base));
    const payloads = relayBatches([envelope(0), exact, envelope(2)]);
    expect(payloads).toHaveLength(3);
    expect(Buffer.byteLength(payloads[1]!)).toBe(MAX_PAYLOAD);
  });

  it("reads a single envelope (the previous version's payload) and skips what is not one", () => {
    expect(readRelayPayload(JSON.stringify(envelope(7)))).toEqual([envelope(7)]);
    expect(readRelayPayload(JSON.stringify([envelope(1), { origin: 5 }, null, "x", envelope(2)]))).toEqual([envelope(1), envelope(2)]);
    expect(() => readRelayPayload("not json")).toThrow();
  });
});
