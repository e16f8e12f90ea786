// The hint's SQL (hint-service.ts): the asking driver's own row, and what the
// coverage rule (core/hint.ts, suggestCoverageMove) reads for a whole city —
// its free live cars, its recent pickups and whether an order waits without
// a car — one set-based statement each.
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { liveCandidateSql } from "./liveness";

/** The end of the last trip or the start of the shift, whichever is later (as the dispatch reads it, data.ts). */
const IDLE_SINCE_SQL = `GREATEST(
          (SELECT max(o.updated_at) FROM orders o WHERE o.driver_id = d.id AND o.status_code >= 90),
          (SELECT max(sh.started_at) FROM shift sh WHERE sh.driver_id = d.id))`;

export interface HintDriverRow {
  id: number;
  city_id: number;
  state: string;
  lat: number | null;
  lon: number | null;
  region_id: number | null;
  /** Offered orders now by the liveness rules (not away, not on a break, fresh position, live app). */
  live: boolean;
  /** The end of the last trip or the start of the shift, whichever is later. */
  idle_since: Date | null;
}

export async function readHintDriver(db: DbOrTx, driverId: number): Promise<HintDriverRow | undefined> {
  const rows = await sqlQuery<HintDriverRow>(db, `SELECT d.id, d.city_id, d.state, d.lat, d.lon, d.region_id,
        (d.active AND ${liveCandidateSql()}) AS live,
        ${IDLE_SINCE_SQL} AS idle_since
       FROM driver d WHERE d.id = $1`, [driverId]);
  return rows[0];
}

export interface CoverageCarRow {
  id: number;
  lat: number;
  lon: number;
  region_id: number | null;
  idle_since: Date | null;
}

/**
 * The city's free cars the dispatch would offer an order to now (liveness.ts:
 * not away, not on a break, fresh position, live app; no live offer, which
 * is about to take the car), at most `limit`, the longest idle first.
 */
export async function readCoverageCars(db: DbOrTx, cityId: number, limit: number): Promise<CoverageCarRow[]> {
  return sqlQuery<CoverageCarRow>(db, `SELECT d.id, d.lat, d.lon, d.region_id, ${IDLE_SINCE_SQL} AS idle_since
       FROM driver d
      WHERE d.city_id = $1 AND d.state = 'FREE' AND d.active AND d.lat IS NOT NULL AND d.lon IS NOT NULL
        AND ${liveCandidateSql()}
        AND NOT EXISTS (SELECT 1 FROM dispatch_offer f WHERE f.driver_id = d.id AND f.state = 'LIVE')
      ORDER BY idle_since NULLS FIRST, d.id
      LIMIT $2`, [cityId, limit]);
}

export interface CoveragePickupRow {
  lat: number;
  lon: number;
  region_id: number;
  region_name: string;
  region_name_en: string;
}

/**
 * The pickups of the orders created in the city within the last
 * `windowMinutes` (whatever became of them: demand, as the comparison counts
 * its passengers), the newest `limit`; advance orders are not (their pickup
 * is at another time). By the index on (city_id, created_at).
 */
export async function readRecentPickups(db: DbOrTx, cityId: number, windowMinutes: number, limit: number): Promise<CoveragePickupRow[]> {
  return sqlQuery<CoveragePickupRow>(db, `SELECT o.lat, o.lon, o.region_id, r.name AS region_name, r.name_en AS region_name_en
       FROM orders o JOIN region r ON r.id = o.region_id
      WHERE o.city_id = $1 AND o.created_at > now() - make_interval(mins => $2)
        AND o.pre_order_time IS NULL AND o.lat IS NOT NULL AND o.lon IS NOT NULL
      ORDER BY o.created_at DESC, o.id DESC
      LIMIT $3`, [cityId, windowMinutes, limit]);
}

/**
 * Whether an order of the city has waited longer than `seconds` without a
 * car (free or on the radio, counted from its pickup time): cars are short
 * then, and the rule steers nobody. Only orders created within the rule's
 * window: one left on the radio for hours says nothing about the cars now.
 * By the index on (state, created_at).
 */
export async function readBacklog(db: DbOrTx, cityId: number, seconds: number, windowMinutes: number): Promise<boolean> {
  const rows = await sqlQuery<{ waiting: boolean }>(db, `SELECT EXISTS (
        SELECT 1 FROM orders o
         WHERE o.state IN ('FREE', 'FREE_LONG', 'ORDER_ON_RADIO') AND o.city_id = $1
           AND o.created_at > now() - make_interval(mins => $3)
           AND coalesce(o.pre_order_time, o.created_at) < now() - make_interval(secs => $2)) AS waiting`, [cityId, seconds, windowMinutes]);
  return rows[0]?.waiting ?? false;
}
