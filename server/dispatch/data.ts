// The dispatcher's SQL: what a round reads (free orders, free drivers, chain
// candidates, parking queues) and the sweeps of offers. Nothing here decides
// a race: the offers are made one by one under row locks (offer.ts).
import { PRODUCTION_DEFAULT } from "./core/defaults";
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { liveCandidateSql } from "./liveness";

export interface FreeOrderRow {
  id: number;
  city_id: number;
  service_id: number;
  region_id: number | null;
  state: string;
  lat: number;
  lon: number;
  created_at: Date;
  pre_order_time: Date | null;
  paused: boolean | null;
  attempts: number | null;
  next_try_at: Date | null;
  refused: number[] | null;
  extras: string[] | null;
}

/** Orders waiting for a driver (or, with advance, free advance orders), with no live offer. */
export async function readFreeOrders(db: DbOrTx, states: readonly string[], limit = 1000): Promise<FreeOrderRow[]> {
  return sqlQuery<FreeOrderRow>(db, `SELECT o.id, o.city_id, o.service_id, o.region_id, o.state, o.lat, o.lon, o.created_at, o.pre_order_time,
            c.paused, c.attempts, c.next_try_at,
            (SELECT array_agg(DISTINCT f.driver_id) FROM dispatch_offer f
              WHERE f.order_id = o.id AND f.state IN ('REFUSED', 'TIMED_OUT')) AS refused,
            (SELECT array_agg(e.code) FROM order_extra x JOIN extra e ON e.id = x.extra_id WHERE x.order_id = o.id) AS extras
       FROM orders o LEFT JOIN dispatch_order c ON c.order_id = o.id
      WHERE o.state = ANY($1::text[]) AND o.lat IS NOT NULL AND o.lon IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM dispatch_offer f WHERE f.order_id = o.id AND f.state = 'LIVE')
        -- An offer bought from the exchange goes to a driver only through a take on the exchange (takeOffer).
        AND NOT EXISTS (SELECT 1 FROM exchange_link l WHERE l.order_id = o.id AND l.role = 'BOUGHT' AND l.phase IN ('OFFERED', 'TAKING'))
      ORDER BY o.created_at, o.id
      LIMIT $2`, [states, limit]);
}

export interface DriverRow {
  id: number;
  city_id: number;
  lat: number;
  lon: number;
  balance: bigint;
  options: number[] | null;
  services: number[];
  idle_since: Date | null;
  /** Chain candidates: where the trip ends and the seconds left of it. */
  dst_lat: number | null;
  dst_lon: number | null;
  busy_for: number | null;
  /** The passengers' ratings of the driver's last RATING_WINDOW_DAYS: their sum and count (null unless the rating weight is on). */
  rating_sum: number | null;
  rating_count: number | null;
}

/** The ratings a driver's rating weight reads: the last 90 days (by trip_rating's index on driver and time). */
const RATING_WINDOW_DAYS = 90;

/** Read only while the rating weight is on (defaults.ts): a subquery per driver and round costs nothing when off. */
function ratingColumns(): string {
  if (PRODUCTION_DEFAULT.ratingWeight <= 0) return "NULL::float8 AS rating_sum, NULL::int AS rating_count";
  const recent = `FROM trip_rating r WHERE r.driver_id = d.id AND r.created_at > now() - make_interval(days => ${RATING_WINDOW_DAYS})`;
  return `(SELECT coalesce(sum(r.stars), 0)::float8 ${recent}) AS rating_sum, (SELECT count(*)::int ${recent}) AS rating_count`;
}

const DRIVER_COLUMNS = `d.id, d.city_id, d.lat, d.lon, d.balance, car.options,
  ARRAY(SELECT s.service_id FROM driver_service s WHERE s.driver_id = d.id) AS services,
  GREATEST(
    (SELECT max(o.updated_at) FROM orders o WHERE o.driver_id = d.id AND o.status_code >= 90),
    (SELECT max(sh.started_at) FROM shift sh WHERE sh.driver_id = d.id)) AS idle_since,
  ${ratingColumns()}`;

/**
 * The statement of readFreeDrivers (the round's profile prints its plan:
 * scripts/bench/fleet-round.ts). Its subqueries per driver are index probes
 * (about 0.1 s at 10,000 free drivers on PostgreSQL); aggregates over the
 * free drivers were tried and were slower, the planner misjudging their
 * joins into a JIT compilation of half a second (docs/performance.md, "Round four").
 */
export function freeDriversSql(): string {
  return `SELECT ${DRIVER_COLUMNS}, NULL::float8 AS dst_lat, NULL::float8 AS dst_lon, NULL::float8 AS busy_for
       FROM driver d LEFT JOIN car ON car.driver_id = d.id
      WHERE d.state = 'FREE' AND d.active AND d.lat IS NOT NULL AND d.lon IS NOT NULL
        AND ${liveCandidateSql()}
        AND NOT EXISTS (SELECT 1 FROM dispatch_offer f WHERE f.driver_id = d.id AND f.state = 'LIVE')`;
}

/** Free drivers on shift with a fresh position, a live app, not away, and no live offer (liveness.ts). */
export async function readFreeDrivers(db: DbOrTx): Promise<DriverRow[]> {
  return sqlQuery<DriverRow>(db, freeDriversSql());
}

/**
 * Busy drivers carrying a passenger whose trip ends within `maxSeconds` (by
 * the order's route time from the start of the ride), with no order bound to
 * them yet and no live offer: candidates for a chained order.
 */
export async function readChainDrivers(db: DbOrTx, maxSeconds: number): Promise<DriverRow[]> {
  return sqlQuery<DriverRow>(db, `SELECT ${DRIVER_COLUMNS}, t.dst_lat, t.dst_lon, t.busy_for
       FROM driver d LEFT JOIN car ON car.driver_id = d.id
       JOIN LATERAL (
         SELECT o.dst_lat, o.dst_lon,
                GREATEST(1, EXTRACT(EPOCH FROM (o.start_time + make_interval(secs => o.route_time) - now())))::float8 AS busy_for
           FROM orders o
          WHERE o.driver_id = d.id AND o.state = 'IN_PROCESS' AND o.dst_lat IS NOT NULL AND o.dst_lon IS NOT NULL
            AND o.start_time IS NOT NULL AND o.route_time IS NOT NULL
          ORDER BY o.id DESC LIMIT 1) t ON true
      WHERE d.state = 'BUSY' AND d.active
        AND t.busy_for <= $1
        AND ${liveCandidateSql()}
        AND NOT EXISTS (SELECT 1 FROM orders b WHERE b.driver_id = d.id AND b.state IN ('BOUND', 'SENT_TO_DRIVER', 'CONFIRMED', 'AWAITING_CLIENT'))
        AND NOT EXISTS (SELECT 1 FROM dispatch_offer f WHERE f.driver_id = d.id AND f.state = 'LIVE')`, [maxSeconds]);
}

export interface QueuePlaceRow {
  driver_id: number;
  region_id: number;
  position: number;
  joined_at: Date;
}

/** Every parking queue: each driver's place in the queue of the region it stands in (0 = head). */
export async function readQueuePlaces(db: DbOrTx, regionId?: number): Promise<QueuePlaceRow[]> {
  return sqlQuery<QueuePlaceRow>(db, `SELECT q.driver_id, q.region_id, q.joined_at,
            (row_number() OVER (PARTITION BY q.region_id ORDER BY q.joined_at, q.driver_id) - 1)::int AS position
       FROM dispatch_queue_entry q
      WHERE $1::int IS NULL OR q.region_id = $1
      ORDER BY q.region_id, position`, [regionId ?? null]);
}

export interface DueOfferRow {
  id: number;
  order_id: number;
}

/** Live offers past their deadline (oldest first). */
export async function readExpiredOffers(db: DbOrTx, limit = 200): Promise<DueOfferRow[]> {
  return sqlQuery<DueOfferRow>(db, `SELECT id, order_id FROM dispatch_offer WHERE state = 'LIVE' AND deadline < now() ORDER BY deadline LIMIT $1`, [limit]);
}

/**
 * Live offers whose order moved on without them (cancelled, taken back, moved
 * by a dispatcher or the dispatch API): withdrawn, so the driver is free for
 * the next offer.
 */
export async function withdrawStaleOffers(db: DbOrTx): Promise<Array<{ id: number; driver_id: number; order_id: number }>> {
  return sqlQuery(db, `UPDATE dispatch_offer f SET state = 'WITHDRAWN', answered_at = now(), reason = 'the order moved on (' || o.state || ')'
       FROM orders o
      WHERE f.order_id = o.id AND f.state = 'LIVE'
        AND NOT CASE f.kind
              WHEN 'LIVE' THEN o.state = 'SENT_TO_DRIVER' AND o.driver_id = f.driver_id
              WHEN 'CHAIN' THEN o.state IN ('FREE', 'FREE_LONG')
              ELSE o.state = 'PREORDER_FREE' END
      RETURNING f.id, f.driver_id, f.order_id`);
}

export interface TimedStateRow {
  id: number;
  service_id: number;
  region_id: number | null;
  state: string;
  driver_id: number | null;
  created_at: Date;
  pre_order_time: Date | null;
  next_try_at: Date | null;
}

/** Orders in the given states, for the timed rules (FREE_LONG alerts, advance orders). */
export async function readOrdersInStates(db: DbOrTx, states: readonly string[], limit = 1000): Promise<TimedStateRow[]> {
  return sqlQuery<TimedStateRow>(db, `SELECT o.id, o.service_id, o.region_id, o.state, o.driver_id, o.created_at, o.pre_order_time, c.next_try_at
       FROM orders o LEFT JOIN dispatch_order c ON c.order_id = o.id
      WHERE o.state = ANY($1::text[])
      ORDER BY o.created_at LIMIT $2`, [states, limit]);
}
