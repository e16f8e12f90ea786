// The dispatch core's rules on small cases worked out by hand: who is a
// candidate, the greedy rule, the parking-queue rule, and the batched
// assignment finding the pairing the greedy rule misses.
import { describe, expect, it } from "vitest";
import { planAssignments } from "@/server/dispatch/core/plan";
import { isCandidate } from "@/server/dispatch/core/eligibility";
import type { DriverToDispatch, OrderToDispatch } from "@/server/dispatch/core/types";

const rules = { mode: "AUTO" as const, radiusKm: 5, fairnessWeight: 0, minBalance: 0, chainSeconds: 0 };

function order(id: number, more: Partial<OrderToDispatch> = {}): OrderToDispatch {
  return { id, serviceId: 1, regionId: null, lat: 0, lon: 0, waitingSeconds: 0, neededOptions: [], refusedBy: new Set(), rules, ...more };
}

function driver(id: number, more: Partial<DriverToDispatch> = {}): DriverToDispatch {
  return { id, lat: 0, lon: 0, serviceIds: [1], options: [1, 2], balance: 1000, idleSeconds: 0, queue: null, busyForSeconds: 0, ...more };
}

describe("candidates", () => {
  it("need the service, the options, the balance, no refusal, the radius; a busy driver only within the chain time", () => {
    const o = order(1, { neededOptions: [2] });
    expect(isCandidate(o, driver(1), 60)).toBe(true);
    expect(isCandidate(o, driver(1, { serviceIds: [2] }), 60)).toBe(false);
    expect(isCandidate(o, driver(1, { options: [1] }), 60)).toBe(false);
    expect(isCandidate(o, driver(1, { balance: -1 }), 60)).toBe(false);
    expect(isCandidate({ ...o, refusedBy: new Set([1]) }, driver(1), 60)).toBe(false);
    expect(isCandidate(o, driver(1, { lat: 0.05 }), 60)).toBe(false); // 5.6 km away: beyond the 5 km radius
    expect(isCandidate(o, driver(1, { lat: 0.04 }), 600)).toBe(true);
    expect(isCandidate(o, driver(1), undefined)).toBe(false);
    expect(isCandidate(o, driver(1, { busyForSeconds: 120 }), 60)).toBe(false);
    expect(isCandidate({ ...o, rules: { ...rules, chainSeconds: 300 } }, driver(1, { busyForSeconds: 120 }), 60)).toBe(true);
  });
});

describe("choices", () => {
  // Two orders, two drivers. Greedy serves the older order 1 first with its
  // nearest car (driver 1, 100 s), leaving order 2 with driver 2 (900 s):
  // 1000 s in all. The assignment gives order 1 driver 2 (200 s) and order 2
  // driver 1 (150 s): 350 s.
  const times = [
    [100, 200],
    [150, 900],
  ];
  const orders = [order(1, { waitingSeconds: 60 }), order(2, { waitingSeconds: 0 })];
  const drivers = [driver(1), driver(2)];
  const arrival = (i: number, j: number) => times[i]![j];

  it("greedy: the oldest order first, to its nearest driver", () => {
    const plan = planAssignments(orders, drivers, arrival, "GREEDY");
    expect(plan.map((a) => [a.orderId, a.driverId, a.arrivalSeconds])).toEqual([
      [1, 1, 100],
      [2, 2, 900],
    ]);
  });

  it("batched: the least total arrival time", () => {
    const plan = planAssignments(orders, drivers, arrival, "BATCHED");
    expect(plan.map((a) => [a.orderId, a.driverId]).sort()).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(plan.every((a) => a.source === "BATCH")).toBe(true);
  });

  it("batched with more orders than drivers (a rectangular matrix) leaves the rest for the next batch", () => {
    const plan = planAssignments([...orders, order(3)], [driver(1)], (i) => [100, 150, 50][i], "BATCHED");
    expect(plan).toHaveLength(1);
  });

  it("fairness: of two cars about as near, the one that waited longer", () => {
    const fair = { ...rules, fairnessWeight: 10 };
    const plan = planAssignments([order(1, { rules: fair })], [driver(1, { idleSeconds: 0 }), driver(2, { idleSeconds: 600 })], (_i, j) => [100, 150][j], "GREEDY");
    expect(plan[0]!.driverId).toBe(2);
  });

  it("the parking queue: the head of the region's queue, though another car is nearer", () => {
    const q = { ...rules, mode: "QUEUE" as const };
    const plan = planAssignments(
      [order(1, { regionId: 7, rules: q })],
      [driver(1), driver(2, { queue: { regionId: 7, position: 1 } }), driver(3, { queue: { regionId: 7, position: 0 } })],
      (_i, j) => [10, 20, 300][j],
      "GREEDY",
    );
    expect(plan).toEqual([expect.objectContaining({ orderId: 1, driverId: 3, source: "QUEUE" })]);
  });
});
