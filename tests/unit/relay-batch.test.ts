// The event relay's payloads (server/events/relay-batch.ts): many envelopes in
// the fewest NOTIFY payloads, none over PostgreSQL's limit, order kept.
import { describe, expect, it } from "vitest";
import { isOwnPayload, MAX_PAYLOAD, readRelayPayload, relayBatches } from "../../server/events/relay-batch";
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

  it("tells the instance's own payloads (it hears its own NOTIFYs) from others' by their start, as built and as an older version sends one", () => {
    const own = "3f0c7a2e-6f4d-4b8a-9d51-1c2b3a4d5e6f";
    const mine = (i: number): Envelope => ({ ...envelope(i), origin: own });
    for (const payload of relayBatches([mine(1), mine(2)])) expect(isOwnPayload(payload, own)).toBe(true);
    expect(isOwnPayload(JSON.stringify(mine(3)), own)).toBe(true);
    for (const payload of relayBatches([envelope(1), envelope(2)])) expect(isOwnPayload(payload, own)).toBe(false);
    // another instance whose id begins like ours, or names ours later in its payload
    const other = (i: number): Envelope => ({ ...envelope(i), origin: `${own}-2` });
    expect(isOwnPayload(relayBatches([other(1)])[0]!, own)).toBe(false);
    expect(isOwnPayload(relayBatches([envelope(1), mine(2)])[0]!, own)).toBe(false);
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
