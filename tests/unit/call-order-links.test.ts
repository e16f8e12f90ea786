// New orders linked to the calls that led to them (server/pbx/calls.ts
// linkCallsToOrders, batched by server/pbx/order-links.ts) on a real
// database: in one statement for a batch, each call changed once whatever
// its reasons, the window of 30 minutes kept, a run again changing only
// what one order at a time would have.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { sqlQuery } from "@/server/db/sql";
import { linkCallsToOrders } from "@/server/pbx/calls";
import { startOrderLinks } from "@/server/pbx/order-links";
import { publish } from "@/server/events/bus";

let close: () => Promise<void>;
beforeAll(async () => {
  ({ close } = await openLocalDb());
}, 120_000);
afterAll(async () => {
  await close();
});

const q = <T,>(text: string, params: unknown[] = []) => sqlQuery<T>(db(), text, params);

async function order(phone: string): Promise<number> {
  const [row] = await q<{ id: number }>(
    `INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, lat, lon, updated_at, created_at)
     SELECT gen_random_uuid(), c.id, s.id, 'FREE', 9, $1, 'ул. Ленина', '1', c.lat, c.lon, now(), now()
       FROM city c JOIN service s ON s.city_id = c.id ORDER BY c.id, s.id LIMIT 1 RETURNING id`,
    [phone],
  );
  return row!.id;
}

let external = 0;
async function call(phone: string, minutesAgo: number, state: "MISSED" | "ENDED", handled = false): Promise<number> {
  external += 1;
  const [row] = await q<{ id: number }>(
    `INSERT INTO phone_call (source, external_id, direction, state, phone, started_at, handled_at)
     VALUES ('ami', $1, 'IN', $2::"CallState", $3, now() - make_interval(mins => $4), CASE WHEN $5 THEN now() - interval '1 minute' END) RETURNING id`,
    [`links-${Date.now()}-${external}`, state, phone, minutesAgo, handled],
  );
  return row!.id;
}

const calls = (ids: number[]) =>
  q<{ id: number; order_id: number | null; handled: boolean }>(`SELECT id, order_id, handled_at IS NOT NULL AS handled FROM phone_call WHERE id = ANY($1::int[]) ORDER BY id`, [ids]);

describe("calls linked to new orders", () => {
  it("a batch: the latest call of the window to the earlier order of its phone, every missed call handled, each row changed once", async () => {
    const a = "+79161110001";
    const b = "+79161110002";
    const aOlder = await call(a, 20, "ENDED");
    const aMissed = await call(a, 10, "MISSED"); // both the call that led to the order and a missed one
    const bOld = await call(b, 40, "MISSED"); // outside the window: handled, not linked
    const bDone = await call(b, 5, "MISSED", true); // handled before: linked only
    const [a1, a2, b1] = [await order(a), await order(a), await order(b)];
    expect(await linkCallsToOrders(db(), [a1, a2, b1])).toBe(3);
    expect(await calls([aOlder, aMissed, bOld, bDone])).toEqual([
      { id: aOlder, order_id: null, handled: false },
      { id: aMissed, order_id: a1, handled: true },
      { id: bOld, order_id: null, handled: true },
      { id: bDone, order_id: b1, handled: true },
    ]);
    // again (a second instance hears the same orders): the later order of a takes the older
    // call, as it would have one order at a time; then nothing is left to change
    expect(await linkCallsToOrders(db(), [a1, a2, b1])).toBe(1);
    expect((await calls([aOlder]))[0]).toEqual({ id: aOlder, order_id: a2, handled: false });
    expect(await linkCallsToOrders(db(), [a1, a2, b1])).toBe(0);
  });

  it("orders with no phone or no calls change nothing", async () => {
    expect(await linkCallsToOrders(db(), [])).toBe(0);
    expect(await linkCallsToOrders(db(), [await order(""), await order("+79161110003"), 2_000_000_000])).toBe(0);
  });

  it("a burst of orders is linked in two statements, not one an order", async () => {
    const phone = "+79161110004";
    const missed = await call(phone, 1, "MISSED");
    const ids: number[] = [];
    for (let i = 0; i < 100; i += 1) ids.push(await order(i === 99 ? phone : `+7916222${String(i).padStart(4, "0")}`));
    const batches: number[][] = [];
    const stop = startOrderLinks(db(), async (database, orderIds) => {
      batches.push([...orderIds]);
      return linkCallsToOrders(database, orderIds);
    });
    for (const id of ids) publish({ type: "order.created", orderId: id, uuid: "", state: "FREE", statusCode: 9, regionId: null });
    await stop();
    expect(batches.map((batch) => batch.length)).toEqual([1, 99]);
    expect(batches.flat()).toEqual(ids);
    expect(await calls([missed])).toEqual([{ id: missed, order_id: ids[99], handled: true }]);
  });
});
