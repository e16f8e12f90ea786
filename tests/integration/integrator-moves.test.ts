// Moves the API may make: "completed" (100) needs an order a driver carried.
// Before the fix the integration key moved an advance order that never had a
// driver straight to 100, and after that an order no driver ever held through
// 1, 2 and 4 to 100; the state machine (one for every interface) now refuses
// both with FORBIDDEN_MOVE, over the dispatch API and in the console. An
// order a driver of the fleet carries (named with driver_id at creation, as
// the reference allows) still completes through the API.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { apiGet, apiPost } from "../support/api";
import { signInApi, trpc, uniquePhone, type Session } from "../../e2e/support/console-api";

let admin: Session;
beforeAll(async () => {
  admin = await signInApi(inject("baseUrl"), inject("adminEmail"), inject("adminPassword"));
});

async function order(params: Record<string, string>): Promise<{ uuid: string; phone: string }> {
  const phone = uniquePhone();
  const reply = await apiPost<{ uuid: string }>("order", { phone, street: "ул. Ленина", house: "2", ...params });
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return { uuid: reply.response.uuid, phone };
}

async function statusOf(uuid: string): Promise<number> {
  return (await apiGet<{ code: number }>("order/status", { uuid })).response.code;
}

describe("a move to completed (100)", () => {
  it.each([
    ["an advance order (50)", { moderation_required: "no", pre_order_time: "2030-01-15 10:00:00" }, 50],
    ["an order on moderation (80)", {}, 80],
    ["a free order (9)", { moderation_required: "no" }, 9],
  ])("is refused for %s that no driver carried, and the order stays as it was", async (_name, params, code) => {
    const { uuid } = await order(params);
    const reply = await apiPost("order/status", { uuid, code: 100 });
    expect(reply.error?.code).toBe("FORBIDDEN_MOVE");
    expect(await statusOf(uuid)).toBe(code);
  });

  it("is refused for an order no driver holds even after the API moved it through 1, 2 and 4", async () => {
    const { uuid } = await order({ moderation_required: "no" });
    for (const code of [1, 2, 4]) {
      expect((await apiPost("order/status", { uuid, code })).status).toBe("DONE");
      if (code !== 4) expect((await apiPost("order/status", { uuid, code: 100 })).error?.code).toBe("FORBIDDEN_MOVE");
    }
    const refused = await apiPost("order/status", { uuid, code: 100 });
    expect(refused.error?.code).toBe("FORBIDDEN_MOVE");
    // The message says why (4 -> 100 is a move of the table): no driver carried it.
    expect(refused.error?.message).toMatch(/водител|driver/i);
    expect(await statusOf(uuid)).toBe(4);
  });

  it("is made for an order a driver carried: sent to the driver named at creation, through the trip (4)", async () => {
    const { uuid } = await order({ moderation_required: "no", need_notify: "no", driver_id: "101" });
    expect(await statusOf(uuid)).toBe(1);
    // Before the trip the table refuses it, driver or not.
    expect((await apiPost("order/status", { uuid, code: 100 })).error?.code).toBe("FORBIDDEN_MOVE");
    for (const code of [2, 4]) expect((await apiPost("order/status", { uuid, code })).status).toBe("DONE");
    const done = await apiPost<{ code: number }>("order/status", { uuid, code: 100 });
    expect(done.status, JSON.stringify(done.error)).toBe("DONE");
    expect(done.response.code).toBe(100);
    expect((await apiGet<{ driver_id: string }>("order", { uuid })).response.driver_id).toBe("101");
  });

  it("is refused once the driver gave the order back: a driver it once had does not count", async () => {
    const { uuid } = await order({ moderation_required: "no", need_notify: "no", driver_id: "101" });
    expect((await apiPost("order/status", { uuid, code: 9 })).status).toBe("DONE");
    for (const code of [1, 2, 4]) expect((await apiPost("order/status", { uuid, code })).status).toBe("DONE");
    expect((await apiPost("order/status", { uuid, code: 100 })).error?.code).toBe("FORBIDDEN_MOVE");
    expect(await statusOf(uuid)).toBe(4);
  });

  it("is refused in the console by the same state machine", async () => {
    const { phone } = await order({ moderation_required: "no", pre_order_time: "2030-01-15 10:00:00" });
    const recent = await trpc<{ addresses: Array<{ lastOrderId: number }> }>(inject("baseUrl"), admin, "orders.recentAddresses", { phone });
    const orderId = recent.data!.addresses[0]!.lastOrderId;
    const details = await trpc<{ version: number; nextStates: string[] }>(inject("baseUrl"), admin, "orders.get", { id: orderId });
    expect(details.data!.nextStates).not.toContain("DONE_SUCCESSFUL");
    // With the reason a final move needs (issue 34), so that the refusal is the state machine's.
    const moved = await trpc(inject("baseUrl"), admin, "orders.move", { orderId, to: "DONE_SUCCESSFUL", expectedVersion: details.data!.version, reason: "the trip is over" }, "mutation");
    expect(moved.error?.domainCode).toBe("FORBIDDEN_MOVE");
  });
});
