// The demand markup on a real (embedded) database: free orders beyond the
// region's free drivers raise the price; the counts of a region are read at
// most once a second (server/pricing/demand.ts), so new orders show in the
// markup after that second, not at once.
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { openLocalDb } from "../support/local-db";
import { connection, db } from "@/server/db";
import { createOrder } from "@/server/orders/create-order";
import { demandMarkupPercent } from "@/server/pricing/demand";
import { FREE_STATES, codeOf } from "@/server/orders/states";

let close: () => Promise<void>;
const settings = { stepPercent: 5, maxPercent: 1_000 };

beforeAll(async () => {
  ({ close } = await openLocalDb());
}, 120_000);

afterAll(async () => {
  await close();
});

// The second is the subject here: the clock is moved on instead of slept through.
const realNow = Date.now.bind(Date);
let shift = 0;
function aSecondPasses(): void {
  shift += 1_100;
  vi.spyOn(Date, "now").mockImplementation(() => realNow() + shift);
}
afterEach(() => {
  vi.restoreAllMocks();
  shift = 0;
});

async function expectedMarkup(regionId: number): Promise<number> {
  const [row] = await connection().query<{ orders: number; drivers: number }>(
    `SELECT (SELECT count(*)::int FROM orders WHERE region_id = $1 AND status_code IN (${FREE_STATES.map(codeOf).join(", ")})) AS orders,
            (SELECT count(*)::int FROM driver WHERE region_id = $1 AND state = 'FREE' AND active) AS drivers`,
    [regionId],
  );
  const excess = row!.orders - row!.drivers;
  return excess > 0 ? Math.min(settings.maxPercent, excess * settings.stepPercent) : 0;
}

it("follows the region's free orders and drivers, read at most once a second", async () => {
  const [region] = await connection().query<{ id: number }>(`SELECT id FROM region ORDER BY id LIMIT 1`);
  const regionId = region!.id;
  const before = await demandMarkupPercent(db(), regionId, settings);
  expect(before).toBe(await expectedMarkup(regionId));

  // Orders with an amount are not priced, so only this test reads the counts.
  const order = (i: number) =>
    createOrder(db(), { source: "API", phone: `7916${String(1_000_000 + i)}`, pickup: { street: "ул. Ленина", house: "2", regionId }, moderationRequired: false, amount: 30_000 }, { type: "SYSTEM", id: null });
  const [{ drivers }] = (await connection().query<{ drivers: number }>(`SELECT count(*)::int AS drivers FROM driver WHERE region_id = $1 AND state = 'FREE' AND active`, [regionId])) as [{ drivers: number }];
  for (let i = 0; i < drivers + 3; i++) await order(i);
  aSecondPasses();
  const raised = await demandMarkupPercent(db(), regionId, settings);
  expect(raised).toBe(await expectedMarkup(regionId));
  expect(raised).toBeGreaterThan(before);

  // Two more free orders: not seen within the second, seen after it.
  await order(100);
  await order(101);
  expect(await demandMarkupPercent(db(), regionId, settings)).toBe(raised);
  aSecondPasses();
  expect(await demandMarkupPercent(db(), regionId, settings)).toBe(raised + 2 * settings.stepPercent);
  // no region, or no step: no markup
  expect(await demandMarkupPercent(db(), null, settings)).toBe(0);
  expect(await demandMarkupPercent(db(), regionId, { stepPercent: 0, maxPercent: 100 })).toBe(0);
});
