// Idle drivers steered toward demand (issue 30): a free driver gets a
// suggested place to wait. A hint, never an order. Three rules, measured in
// the comparison (its drivers follow a hint with a probability;
// docs/dispatch.md): `suggestRegion`, the most recent demand per free car
// when it beats the driver's own region clearly, lengthened the wait with
// cars to spare ("batched+steer"); `suggestShortRegion`, only a car not
// needed where it stands and only toward a region short of cars, shortened
// it by 3–7 % ("default+steer"); `suggestCoverageMove`, a car moved to where
// it most shortens the recent pickups' time to their nearest free car,
// shortened it by 14 % at normal load ("default+coverage", the kept rule).
// The product serves the coverage rule's hint to the driver app
// (server/dispatch/hint-service.ts, GET /driver-app/v1/hint): computed per
// city from every free live car, the last hour's pickups and the road times
// between them, with the same settings (COVERAGE_RULE).
// Pure: the comparison and the hint service call it.

export interface RegionLoad {
  regionId: number;
  /** Orders picked up in the region recently (the comparison counts the last half hour). */
  demand: number;
  /** Free drivers standing in the region now. */
  freeDrivers: number;
}

/** How much better (demand per free car) another region must be to be suggested. */
export const HINT_MARGIN = 1.5;

/** Demand per free car, the driver asking counted in the region they would join. */
function pressure(r: RegionLoad, joining: boolean): number {
  return r.demand / (r.freeDrivers + (joining ? 1 : 0) + 1);
}

/** The region to suggest to a free driver in `currentRegionId` (null: stay). */
export function suggestRegion(loads: readonly RegionLoad[], currentRegionId: number | null): RegionLoad | null {
  const here = loads.find((r) => r.regionId === currentRegionId);
  // Staying: the driver is already counted among the region's free cars.
  const stay = here ? here.demand / (here.freeDrivers + 1) : 0;
  let best: RegionLoad | null = null;
  let bestScore = 0;
  for (const r of loads) {
    if (r.regionId === currentRegionId || r.demand <= 0) continue;
    const score = pressure(r, true);
    if (score > bestScore || (score === bestScore && best !== null && r.regionId < best.regionId)) {
      best = r;
      bestScore = score;
    }
  }
  if (!best || bestScore <= stay * HINT_MARGIN) return null;
  return best;
}

/** The shortage rule's settings (the comparison's "default+steer"). */
export interface ShortageRule {
  /** Minutes of recent demand `RegionLoad.demand` counts. */
  windowMinutes: number;
  /** Minutes ahead the expected orders are reckoned for. */
  horizonMinutes: number;
  /** The longest drive a hint may ask for (seconds). */
  maxDriveSeconds: number;
}

/** The shortage rule's settings as measured (the comparison's "default+steer"; the product's hint served it before the coverage rule). */
export const SHORTAGE_RULE: ShortageRule & {
  /** A car idle (since its last trip or shift start) less than this is not steered. */
  minIdleSeconds: number;
} = { windowMinutes: 30, horizonMinutes: 10, maxDriveSeconds: 600, minIdleSeconds: 180 };

/**
 * The shortage rule (issue 30, measured in docs/dispatch.md): a free car is
 * steered only when it is not needed where it stands — its region's free
 * cars (this one counted) outnumber the orders expected there within the
 * horizon — and only toward a region short of cars by at least one (expected
 * orders less its free cars, those on their way counted), within the drive
 * limit: the most short, then the nearest. `driveSeconds(region)`: the drive
 * to where that region's demand is (null: nowhere to go).
 */
export function suggestShortRegion(
  loads: readonly RegionLoad[],
  currentRegionId: number,
  rule: ShortageRule,
  driveSeconds: (regionId: number) => number | null,
): { regionId: number; shortage: number; seconds: number } | null {
  const expected = (r: RegionLoad) => (r.demand * rule.horizonMinutes) / rule.windowMinutes;
  const here = loads.find((r) => r.regionId === currentRegionId);
  if (here && here.freeDrivers <= expected(here)) return null;
  let best: { regionId: number; shortage: number; seconds: number } | null = null;
  for (const r of loads) {
    if (r.regionId === currentRegionId) continue;
    const shortage = expected(r) - r.freeDrivers;
    if (shortage < 1) continue;
    const seconds = driveSeconds(r.regionId);
    if (seconds === null || seconds > rule.maxDriveSeconds) continue;
    if (!best || shortage > best.shortage || (shortage === best.shortage && seconds < best.seconds)) best = { regionId: r.regionId, shortage, seconds };
  }
  return best;
}

/** The coverage rule's settings. */
export interface CoverageRule {
  /** Minutes of recent pickups that stand for the demand to come. */
  windowMinutes: number;
  /** A move must shorten the demand's mean time to its nearest free car by at least this (seconds). */
  minGainSeconds: number;
  /** The longest drive a hint may ask for (seconds). */
  maxDriveSeconds: number;
  /** A pickup farther than this from every car counts this (a far one is the radio's, not a car's to wait for). */
  capSeconds: number;
}

/** The coverage rule's settings with when it applies: chosen on seeds 1–20 (docs/dispatch.md, "Steering idle drivers"). */
export interface CoverageSettings extends CoverageRule {
  /** A car idle (since its last trip or shift start) less than this is not steered. */
  minIdleSeconds: number;
  /** No hints while an order has waited this long without a car: cars are short, each is needed where it stands. */
  backlogSeconds: number;
}

export const COVERAGE_RULE: CoverageSettings = { windowMinutes: 60, minGainSeconds: 8, maxDriveSeconds: 600, capSeconds: 900, minIdleSeconds: 180, backlogSeconds: 20 };

/**
 * The coverage rule: the recent pickups stand for the demand to come; each
 * is served by the free car nearest to it. A free car is steered to the
 * place (one of the pickups) that most shortens the pickups' mean time to
 * their nearest car, itself moved, when that saves at least
 * `minGainSeconds`. `seconds(from, to)` is the drive between two points
 * (cars' and pickups' indices: cars first, then pickups).
 */
export function suggestCoverageMove(
  carCount: number,
  asking: number,
  pickupCount: number,
  seconds: (from: number, to: number) => number,
  rule: CoverageRule,
): { pickup: number; gainSeconds: number; seconds: number } | null {
  if (pickupCount === 0) return null;
  const cap = (s: number) => Math.min(s, rule.capSeconds);
  // Each pickup's time to its nearest car without the asking one, and with it where it stands.
  const without = new Float64Array(pickupCount);
  let now = 0;
  for (let p = 0; p < pickupCount; p++) {
    let best = rule.capSeconds;
    for (let c = 0; c < carCount; c++) if (c !== asking) best = Math.min(best, cap(seconds(c, carCount + p)));
    without[p] = best;
    now += Math.min(best, cap(seconds(asking, carCount + p)));
  }
  let chosen: { pickup: number; gainSeconds: number; seconds: number } | null = null;
  for (let t = 0; t < pickupCount; t++) {
    const drive = seconds(asking, carCount + t);
    if (drive > rule.maxDriveSeconds) continue;
    let moved = 0;
    for (let p = 0; p < pickupCount; p++) moved += Math.min(without[p]!, cap(seconds(carCount + t, carCount + p)));
    const gain = (now - moved) / pickupCount;
    if (gain >= rule.minGainSeconds && (!chosen || gain > chosen.gainSeconds)) chosen = { pickup: t, gainSeconds: gain, seconds: drive };
  }
  return chosen;
}

/**
 * The coverage rule over a fleet, as the hint service serves it: the cars
 * in `order`, each given suggestCoverageMove's move with the cars before it
 * counted where they were sent (a hint taken as followed, as the
 * comparison's followers are). `seconds(from, to)`: the drive from a car's
 * own place (its index) or a pickup (carCount + its index) to a pickup.
 * `place[car]` says where each car is counted, updated as they are sent. A
 * generator, so that its caller can let the event loop go between cars.
 */
export function* coverageMoves(
  carCount: number,
  pickupCount: number,
  order: Iterable<number>,
  seconds: (from: number, to: number) => number,
  rule: CoverageRule,
  place: Int32Array = Int32Array.from({ length: carCount }, (_, i) => i),
): Generator<{ car: number; move: ReturnType<typeof suggestCoverageMove> }> {
  const between = (a: number, b: number) => seconds(a < carCount ? place[a]! : a, b);
  for (const car of order) {
    const move = suggestCoverageMove(carCount, car, pickupCount, between, rule);
    yield { car, move };
    if (move) place[car] = carCount + move.pickup;
  }
}
