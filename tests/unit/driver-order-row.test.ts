// The driver's order row read by hand (server/driver-app/order-view.ts,
// readOrderRow: every offer pushed and every answer's reply) is the same row
// as the ORM's `orderSelect`, which the driver's other views still read:
// every field, with times, nulls and the rate's kind, over the demo's orders
// in all their states.
import { describe, expect, it } from "vitest";
import { useLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { orderSelect, readOrderRow } from "@/server/driver-app/order-view";

useLocalDb();

describe("the driver's order row by hand", () => {
  it("equals the ORM's row for every order of the demo", async () => {
    // Every demo order has a rate and a destination's coordinates: one without either, for the comparison.
    const first = await db().order.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true } });
    await db().order.update({ where: { id: first.id }, data: { rateId: null, dstLat: null, dstLon: null }, select: { id: true } });
    const orders = await db().order.findMany({ select: orderSelect, orderBy: { id: "asc" } });
    expect(orders.length).toBeGreaterThan(50);
    // The comparison covers what could differ: times set and unset, a rate and none, a price token, coordinates unset.
    expect(orders.some((o) => o.preOrderTime !== null)).toBe(true);
    expect(orders.some((o) => o.arrivalAt !== null)).toBe(true);
    expect(orders.some((o) => o.rate !== null)).toBe(true);
    expect(orders.some((o) => o.rate === null)).toBe(true);
    expect(orders.some((o) => o.dstLat === null)).toBe(true);
    for (const order of orders) expect(await readOrderRow(db(), order.id)).toEqual(order);
  });

  it("an order that does not exist is NOT_FOUND, not a crash", async () => {
    await expect(readOrderRow(db(), 2_000_000_000)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
