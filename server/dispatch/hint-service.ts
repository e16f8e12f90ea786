// The region hint a free driver sees (issue 30; docs/dispatch.md,
// "Steering idle drivers"): the coverage rule of the comparison
// (core/hint.ts, suggestCoverageMove, COVERAGE_RULE) on live data. Computed
// per city, not per driver: the city's free live cars and its recent
// pickups, the road times from every car and pickup to every pickup, then
// each idle car in turn (the longest idle first) gets the move that most
// shortens the pickups' mean time to their nearest free car, and is counted
// at its target for the cars after it, as the comparison's followers are.
// A driver's call reads their entry. A hint, never an order: nothing in
// dispatch reads it.
import type { DbOrTx } from "../db";
import { config } from "../config";
import { arrivalMatrix } from "../routing/routes";
import { straightSeconds } from "./candidates";
import { COVERAGE_RULE, coverageMoves, type CoverageSettings } from "./core/hint";
import { readBacklog, readCoverageCars, readHintDriver, readRecentPickups, type CoverageCarRow, type CoveragePickupRow } from "./hint-data";
import { loopPacer } from "../loop-turn";

export interface RegionHint {
  /** The region of the target (as GET /map gives it) and its English name. */
  regionId: number;
  regionName: string;
  regionNameEn: string;
  /** Where to wait: one of the recent pickups. */
  target: { lat: number; lon: number };
  driveSeconds: number;
  /** What the rule measured. */
  reason: {
    /** The city's recent pickups the rule weighed (the newest MAX_PICKUPS of the window). */
    pickups: number;
    windowMinutes: number;
    /** By how much waiting at the target shortens those pickups' mean time to their nearest free car (seconds). */
    savesSeconds: number;
    /** Of those pickups, the ones in the target's region, and the free cars there now (the ones already steered there counted). */
    regionPickups: number;
    regionFreeCars: number;
  };
}

/**
 * The newest pickups of the window the rule weighs: each is one backward
 * search over the roads and a column of the rule's sums, so they bound the
 * computation; 200 recent pickups already draw where a city's demand is
 * (the comparison's normal load has about 120 in its hour).
 */
const MAX_PICKUPS = 200;
/** The free cars read (the longest idle first): each is a source of every search and a term of every sum. */
const MAX_CARS = 5_000;
/** The cars steered per computation (the longest idle first): each costs pickups × (cars + pickups) of the rule's sums. */
const MAX_STEERED = 300;

export interface CoveragePlan {
  /** The hints by driver: only idle free cars the rule moves. */
  hints: Map<number, RegionHint>;
  /** What it cost: the cars and pickups, and the milliseconds of the reads, the road searches and the rule. */
  stats: { cars: number; pickups: number; steered: number; backlog: boolean; readMs: number; routeMs: number; ruleMs: number };
}

/**
 * The hint for the driver now, or null: not free, not offered orders (away,
 * on a break, stale), idle less than the setting, or not moved by the city's
 * latest computation (no move saves enough, an order waits without a car,
 * or the car was not free and idle when it ran).
 */
export async function hintFor(db: DbOrTx, driverId: number, now = new Date()): Promise<RegionHint | null> {
  const me = await readHintDriver(db, driverId);
  if (!me || me.state !== "FREE" || !me.live || me.lat === null || me.lon === null) return null;
  const idleSeconds = me.idle_since ? (now.getTime() - me.idle_since.getTime()) / 1000 : Infinity;
  if (idleSeconds < config().DISPATCH_HINT_MIN_IDLE_SECONDS) return null;
  const plan = await cityPlan(db, me.city_id, now);
  return plan.hints.get(driverId) ?? null;
}

interface Cached {
  at: number;
  plan: Promise<CoveragePlan>;
  running: boolean;
}
// Per process and city: the latest computation, or the one under way, which
// concurrent callers share.
const plans = new Map<number, Cached>();

function cityPlan(db: DbOrTx, cityId: number, now: Date): Promise<CoveragePlan> {
  const cached = plans.get(cityId);
  if (cached && now.getTime() - cached.at < config().DISPATCH_HINT_REFRESH_SECONDS * 1000) return cached.plan;
  // A computation still under way is shared even when the refresh is 0 (tests): callers at once see one plan.
  if (cached?.running) return cached.plan;
  const entry: Cached = { at: now.getTime(), plan: Promise.resolve(emptyPlan()), running: true };
  entry.plan = computeCoverage(db, cityId, now).then(
    (plan) => {
      entry.running = false;
      return plan;
    },
    (error: unknown) => {
      // A failed computation is not kept: the next call tries again.
      if (plans.get(cityId) === entry) plans.delete(cityId);
      throw error;
    },
  );
  plans.set(cityId, entry);
  return entry.plan;
}

function emptyPlan(): CoveragePlan {
  return { hints: new Map(), stats: { cars: 0, pickups: 0, steered: 0, backlog: false, readMs: 0, routeMs: 0, ruleMs: 0 } };
}

/** COVERAGE_RULE as measured, its guard and idle time as configured (the same by default). */
function servedRule(): CoverageSettings {
  const cfg = config();
  return { ...COVERAGE_RULE, backlogSeconds: cfg.DISPATCH_HINT_BACKLOG_SECONDS, minIdleSeconds: cfg.DISPATCH_HINT_MIN_IDLE_SECONDS };
}

/** The city's hints now, computed afresh (the bench and the cache call it). */
export async function computeCoverage(db: DbOrTx, cityId: number, now = new Date(), rule: CoverageSettings = servedRule()): Promise<CoveragePlan> {
  const plan = emptyPlan();
  let mark = performance.now();
  const [backlog, cars, pickups] = await Promise.all([
    rule.backlogSeconds > 0 ? readBacklog(db, cityId, rule.backlogSeconds, rule.windowMinutes) : false,
    readCoverageCars(db, cityId, MAX_CARS),
    readRecentPickups(db, cityId, rule.windowMinutes, MAX_PICKUPS),
  ]);
  Object.assign(plan.stats, { cars: cars.length, pickups: pickups.length, backlog, readMs: performance.now() - mark });
  // Cars short: an order has waited without a car; every free car is needed where it stands.
  if (backlog || cars.length === 0 || pickups.length === 0) return plan;
  const idle = cars.filter((c) => !c.idle_since || (now.getTime() - c.idle_since.getTime()) / 1000 >= rule.minIdleSeconds).slice(0, MAX_STEERED);
  if (idle.length === 0) return plan;

  mark = performance.now();
  const seconds = await roadSeconds(db, cityId, cars, pickups, rule, now);
  plan.stats.routeMs = performance.now() - mark;

  mark = performance.now();
  const carCount = cars.length;
  const sources = carCount + pickups.length;
  // Where each car is counted: itself (its index) or, once sent, the pickup it was sent to (carCount + pickup).
  const place = Int32Array.from(cars, (_, i) => i);
  const regionOfPlace = (k: number) => (k < carCount ? cars[k]!.region_id : pickups[k - carCount]!.region_id);
  const index = new Map(cars.map((c, i) => [c.id, i]));
  const order = idle.map((c) => index.get(c.id)!);
  const turn = loopPacer();
  for (const { car: me, move } of coverageMoves(carCount, pickups.length, order, (from, to) => seconds[(to - carCount) * sources + from]!, rule, place)) {
    if (move) {
      const target = pickups[move.pickup]!;
      plan.hints.set(cars[me]!.id, {
        regionId: target.region_id,
        regionName: target.region_name,
        regionNameEn: target.region_name_en || target.region_name,
        target: { lat: target.lat, lon: target.lon },
        driveSeconds: Math.round(move.seconds),
        reason: {
          pickups: pickups.length,
          windowMinutes: rule.windowMinutes,
          savesSeconds: Math.round(move.gainSeconds),
          regionPickups: pickups.filter((p) => p.region_id === target.region_id).length,
          // Before this car is counted at its target (the generator moves it after this step).
          regionFreeCars: cars.filter((_, k) => k !== me && regionOfPlace(place[k]!) === target.region_id).length,
        },
      });
    }
    await turn();
  }
  plan.stats.steered = plan.hints.size;
  plan.stats.ruleMs = performance.now() - mark;
  return plan;
}

/**
 * seconds[to × sources + from]: the drive from each car and pickup (the
 * sources, cars first) to each pickup, one backward search per pickup over
 * the roads, bounded at the rule's cap. A pair without a road time (farther
 * than the cap, or off the roads) counts as the cap at least: never a
 * target, and no nearer than the cap. A city without roads at all: straight
 * lines, as the dispatch falls back to them.
 */
async function roadSeconds(db: DbOrTx, cityId: number, cars: readonly CoverageCarRow[], pickups: readonly CoveragePickupRow[], rule: CoverageSettings, now: Date): Promise<Float64Array> {
  const points = [...cars, ...pickups].map((p) => ({ lat: p.lat, lon: p.lon }));
  const matrix = await arrivalMatrix(db, cityId, pickups, points, { at: now, maxSeconds: rule.capSeconds });
  const noRoads = matrix.every((row) => row.every((s) => s === undefined));
  const seconds = new Float64Array(pickups.length * points.length);
  const turn = loopPacer();
  for (let t = 0; t < pickups.length; t++) {
    await turn();
    for (let s = 0; s < points.length; s++) {
      const road = noRoads ? undefined : matrix[t]![s];
      seconds[t * points.length + s] =
        s === cars.length + t ? 0 : road !== undefined ? road : noRoads ? straightSeconds(points[s]!, pickups[t]!) : Math.max(rule.capSeconds, straightSeconds(points[s]!, pickups[t]!));
    }
  }
  return seconds;
}
