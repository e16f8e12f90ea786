// Routes along the roads for the rest of the system: a trip through points
// (the estimate, the map), and the arrival times of many cars at one place
// (a driver's arrival, the choice of a driver). Points farther than
// ROUTE_SNAP_METRES from every road, or a city without roads, give no route:
// the callers fall back to the straight line and say the figure is approximate.
import { config } from "../config";
import type { DbOrTx } from "../db";
import type { GeoPoint } from "../geo/distance";
import { cityRoads } from "./graph-cache";
import type { Snap } from "./graph";
import { paceAt } from "./speeds";
import { localHour } from "../geo/local-hour";
import { loopPacer } from "../loop-turn";

export interface RoadRoute {
  metres: number;
  seconds: number;
  /** [lat, lon] along the roads, from the first point to the last. */
  points: Array<[number, number]>;
}

/** The fastest route through the points in order, leaving at `at`; undefined when a point is off the roads or cut off. */
export async function routeThrough(db: DbOrTx, cityId: number, points: readonly GeoPoint[], at = new Date()): Promise<RoadRoute | undefined> {
  if (points.length < 2) return undefined;
  const roads = await cityRoads(db, cityId);
  const router = roads.router;
  if (!router) return undefined;
  const maxMetres = config().ROUTE_SNAP_METRES;
  const snaps: Snap[] = [];
  for (const p of points) {
    const snap = router.graph.snap(p.lat, p.lon, maxMetres);
    if (!snap) return undefined;
    snaps.push(snap);
  }
  const pace = paceAt(router.graph.speeds, localHour(at, roads.timezone));
  const route: RoadRoute = { metres: 0, seconds: 0, points: [] };
  for (let i = 1; i < snaps.length; i++) {
    const leg = router.route(snaps[i - 1]!, snaps[i]!, pace);
    if (!leg) return undefined;
    route.metres += leg.metres;
    route.seconds += leg.seconds;
    route.points.push(...(i === 1 ? leg.points : leg.points.slice(1)));
  }
  route.metres = Math.round(route.metres);
  route.seconds = Math.round(route.seconds);
  return route;
}

/**
 * Seconds from each of `from` to `to` along the roads, leaving at `at`
 * (undefined: off the roads, no route, or more than `maxSeconds`). One
 * backward search from `to` answers all of them, so asking for fifty cars
 * costs about what asking for the farthest one does.
 */
export async function arrivalSeconds(
  db: DbOrTx,
  cityId: number,
  to: GeoPoint,
  from: readonly GeoPoint[],
  options: { at?: Date; maxSeconds?: number } = {},
): Promise<Array<number | undefined>> {
  return (await arrivalMatrix(db, cityId, [to], from, options))[0]!;
}

/**
 * The arrival times of many cars at many pickups: matrix[pickup][car] in
 * seconds (undefined as for arrivalSeconds): every car for every pickup.
 */
export async function arrivalMatrix(
  db: DbOrTx,
  cityId: number,
  pickups: readonly GeoPoint[],
  cars: readonly GeoPoint[],
  options: { at?: Date; maxSeconds?: number } = {},
): Promise<Array<Array<number | undefined>>> {
  const every = cars.map((_, i) => i);
  return arrivalLists(db, cityId, pickups, cars, pickups.map(() => every), options);
}

/**
 * The arrival times at each pickup of its own cars: lists[pickup][k] is the
 * time of cars[carsOf[pickup][k]] (undefined as for arrivalSeconds). The cars
 * are put on the roads once, then one backward search per pickup, which
 * stops when its own cars are reached: a round's candidates within a radius
 * make a search of the neighbourhood, not of the city (docs/performance.md,
 * "Round four": 300 searches to every one of 10,000 cars took seconds).
 */
export async function arrivalLists(
  db: DbOrTx,
  cityId: number,
  pickups: readonly GeoPoint[],
  cars: readonly GeoPoint[],
  carsOf: ReadonlyArray<readonly number[]>,
  options: { at?: Date; maxSeconds?: number } = {},
): Promise<Array<Array<number | undefined>>> {
  const none = (i: number) => (carsOf[i] ?? []).map((): number | undefined => undefined);
  if (cars.length === 0 || pickups.length === 0) return pickups.map((_, i) => none(i));
  const roads = await cityRoads(db, cityId);
  const router = roads.router;
  if (!router) return pickups.map((_, i) => none(i));
  const maxMetres = config().ROUTE_SNAP_METRES;
  // Each car snapped once, when a pickup first asks for it (null: off the roads).
  const snaps: Array<Snap | null | undefined> = new Array(cars.length);
  const snapOf = (c: number) => {
    if (snaps[c] === undefined) snaps[c] = router.graph.snap(cars[c]!.lat, cars[c]!.lon, maxMetres) ?? null;
    return snaps[c];
  };
  const pace = paceAt(router.graph.speeds, localHour(options.at ?? new Date(), roads.timezone));
  // One search per pickup, the event loop let go between them every few
  // milliseconds: a round's 300 searches took 0.5–2 s in one piece under
  // load, and every request of the instance (a fleet's positions) waited
  // behind them (docs/performance.md, "A fleet of ten thousand").
  const rows: Array<Array<number | undefined>> = [];
  const turn = loopPacer();
  for (const [p, pickup] of pickups.entries()) {
    await turn();
    const out = none(p);
    rows.push(out);
    const target = router.graph.snap(pickup.lat, pickup.lon, maxMetres);
    if (!target) continue;
    const mine = carsOf[p] ?? [];
    const on = mine.flatMap((c, k) => {
      const snap = snapOf(c);
      return snap ? [{ snap, k }] : [];
    });
    if (on.length === 0) continue;
    const times = router.timesTo(
      target,
      on.map((x) => x.snap),
      pace,
      options.maxSeconds,
    );
    on.forEach(({ k }, n) => {
      const t = times[n]!;
      out[k] = Number.isFinite(t) ? Math.round(t) : undefined;
    });
  }
  return rows;
}

