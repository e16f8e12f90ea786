// The Drivers report: per driver, over the period — hours on shift (the part
// of each shift inside the period; an open shift counts until now), offers
// received and how they were answered (accepted, refused, timed out), orders
// completed, their fares, the commission the ledger took and what the driver
// kept, and the passengers' ratings given in the period (trip_rating: their
// average and count). Empty kilometres are not stored (docs/reports.md).
// The orders' filters and completions are read from order_fact (one narrow
// row per order kept by triggers: facts.ts), not the orders and history.
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { kopecks, num, orderFilters, Sql, type Scope } from "./scope";

export interface DriverRow {
  driverId: number;
  callSign: string;
  name: string;
  /** On shift inside the period: whole seconds, and hours to two decimals. */
  shiftSeconds: number;
  shiftHours: number;
  offers: number;
  accepted: number;
  refused: number;
  timedOut: number;
  /** Shares of the offers, 0..1 (null without offers). */
  acceptanceRate: number | null;
  refusalRate: number | null;
  completed: number;
  revenue: bigint;
  commission: bigint;
  earnings: bigint;
  /** Passengers' ratings given in the period: their mean (1..5, two decimals; null without any) and count. */
  averageRating: number | null;
  ratings: number;
}

export interface DriversReport {
  drivers: DriverRow[];
}

function driverWhere(sql: Sql, scope: Scope, alias: string): string {
  const where: string[] = [];
  if (scope.query.cityId) where.push(`${alias}.city_id = ${sql.param(scope.query.cityId)}`);
  if (scope.query.driverId) where.push(`${alias}.id = ${sql.param(scope.query.driverId)}`);
  if (scope.query.serviceId) where.push(`EXISTS (SELECT 1 FROM driver_service ds WHERE ds.driver_id = ${alias}.id AND ds.service_id = ${sql.param(scope.query.serviceId)})`);
  return where.length ? where.join(" AND ") : "TRUE";
}

export async function driversReport(db: DbOrTx, scope: Scope, now = new Date()): Promise<DriversReport> {
  const sql = new Sql();
  const from = sql.instant(scope.period.from);
  const to = sql.instant(scope.period.to);
  const nowAt = sql.instant(now);
  const rows = await sqlQuery<Record<string, unknown>>(
    db,
    `WITH d AS (SELECT dr.id, dr.call_sign, dr.first_name, dr.last_name FROM driver dr WHERE ${driverWhere(sql, scope, "dr")}),
     s AS (
       SELECT sh.driver_id, sum(extract(epoch FROM LEAST(COALESCE(sh.ended_at, ${nowAt}), ${to}) - GREATEST(sh.started_at, ${from})))::float8 AS secs
         FROM shift sh JOIN d ON d.id = sh.driver_id
        WHERE sh.started_at < ${to} AND (sh.ended_at IS NULL OR sh.ended_at > ${from}) AND sh.started_at < ${nowAt}
        GROUP BY sh.driver_id),
     -- The offers, commission entries and ratings in the period as one stream, joined once to the orders' facts for the
     -- filters (one hash of the period's orders instead of one per source: the cost at a million orders).
     e AS (
       SELECT x.driver_id, x.order_id, 1 AS kind, x.state::text AS state, NULL::bigint AS value
         FROM dispatch_offer x WHERE x.sent_at >= ${from} AND x.sent_at < ${to}
       UNION ALL
       SELECT x.driver_id, x.order_id, 2, NULL, x.amount
         FROM driver_ledger_entry x WHERE x.kind = 'COMMISSION' AND x.created_at >= ${from} AND x.created_at < ${to}
       UNION ALL
       SELECT t.driver_id, t.order_id, 3, NULL, t.stars
         FROM trip_rating t WHERE t.created_at >= ${from} AND t.created_at < ${to}),
     a AS (
       SELECT e.driver_id,
              count(*) FILTER (WHERE e.kind = 1)::int AS offers,
              count(*) FILTER (WHERE e.kind = 1 AND e.state = 'ACCEPTED')::int AS accepted,
              count(*) FILTER (WHERE e.kind = 1 AND e.state = 'REFUSED')::int AS refused,
              count(*) FILTER (WHERE e.kind = 1 AND e.state = 'TIMED_OUT')::int AS timed_out,
              count(*) FILTER (WHERE e.kind = 2)::int AS commissions,
              COALESCE(-sum(e.value) FILTER (WHERE e.kind = 2), 0)::text AS commission,
              count(*) FILTER (WHERE e.kind = 3)::int AS ratings,
              (avg(e.value) FILTER (WHERE e.kind = 3))::float8 AS mean_stars
         FROM e JOIN d ON d.id = e.driver_id JOIN order_fact o ON o.order_id = e.order_id
        WHERE ${orderFilters(sql, { ...scope.query, driverId: undefined })}
        GROUP BY e.driver_id),
     c AS (
       SELECT o.driver_id, count(*)::int AS completed, COALESCE(sum(o.amount), 0)::text AS revenue
         FROM order_fact o JOIN d ON d.id = o.driver_id
        WHERE o.completed_at >= ${from} AND o.completed_at < ${to} AND ${orderFilters(sql, scope.query)}
        GROUP BY o.driver_id)
     SELECT d.id, d.call_sign, d.first_name, d.last_name, s.secs, NULLIF(a.offers, 0) AS offers, a.accepted, a.refused, a.timed_out,
            c.completed, c.revenue, CASE WHEN a.commissions > 0 THEN a.commission END AS commission,
            NULLIF(a.ratings, 0) AS ratings, a.mean_stars
       FROM d LEFT JOIN s ON s.driver_id = d.id LEFT JOIN a ON a.driver_id = d.id LEFT JOIN c ON c.driver_id = d.id
      WHERE s.secs IS NOT NULL OR a.offers > 0 OR c.completed IS NOT NULL OR a.commissions > 0 OR a.ratings > 0
      ORDER BY d.call_sign`,
    sql.params,
  );
  return {
    drivers: rows.map((r) => {
      const offers = num(r.offers);
      const revenue = kopecks(r.revenue);
      const commission = kopecks(r.commission);
      return {
        driverId: num(r.id),
        callSign: String(r.call_sign),
        name: `${String(r.first_name)} ${String(r.last_name)}`.trim(),
        shiftSeconds: Math.round(Math.max(0, num(r.secs))),
        shiftHours: Math.round((Math.max(0, num(r.secs)) / 3600) * 100) / 100,
        offers,
        accepted: num(r.accepted),
        refused: num(r.refused),
        timedOut: num(r.timed_out),
        acceptanceRate: offers ? Math.round((num(r.accepted) / offers) * 1000) / 1000 : null,
        refusalRate: offers ? Math.round((num(r.refused) / offers) * 1000) / 1000 : null,
        completed: num(r.completed),
        revenue,
        commission,
        earnings: revenue - commission,
        averageRating: r.mean_stars === null || r.mean_stars === undefined ? null : Math.round(num(r.mean_stars) * 100) / 100,
        ratings: num(r.ratings),
      };
    }),
  };
}
