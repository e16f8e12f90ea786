// A console's pending events (server/events/console-batch.ts): each thing once,
// in its latest state, in the order of its latest change; a resync replaces all.
import { describe, expect, it } from "vitest";
import { CONSOLE_MAX_PENDING, ConsoleBatch, type ConsoleEvent } from "../../server/events/console-batch";

const changed = (orderId: number, state: string): ConsoleEvent => ({ type: "order.changed", orderId, uuid: `u${orderId}`, state, statusCode: 1, driverId: null, regionId: null });
const created = (orderId: number): ConsoleEvent => ({ type: "order.created", orderId, uuid: `u${orderId}`, state: "FREE", statusCode: 1, regionId: null });
const offer = (offerId: number, state: string): ConsoleEvent => ({ type: "offer.changed", offerId, orderId: 1, driverId: 2, state, kind: "AUTO", deadline: "" });
const message = (messageId: number): ConsoleEvent => ({ type: "driver.message", driverId: 1, messageId, sender: "DRIVER" });

describe("ConsoleBatch", () => {
  it("keeps each order's and offer's latest change, where that change came", () => {
    const batch = new ConsoleBatch();
    batch.push(created(1));
    batch.push(changed(1, "ASSIGNED"));
    batch.push(offer(7, "LIVE"));
    batch.push(changed(2, "FREE"));
    batch.push(changed(1, "DONE"));
    batch.push(offer(7, "REFUSED"));
    expect(batch.size).toBe(4);
    expect(batch.take()).toEqual([created(1), changed(2, "FREE"), changed(1, "DONE"), offer(7, "REFUSED")]);
    expect(batch.size).toBe(0);
    expect(batch.take()).toEqual([]);
  });

  it("keeps every new order and every driver's message", () => {
    const batch = new ConsoleBatch();
    for (const e of [created(1), created(2), message(1), message(2)]) batch.push(e);
    expect(batch.take()).toEqual([created(1), created(2), message(1), message(2)]);
  });

  it("merges the cars' batches, each driver's latest row", () => {
    const batch = new ConsoleBatch();
    batch.push({ type: "drivers.changed", rows: [[1, "A", "FREE", 55, 37, 0, 0, null], [2, "B", "FREE", 55, 37, 0, 0, null]] });
    batch.push(changed(1, "FREE"));
    batch.push({ type: "drivers.changed", rows: [[2, "B", "BUSY", 56, 38, 10, 90, 3]] });
    expect(batch.take()).toEqual([
      changed(1, "FREE"),
      { type: "drivers.changed", rows: [[1, "A", "FREE", 55, 37, 0, 0, null], [2, "B", "BUSY", 56, 38, 10, 90, 3]] },
    ]);
  });

  it("a resync drops what came before it; a console that falls too far behind gets one", () => {
    const batch = new ConsoleBatch();
    batch.push(created(1));
    batch.push({ type: "resync" });
    batch.push(changed(2, "FREE"));
    expect(batch.take()).toEqual([{ type: "resync" }, changed(2, "FREE")]);

    for (let i = 0; i < CONSOLE_MAX_PENDING; i++) batch.push(created(i));
    expect(batch.size).toBe(CONSOLE_MAX_PENDING);
    batch.push(created(-1));
    expect(batch.take()).toEqual([{ type: "resync" }]);
    // The same order changing without end is one event, never a resync.
    for (let i = 0; i < CONSOLE_MAX_PENDING * 3; i++) batch.push(changed(5, `S${i}`));
    expect(batch.take()).toEqual([changed(5, `S${CONSOLE_MAX_PENDING * 3 - 1}`)]);
  });
});
