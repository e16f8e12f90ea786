// The passengers' ratings as an optional weight of the candidate cost (issue
// 30), on cases worked out by hand: the shrunk mean, the shortfall, the cost,
// and a choice that the weight turns.
import { describe, expect, it } from "vitest";
import { costOf } from "../../server/dispatch/core/eligibility";
import { greedyAssign } from "../../server/dispatch/core/greedy";
import { batchedAssign } from "../../server/dispatch/core/batched";
import { RATING_PRIOR, ratingShortfall, shrunkRating } from "../../server/dispatch/core/rating";
import { PRODUCTION_DEFAULT } from "../../server/dispatch/core/defaults";
import type { DriverToDispatch, OrderRules, OrderToDispatch } from "../../server/dispatch/core/types";

const rules: OrderRules = { mode: "AUTO", radiusKm: 5, fairnessWeight: 0, minBalance: 0, chainSeconds: 0 };

function order(id: number, more: Partial<OrderToDispatch> = {}): OrderToDispatch {
  return { id, serviceId: 1, regionId: null, lat: 55.75, lon: 37.6, waitingSeconds: 0, neededOptions: [], refusedBy: new Set(), rules, ...more };
}

function driver(id: number, km: number, more: Partial<DriverToDispatch> = {}): DriverToDispatch {
  return { id, lat: 55.75 + km / 111.32, lon: 37.6, serviceIds: [1], options: [], balance: 0, idleSeconds: 0, queue: null, busyForSeconds: 0, ...more };
}

describe("the rating a driver is taken to have", () => {
  it("is the prior with no ratings, and the mean pulled toward the prior by five ratings' worth", () => {
    expect(shrunkRating(0, 0)).toBe(RATING_PRIOR);
    expect(RATING_PRIOR).toBe(4.5);
    // Ten 5-star ratings: (50 + 4.5 × 5) / 15 = 72.5 / 15.
    expect(shrunkRating(50, 10)).toBeCloseTo(72.5 / 15, 10);
    // Five 2-star ratings: (10 + 22.5) / 10 = 3.25: a few low stars do not sink a driver to 2.
    expect(shrunkRating(10, 5)).toBeCloseTo(3.25, 10);
    // Many ratings: the prior hardly counts (1000 ratings of 3: (3000 + 22.5) / 1005).
    expect(shrunkRating(3000, 1000)).toBeCloseTo(3022.5 / 1005, 10);
  });

  it("falls short of 5 stars by 0 (5 stars) to 1 (1 star); unknown or out of range is clamped", () => {
    expect(ratingShortfall(5)).toBe(0);
    expect(ratingShortfall(1)).toBe(1);
    expect(ratingShortfall(4)).toBe(0.25);
    expect(ratingShortfall(3)).toBe(0.5);
    expect(ratingShortfall(undefined)).toBe(0);
    expect(ratingShortfall(Number.NaN)).toBe(0);
    expect(ratingShortfall(6)).toBe(0);
    expect(ratingShortfall(0)).toBe(1);
  });
});

describe("the rating weight in the candidate cost", () => {
  it("adds weight × shortfall seconds; nothing without the weight or without a rating", () => {
    const weighted = order(1, { rules: { ...rules, ratingWeight: 60 } });
    // 3 stars: shortfall 0.5, 60 × 0.5 = 30 s on top of the 100 s arrival.
    expect(costOf(weighted, driver(1, 1, { rating: 3 }), 100)).toBe(130);
    expect(costOf(weighted, driver(1, 1, { rating: 5 }), 100)).toBe(100);
    expect(costOf(weighted, driver(1, 1), 100)).toBe(100);
    expect(costOf(order(1), driver(1, 1, { rating: 1 }), 100)).toBe(100);
  });

  it("adds to the acceptance weight, each at its own weight", () => {
    const both = order(1, { rules: { ...rules, ratingWeight: 60, acceptanceWeight: 60 } });
    // Miss rate 0.5 → 30 s; 4 stars → shortfall 0.25 → 15 s.
    expect(costOf(both, driver(1, 1, { rating: 4, acceptanceRate: 0.5 }), 100)).toBe(145);
  });

  it("turns a choice: a near car rated 2.5 against one 60 s farther rated 5", () => {
    const near = driver(1, 1, { rating: 2.5 });
    const far = driver(2, 1.5, { rating: 5 });
    const arrival = (_i: number, j: number) => (j === 0 ? 120 : 180);
    // Without the weight the nearer car.
    expect(greedyAssign([order(9)], [near, far], arrival).map((a) => a.driverId)).toEqual([1]);
    // 180 s per star short: 2.5 stars cost 180 × 0.625 = 112.5 s, 232.5 > 180: the farther car.
    const o = order(9, { rules: { ...rules, ratingWeight: 180 } });
    expect(greedyAssign([o], [near, far], arrival).map((a) => a.driverId)).toEqual([2]);
    expect(batchedAssign([o], [near, far], arrival).map((a) => a.driverId)).toEqual([2]);
    // 60 s per star short: 37.5 s, 157.5 < 180: still the nearer car.
    const light = order(9, { rules: { ...rules, ratingWeight: 60 } });
    expect(greedyAssign([light], [near, far], arrival).map((a) => a.driverId)).toEqual([1]);
  });

  it("is off in production until the comparison shows it helps", () => {
    expect(PRODUCTION_DEFAULT.ratingWeight).toBe(0);
  });
});
