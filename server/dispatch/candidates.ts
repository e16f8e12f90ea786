// From the database's rows to the dispatch core's plain inputs: the rules of
// each order's settings, the drivers' start points and waiting times, the
// parking queues, and the arrival times along the roads (the straight line
// times ROAD_FACTOR at AVERAGE_SPEED_KMH where a point is off them).
import type { DbOrTx } from "../db";
import { config } from "../config";
import { haversineMetres } from "../geo/distance";
import { arrivalLists, arrivalMatrix } from "../routing/routes";
import type { DriverRow, FreeOrderRow, QueuePlaceRow } from "./data";
import type { DriverToDispatch, OrderRules, OrderToDispatch } from "./core/types";
import { optionsNeeded } from "./extras";
import type { DispatchSettings } from "./settings";
import { PRODUCTION_DEFAULT } from "./core/defaults";
import { shrunkRating } from "./core/rating";

export function rulesOf(s: DispatchSettings): OrderRules {
  return {
    mode: s.mode === "QUEUE" ? "QUEUE" : "AUTO",
    radiusKm: s.radiusKm,
    fairnessWeight: s.fairnessWeight,
    minBalance: Number(s.minBalance),
    chainSeconds: s.chainMinutes * 60,
    ...(PRODUCTION_DEFAULT.radiusGrowth ? { radiusStartKm: PRODUCTION_DEFAULT.radiusStartKm, radiusStepKm: PRODUCTION_DEFAULT.radiusStepKm } : {}),
    ...(PRODUCTION_DEFAULT.acceptanceWeight > 0 ? { acceptanceWeight: PRODUCTION_DEFAULT.acceptanceWeight } : {}),
    ...(PRODUCTION_DEFAULT.ratingWeight > 0 ? { ratingWeight: PRODUCTION_DEFAULT.ratingWeight } : {}),
  };
}

export function orderInput(row: FreeOrderRow, settings: DispatchSettings, now: Date): OrderToDispatch {
  const since = row.pre_order_time && row.pre_order_time < now ? row.pre_order_time : row.created_at;
  return {
    id: row.id,
    serviceId: row.service_id,
    regionId: row.region_id,
    lat: row.lat,
    lon: row.lon,
    waitingSeconds: Math.max(0, (now.getTime() - since.getTime()) / 1000),
    neededOptions: optionsNeeded(row.extras ?? []),
    refusedBy: new Set(row.refused ?? []),
    rules: rulesOf(settings),
  };
}

export function driverInput(row: DriverRow, queue: Map<number, QueuePlaceRow>, now: Date): DriverToDispatch {
  const chain = row.busy_for !== null && row.dst_lat !== null && row.dst_lon !== null;
  const place = queue.get(row.id);
  return {
    id: row.id,
    lat: chain ? row.dst_lat! : row.lat,
    lon: chain ? row.dst_lon! : row.lon,
    serviceIds: row.services,
    options: row.options ?? [],
    balance: Number(row.balance),
    idleSeconds: row.idle_since ? Math.max(0, (now.getTime() - row.idle_since.getTime()) / 1000) : 3600,
    queue: place ? { regionId: place.region_id, position: place.position } : null,
    busyForSeconds: chain ? Math.max(1, Math.round(row.busy_for!)) : 0,
    ...(row.rating_count !== null && row.rating_sum !== null ? { rating: shrunkRating(Number(row.rating_sum), Number(row.rating_count)) } : {}),
  };
}

/** Straight-line seconds: the fallback off the roads, as the rest of the system assumes. */
export function straightSeconds(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const cfg = config();
  return (haversineMetres(a, b) * cfg.ROAD_FACTOR) / (cfg.AVERAGE_SPEED_KMH / 3.6);
}

/** matrix[order][driver] in seconds along the roads, the straight line where the roads do not answer. */
export async function arrivalTimes(db: DbOrTx, cityId: number, orders: readonly OrderToDispatch[], drivers: readonly DriverToDispatch[], at: Date): Promise<number[][]> {
  const roads = await arrivalMatrix(db, cityId, orders, drivers, { at });
  return orders.map((o, i) => drivers.map((d, j) => roads[i]?.[j] ?? Math.round(straightSeconds(d, o))));
}

/**
 * For each order, the arrival seconds of its own candidates only
 * (candidates[i]: indices into `drivers`), along the roads, the straight line
 * where the roads do not answer: a round's sparse pairs (round.ts).
 */
export async function candidateArrivals(
  db: DbOrTx,
  cityId: number,
  orders: readonly OrderToDispatch[],
  drivers: readonly DriverToDispatch[],
  candidates: ReadonlyArray<readonly number[]>,
  at: Date,
): Promise<Array<Map<number, number>>> {
  const roads = await arrivalLists(db, cityId, orders, drivers, candidates, { at });
  return orders.map((o, i) => new Map((candidates[i] ?? []).map((j, k) => [j, roads[i]?.[k] ?? Math.round(straightSeconds(drivers[j]!, o))])));
}
