// The offers paced by the instance's load (server/dispatch/offer-budget.ts,
// server/runtime/pressure.ts): the bound's rule (halved while a queue of the
// phones' requests fills, not for a late event loop alone; never
// under its floor, raised a step a round after, lifted once it holds nothing
// back), the monitor's reading of a late event loop and a filling queue, and
// a round under a bound on the database TEST_DB names: it offers the orders
// offered least often first, then the longest waiting, and no more.
import { describe, expect, it } from "vitest";
import { BUDGET_RULE, byOfferPriority, nextBudget } from "@/server/dispatch/offer-budget";
import { pressureMonitor, registerBacklog, type PressureReading } from "@/server/runtime/pressure";
import { makeDrivers, makeOrders, useOfferDb } from "../support/offer-fixtures";

const calm: PressureReading = { loopDelayP99Ms: 12, backlogShare: 0.02, backlogName: "positions" };
const lateLoop: PressureReading = { loopDelayP99Ms: 450, backlogShare: 0.1, backlogName: "positions" };
const fullQueue: PressureReading = { loopDelayP99Ms: 20, backlogShare: 0.6, backlogName: "positions" };
const fullRequests: PressureReading = { loopDelayP99Ms: 300, backlogShare: 0.3, backlogName: "requests" };

describe("the offers' bound", () => {
  it("is none while the instance is calm", () => {
    expect(nextBudget(undefined, calm, { planned: 300, made: 280 })).toEqual({ limit: undefined, loadedBy: undefined });
  });

  it("is none for a late event loop alone (the round's own plan holds it)", () => {
    expect(nextBudget(undefined, lateLoop, { planned: 300, made: 280 })).toEqual({ limit: undefined, loadedBy: undefined });
  });

  it("halves what the last round made when a queue fills, down to its floor", () => {
    const first = nextBudget(undefined, fullRequests, { planned: 300, made: 280 });
    expect(first).toEqual({ limit: 140, loadedBy: "30% of the requests's places taken" });
    const second = nextBudget(first.limit, fullQueue, { planned: 290, made: 140 });
    expect(second).toEqual({ limit: 70, loadedBy: "60% of the positions's places taken" });
    let limit = second.limit;
    for (let k = 0; k < 10; k++) limit = nextBudget(limit, fullQueue, { planned: 290, made: limit ?? 0 }).limit;
    expect(limit).toBe(BUDGET_RULE.min);
    // A round that made few offers, unbounded, still gets a bound that bites: half of twice the floor.
    expect(nextBudget(undefined, fullQueue, { planned: 3, made: 3 }).limit).toBe(BUDGET_RULE.min);
  });

  it("rises a step a round once the load has passed, and is lifted when it held nothing back", () => {
    expect(nextBudget(16, calm, { planned: 290, made: 16 }).limit).toBe(16 + BUDGET_RULE.step);
    expect(nextBudget(32, calm, { planned: 290, made: 32 }).limit).toBe(32 + BUDGET_RULE.step);
    expect(nextBudget(48, calm, { planned: 40, made: 38 }).limit).toBeUndefined();
    expect(nextBudget(48, calm, { planned: 48, made: 48 }).limit).toBeUndefined();
  });

  it("gives the offers to the orders offered least often, then the longest waiting", () => {
    const planned = [
      { orderId: 4, attempts: 7, createdAt: 100 },
      { orderId: 3, attempts: 0, createdAt: 300 },
      { orderId: 2, attempts: 0, createdAt: 200 },
      { orderId: 1, attempts: 2, createdAt: 50 },
      { orderId: 5, attempts: 0, createdAt: 200 },
    ];
    expect(byOfferPriority(planned).map((p) => p.orderId)).toEqual([2, 5, 3, 1, 4]);
  });
});

describe("the instance's load, as the monitor reads it", () => {
  it("sees the event loop held up and a queue filling since its last reading, then starts again", async () => {
    const monitor = pressureMonitor();
    monitor.read();
    let waiting = 0;
    const remove = registerBacklog({ name: "test queue", waiting: () => waiting, capacity: 200 });
    try {
      waiting = 120;
      // The queue filled and drained again between two readings: the samples every 100 ms still catch it.
      await new Promise((resolve) => setTimeout(resolve, 250));
      waiting = 0;
      const until = Date.now() + 300;
      while (Date.now() < until) {
        // the event loop held up, as by work queued behind it
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      const loaded = monitor.read();
      expect(loaded.backlogShare).toBeCloseTo(0.6, 5);
      expect(loaded.backlogName).toBe("test queue");
      expect(loaded.loopDelayP99Ms).toBeGreaterThan(200);
      await new Promise((resolve) => setTimeout(resolve, 250));
      const calmAgain = monitor.read();
      expect(calmAgain.backlogShare).toBe(0);
      expect(calmAgain.loopDelayP99Ms).toBeLessThan(200);
    } finally {
      remove();
    }
  });
});

const db = useOfferDb();

describe(`a round under a bound (${db.kind})`, () => {
  it("makes no more offers than its bound, to the orders offered least often, then the longest waiting", async () => {
    const q = db.q;
    const city = db.city();
    // Only this test's orders are the round's: the others are paused (a dispatcher's pause, which rounds respect).
    await q(`INSERT INTO dispatch_order (order_id, paused) SELECT id, true FROM orders WHERE state IN ('FREE', 'FREE_LONG')
             ON CONFLICT (order_id) DO UPDATE SET paused = true`);
    await q(`DELETE FROM dispatch_setting`);
    await q(
      `INSERT INTO dispatch_setting (service_id, region_id, mode, strategy, accept_seconds, attempts, radius_km, free_long_minutes, batch_seconds, fairness_weight, chain_minutes, min_balance, updated_at)
       VALUES ($1, NULL, 'AUTO', 'GREEDY', 20, 100, 5, 600, 1, 0, 0, -100000000, now())`,
      [city.service_id],
    );
    const drivers = await makeDrivers(q, city, "OB", 6);
    await q(`INSERT INTO driver_service (driver_id, service_id) SELECT unnest($1::int[]), $2`, [drivers, city.service_id]);
    // Five orders: offered 4, 0, 0 (the older), 2 and 0 times before; created a minute apart, the first the oldest.
    const orders = await makeOrders(q, city, 5);
    const attempts = [4, 0, 0, 2, 0];
    const minutesAgo = [50, 40, 45, 60, 10];
    for (const [k, id] of orders.entries()) {
      await q(`UPDATE orders SET created_at = now() - make_interval(mins => $2) WHERE id = $1`, [id, minutesAgo[k]]);
      await q(`INSERT INTO dispatch_order (order_id, attempts) VALUES ($1, $2)`, [id, attempts[k]]);
    }
    const { dispatchRound, newRoundState } = await import("@/server/dispatch/round");
    const state = newRoundState();
    state.offerLimit = 3;
    const report = await dispatchRound(db.modules().db.db(), state);
    expect(report.planned).toBe(5);
    expect(report.offers).toBe(3);
    const offered = await q<{ order_id: number }>(`SELECT order_id FROM dispatch_offer WHERE order_id = ANY($1::int[]) AND state = 'LIVE' ORDER BY order_id`, [orders]);
    // Never offered: the third (45 minutes), the second (40), the fifth (10); the ones refused before wait.
    expect(offered.map((o) => o.order_id)).toEqual([orders[1], orders[2], orders[4]].sort((a, b) => a! - b!));

    // Unbounded, the next round offers the rest.
    state.offerLimit = undefined;
    const next = await dispatchRound(db.modules().db.db(), state);
    expect(next.offers).toBe(2);
  });
});
