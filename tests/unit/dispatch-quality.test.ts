// Issue 30's rules on cases worked out by hand: the radius growing with the
// order's age, the region hint, the coverage hint, the scarcity rules, the acceptance weight,
// and the liveness rules (a silent driver excluded, away after N timeouts).
import { describe, expect, it } from "vitest";
import { costOf, isCandidate, radiusNowKm } from "../../server/dispatch/core/eligibility";
import { greedyAssign } from "../../server/dispatch/core/greedy";
import { suggestCoverageMove, suggestRegion, suggestShortRegion, type CoverageRule, type ShortageRule } from "../../server/dispatch/core/hint";
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

describe("the shortage rule's hint", () => {
  // The last 30 minutes' demand reckoned 10 minutes ahead: expected orders = demand / 3.
  const rule: ShortageRule = { windowMinutes: 30, horizonMinutes: 10, maxDriveSeconds: 600 };
  const drive = (seconds: Record<number, number>) => (regionId: number) => seconds[regionId] ?? null;

  it("sends a car not needed where it stands to the region most short of cars", () => {
    const loads = [
      // Here: 3 free cars, 3 orders expected in 10 minutes (9 / 3): each car is needed.
      { regionId: 1, demand: 9, freeDrivers: 3 },
      // 4 expected, 1 car: short by 3.
      { regionId: 2, demand: 12, freeDrivers: 1 },
      // 5 expected, 3 cars: short by 2.
      { regionId: 3, demand: 15, freeDrivers: 3 },
      // 1 expected, no car: short by 1.
      { regionId: 4, demand: 3, freeDrivers: 0 },
    ];
    expect(suggestShortRegion(loads, 1, rule, drive({ 2: 300, 3: 100, 4: 60 }))).toBeNull();
    // Here with 4 free cars against 3 expected: one is spare, and goes where 3 are missing.
    const spare = loads.map((r) => (r.regionId === 1 ? { ...r, freeDrivers: 4 } : r));
    expect(suggestShortRegion(spare, 1, rule, drive({ 2: 300, 3: 100, 4: 60 }))).toEqual({ regionId: 2, shortage: 3, seconds: 300 });
    // Region 2 too far (over 600 s) or with nowhere to go: the next most short.
    expect(suggestShortRegion(spare, 1, rule, drive({ 2: 601, 3: 100, 4: 60 }))?.regionId).toBe(3);
    expect(suggestShortRegion(spare, 1, rule, drive({ 3: 100, 4: 60 }))?.regionId).toBe(3);
  });

  it("does not steer toward a region short by less than a car, and breaks ties by the shorter drive", () => {
    const loads = [
      { regionId: 1, demand: 0, freeDrivers: 2 },
      // 2.67 expected against 2 cars: short by 0.67 — no hint.
      { regionId: 2, demand: 8, freeDrivers: 2 },
    ];
    expect(suggestShortRegion(loads, 1, rule, drive({ 2: 60 }))).toBeNull();
    const tie = [...loads, { regionId: 3, demand: 6, freeDrivers: 1 }, { regionId: 4, demand: 6, freeDrivers: 1 }];
    expect(suggestShortRegion(tie, 1, rule, drive({ 3: 400, 4: 200 }))).toEqual({ regionId: 4, shortage: 1, seconds: 200 });
  });
});

describe("the coverage rule's hint", () => {
  // Points on a line, one second of drive per unit: the asking car first, the other cars, then the pickups.
  const rule: CoverageRule = { windowMinutes: 60, minGainSeconds: 8, maxDriveSeconds: 600, capSeconds: 900 };
  const line = (cars: number[], pickups: number[]) => {
    const at = [...cars, ...pickups];
    return (a: number, b: number) => Math.abs(at[a]! - at[b]!);
  };

  it("sends a spare car to where it most shortens the pickups' time to their nearest car", () => {
    // Two cars at 0, pickups at 300, 400, 400: now 300 + 400 + 400 = 1100 s.
    // To 300: 0 + 100 + 100 = 200, gain 900 / 3 = 300 s; to 400: 100 + 0 + 0 = 100, gain 1000 / 3 = 333.3 s (the first 400).
    const move = suggestCoverageMove(2, 0, 3, line([0, 0], [300, 400, 400]), rule);
    expect(move).toMatchObject({ pickup: 1, seconds: 400 });
    expect(move!.gainSeconds).toBeCloseTo(1000 / 3, 6);
  });

  it("keeps a car that is the nearest to pickups where it stands", () => {
    // Cars at 0 and 1000, a pickup at each: both served at once; moving either leaves its pickup 900 s (the cap) away.
    expect(suggestCoverageMove(2, 0, 2, line([0, 1000], [0, 1000]), rule)).toBeNull();
  });

  it("no hint for a gain under the threshold, beyond the drive limit, or with no pickups", () => {
    // Pickups at 10 and 0, cars at 0: now 10 + 0; to 10: 0 + 0, gain 10 / 2 = 5 s < 8.
    expect(suggestCoverageMove(2, 0, 2, line([0, 0], [10, 0]), rule)).toBeNull();
    // Two pickups 700 s away: a gain of 700 s but over the 600 s drive.
    expect(suggestCoverageMove(2, 0, 2, line([0, 0], [700, 700]), rule)).toBeNull();
    expect(suggestCoverageMove(2, 0, 0, line([0, 0], []), rule)).toBeNull();
  });

  it("counts a pickup far from every car at the cap", () => {
    // Pickups at 2000 (900 s, the cap, from every car) and 500: now 900 + 500 = 1400; to 500: 900 + 0, gain 250 s; 2000 is over the drive limit.
    expect(suggestCoverageMove(2, 0, 2, line([0, 0], [2000, 500]), rule)).toEqual({ pickup: 1, gainSeconds: 250, seconds: 500 });
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

  it("free orders at least four times the free cars: the deeper cap; fewer: the first", () => {
    const drivers = [driver(1, 2.5), driver(2, 1), driver(3, 0.5, { busyForSeconds: 100 })];
    const eight = Array.from({ length: 8 }, (_, i) => order(i + 1));
    const seven = eight.slice(0, 7);
    // 8 orders against 2 free cars (the busy one does not count): 2 km, and the car 2.5 km away is out.
    const deep = adaptToScarcity(eight, drivers, 3, 2);
    expect(deep[0]!.rules).toMatchObject({ radiusKm: 2, chainSeconds: 0 });
    expect(isCandidate(deep[0]!, drivers[0]!, 300)).toBe(false);
    expect(isCandidate(deep[0]!, drivers[1]!, 120)).toBe(true);
    // 7 against 2: scarce, not deeply: 3 km, the car 2.5 km away stays a candidate.
    const shallow = adaptToScarcity(seven, drivers, 3, 2);
    expect(shallow[0]!.rules).toMatchObject({ radiusKm: 3, chainSeconds: 0 });
    expect(isCandidate(shallow[0]!, drivers[0]!, 300)).toBe(true);
    // No deeper cap set: 3 km however deep.
    expect(adaptToScarcity(eight, drivers, 3)[0]!.rules).toMatchObject({ radiusKm: 3 });
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
