// Issue 30's rules on cases worked out by hand: the radius growing with the
// order's age, the region hint, the scarcity rules, the acceptance weight,
// and the liveness rules (a silent driver excluded, away after N timeouts).
import { describe, expect, it } from "vitest";
import { costOf, isCandidate, radiusNowKm } from "../../server/dispatch/core/eligibility";
import { greedyAssign } from "../../server/dispatch/core/greedy";
import { suggestRegion } from "../../server/dispatch/core/hint";
import { adaptToScarcity, isScarce } from "../../server/dispatch/core/scarcity";
import type { DriverToDispatch, OrderRules, OrderToDispatch } from "../../server/dispatch/core/types";
import { afterTimeout, isOfferable, liveCandidateSql, livenessOf } from "../../server/dispatch/liveness";

const rules: OrderRules = { mode: "AUTO", radiusKm: 5, fairnessWeight: 0, minBalance: 0, chainSeconds: 240 };

function order(id: number, more: Partial<OrderToDispatch> = {}): OrderToDispatch {
  return { id, serviceId: 1, regionId: null, lat: 55.75, lon: 37.6, waitingSeconds: 0, neededOptions: [], refusedBy: new Set(), rules, ...more };
}

/** A driver `km` north of the orders' point (1 km = 1/111.32 degree of latitude). */
function driver(id: number, km: number, more: Partial<DriverToDispatch> = {}): DriverToDispatch {
  return { id, lat: 55.75 + km / 111.32, lon: 37.6, serviceIds: [1], options: [], balance: 0, idleSeconds: 0, queue: null, busyForSeconds: 0, ...more };
}

describe("the radius growing with the order's age", () => {
  const growing: OrderRules = { ...rules, radiusStartKm: 2, radiusStepKm: 1 };

  it("starts at 2 km, adds 1 km for every whole minute waited, and stops at the setting", () => {
    expect(radiusNowKm(order(1, { rules: growing, waitingSeconds: 0 }))).toBe(2);
    expect(radiusNowKm(order(1, { rules: growing, waitingSeconds: 59 }))).toBe(2);
    expect(radiusNowKm(order(1, { rules: growing, waitingSeconds: 60 }))).toBe(3);
    expect(radiusNowKm(order(1, { rules: growing, waitingSeconds: 150 }))).toBe(4);
    expect(radiusNowKm(order(1, { rules: growing, waitingSeconds: 600 }))).toBe(5);
    // Without the growth the whole radius at once.
    expect(radiusNowKm(order(1, { waitingSeconds: 0 }))).toBe(5);
  });

  it("a car 2.5 km away is a candidate only after the first minute", () => {
    const d = driver(7, 2.5);
    expect(isCandidate(order(1, { rules: growing, waitingSeconds: 30 }), d, 300)).toBe(false);
    expect(isCandidate(order(1, { rules: growing, waitingSeconds: 61 }), d, 300)).toBe(true);
  });
});

describe("the region hint", () => {
  it("suggests the region with the most demand per free car when it beats staying by half again", () => {
    const loads = [
      { regionId: 1, demand: 10, freeDrivers: 4 }, // staying: 10 / (4 + 1) = 2
      { regionId: 2, demand: 12, freeDrivers: 0 }, // joining: 12 / (0 + 1 + 1) = 6 > 2 × 1.5
      { regionId: 3, demand: 2, freeDrivers: 1 }, // joining: 2 / 3
    ];
    expect(suggestRegion(loads, 1)?.regionId).toBe(2);
    // In region 2 already: staying 12 / 1 = 12; region 1 would be 10 / 6: stay.
    expect(suggestRegion(loads, 2)).toBeNull();
    // Outside every region: the busiest per car.
    expect(suggestRegion(loads, null)?.regionId).toBe(2);
  });

  it("does not move a driver for a small gain", () => {
    // Staying: 6 / (2 + 1) = 2; region 2: 8 / (2 + 1 + 1) = 2, not above 3.
    expect(suggestRegion([{ regionId: 1, demand: 6, freeDrivers: 2 }, { regionId: 2, demand: 8, freeDrivers: 2 }], 1)).toBeNull();
  });
});

describe("scarcity", () => {
  it("more free orders than free cars: the radius capped at 3 km and no chains", () => {
    const orders = [order(1), order(2)];
    const drivers = [driver(1, 4), driver(2, 0.5, { busyForSeconds: 100 })];
    expect(isScarce(orders, drivers)).toBe(true);
    const adapted = adaptToScarcity(orders, drivers, 3);
    expect(adapted[0]!.rules).toMatchObject({ radiusKm: 3, chainSeconds: 0 });
    // The free car 4 km away and the chained one are no longer candidates.
    expect(isCandidate(adapted[0]!, drivers[0]!, 400)).toBe(false);
    expect(isCandidate(adapted[0]!, drivers[1]!, 60)).toBe(false);
    expect(isCandidate(orders[0]!, drivers[0]!, 400)).toBe(true);
    expect(isCandidate(orders[0]!, drivers[1]!, 60)).toBe(true);
  });

  it("with cars to spare, or with the cap off, the rules stay as set", () => {
    const orders = [order(1)];
    const drivers = [driver(1, 4), driver(2, 1)];
    expect(isScarce(orders, drivers)).toBe(false);
    expect(adaptToScarcity(orders, drivers, 3)[0]!.rules).toBe(rules);
    expect(adaptToScarcity([order(1), order(2), order(3)], drivers, 0)[0]!.rules).toBe(rules);
  });
});

describe("the acceptance weight", () => {
  it("adds the weight times the driver's miss rate to the cost", () => {
    const weighted = order(1, { rules: { ...rules, acceptanceWeight: 60 } });
    expect(costOf(weighted, driver(1, 1, { acceptanceRate: 0.5 }), 100)).toBe(130);
    expect(costOf(weighted, driver(1, 1), 100)).toBe(100);
    expect(costOf(order(1), driver(1, 1, { acceptanceRate: 0.5 }), 100)).toBe(100);
  });

  it("of two cars 20 s apart, the reliable one gets the order when the other misses half its offers", () => {
    const weighted = order(1, { rules: { ...rules, acceptanceWeight: 60 } });
    const drivers = [driver(1, 1, { acceptanceRate: 0.5 }), driver(2, 1.2, { acceptanceRate: 1 })];
    const arrival = (_i: number, j: number) => [100, 120][j];
    expect(greedyAssign([weighted], drivers, arrival).map((a) => a.driverId)).toEqual([2]);
    expect(greedyAssign([order(1)], drivers, arrival).map((a) => a.driverId)).toEqual([1]);
  });
});

describe("silent drivers", () => {
  const settings = { positionMaxAgeSeconds: 120, appSilentSeconds: 90 };
  const now = Date.parse("2026-11-25T12:00:00Z");
  const ago = (s: number) => new Date(now - s * 1000);

  it("a driver with a position older than the setting, or an app silent longer, or away, is not offered orders", () => {
    const fresh = { awaySince: null, positionAt: ago(30), appSeenAt: ago(10) };
    expect(isOfferable(livenessOf(fresh, settings, now))).toBe(true);
    expect(livenessOf({ ...fresh, positionAt: ago(121) }, settings, now)).toMatchObject({ stalePosition: true, silentApp: false, away: false });
    expect(isOfferable(livenessOf({ ...fresh, positionAt: ago(121) }, settings, now))).toBe(false);
    expect(isOfferable(livenessOf({ ...fresh, positionAt: null }, settings, now))).toBe(false);
    expect(livenessOf({ ...fresh, appSeenAt: ago(91) }, settings, now)).toMatchObject({ silentApp: true, stalePosition: false });
    expect(isOfferable(livenessOf({ ...fresh, appSeenAt: null }, settings, now))).toBe(false);
    expect(isOfferable(livenessOf({ ...fresh, awaySince: ago(5) }, settings, now))).toBe(false);
    // A setting of 0 switches its rule off.
    expect(isOfferable(livenessOf({ ...fresh, positionAt: null, appSeenAt: null }, { positionMaxAgeSeconds: 0, appSilentSeconds: 0 }, now))).toBe(true);
  });

  it("the SQL filter of the rounds says the same (and passes over a driver on a break)", () => {
    const notOnBreak = "NOT EXISTS (SELECT 1 FROM driver_break b WHERE b.driver_id = d.id)";
    expect(liveCandidateSql(settings)).toBe(
      `d.away_since IS NULL AND ${notOnBreak} AND d.position_at > now() - make_interval(secs => 120) AND d.app_seen_at > now() - make_interval(secs => 90)`,
    );
    expect(liveCandidateSql({ positionMaxAgeSeconds: 0, appSilentSeconds: 0 })).toBe(`d.away_since IS NULL AND ${notOnBreak}`);
  });

  it("away after N offers in a row timed out, once, keeping the first time", () => {
    const t = new Date(now);
    let state = { missedOffers: 0, awaySince: null as Date | null };
    const first = afterTimeout(state, 3, t);
    expect(first).toEqual({ missedOffers: 1, awaySince: null, setAway: false });
    state = afterTimeout(first, 3, t);
    expect(state).toMatchObject({ missedOffers: 2, awaySince: null });
    const third = afterTimeout(state, 3, t);
    expect(third).toEqual({ missedOffers: 3, awaySince: t, setAway: true });
    const fourth = afterTimeout(third, 3, new Date(now + 60_000));
    expect(fourth).toEqual({ missedOffers: 4, awaySince: t, setAway: false });
    // 0: never away.
    expect(afterTimeout({ missedOffers: 10, awaySince: null }, 0, t)).toEqual({ missedOffers: 11, awaySince: null, setAway: false });
  });
});
