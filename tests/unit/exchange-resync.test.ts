import { describe, expect, it } from "vitest";
import { missedNotification } from "@/server/exchange/participant/resync";

const order = (status: number, executor?: Record<string, unknown>) => ({ id: "77", attributes: { status, ...(executor ? { executor } : {}) } });

describe("what a re-reading after a new session applies", () => {
  it("an offer no longer free was taken by another or closed", () => {
    expect(missedNotification({ role: "BOUGHT", phase: "OFFERED", remoteState: 9 }, order(9))).toBeUndefined();
    expect(missedNotification({ role: "BOUGHT", phase: "OFFERED", remoteState: 9 }, order(1, { callSign: "Z" }))).toMatchObject({ topic: "order/revoked" });
  });

  it("an ended order: completed or cancelled with its status", () => {
    expect(missedNotification({ role: "BOUGHT", phase: "TAKEN", remoteState: 4 }, order(100, {}))).toMatchObject({ topic: "order/completed" });
    expect(missedNotification({ role: "SOLD", phase: "TAKEN", remoteState: 2 }, order(95, {}))).toEqual({
      topic: "order/cancelled",
      data: { id: "77", status: "95", reason: "seen on the exchange after a new session" },
    });
  });

  it("a sold order taken meanwhile, an executor removed, a status moved on; nothing when nothing differs", () => {
    expect(missedNotification({ role: "SOLD", phase: "ACCEPTED", remoteState: 9 }, order(1, { callSign: "Z" }))).toMatchObject({
      topic: "order/taken",
      data: { id: "77", attributes: { executor: { callSign: "Z" } } },
    });
    expect(missedNotification({ role: "SOLD", phase: "TAKEN", remoteState: 2 }, order(9))).toEqual({ topic: "order/rejectdriver", data: { id: "77" } });
    expect(missedNotification({ role: "BOUGHT", phase: "TAKEN", remoteState: 2 }, order(10, {}))).toEqual({ topic: "order/updated", data: { id: "77", attributes: { status: 10 } } });
    expect(missedNotification({ role: "BOUGHT", phase: "TAKEN", remoteState: 10 }, order(10, {}))).toBeUndefined();
  });
});
