// The offer streams' sweep (server/driver-app/stream-sweep.ts): which open
// streams must read their driver's state again, from one row per stream.
import { describe, expect, it } from "vitest";
import { outOfDate, type StreamWatch } from "@/server/driver-app/stream-sweep";

function watch(driverId: number, sent: { offer: string; message: number }, keyed = true): StreamWatch {
  return { driverId, keyHash: keyed ? "h" : undefined, offerKey: () => sent.offer, lastMessage: () => sent.message, wake: () => undefined };
}

describe("the sweep wakes only the streams that are out of date", () => {
  const up = watch(1, { offer: "none", message: 4 });
  const offered = watch(2, { offer: "none", message: 0 });
  const withdrawn = watch(3, { offer: "17", message: 0 });
  const messaged = watch(4, { offer: "none", message: 9 });
  const revoked = watch(5, { offer: "none", message: 0 });
  const keyless = watch(6, { offer: "none", message: 0 }, false);
  const watches = [up, offered, withdrawn, messaged, revoked, keyless];
  const rows = [
    { i: 1, holds: true, offer_id: null, last_message: 4 },
    { i: 2, holds: true, offer_id: 21, last_message: null },
    { i: 3, holds: true, offer_id: null, last_message: null },
    { i: 4, holds: true, offer_id: null, last_message: 10 },
    { i: 5, holds: false, offer_id: null, last_message: null },
    // A stream without a key (a dispatcher's view of a driver) is not ended by the key's check.
    { i: 6, holds: false, offer_id: null, last_message: null },
  ];

  it("an offer made or gone, a newer message, a key that no longer holds", () => {
    expect(outOfDate(watches, rows)).toEqual([offered, withdrawn, messaged, revoked]);
  });

  it("a stream ahead of the row (a message it was sent after the read) is not woken", () => {
    expect(outOfDate([watch(7, { offer: "none", message: 12 })], [{ i: 1, holds: true, offer_id: null, last_message: 11 }])).toEqual([]);
  });

  it("a row for no stream (out of range) is ignored", () => {
    expect(outOfDate([up], [{ i: 2, holds: false, offer_id: 5, last_message: 99 }])).toEqual([]);
  });
});
