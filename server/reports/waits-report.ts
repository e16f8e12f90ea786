// The Waits report: how long passengers waited, over the orders created in
// the period (advance orders left out: they wait for their time on purpose):
// from creation to the first offer, to a driver taking it, to the car at the
// pickup; mean and 90th percentile; by hour; and the orders in trouble (taken
// after more than TROUBLE_ACCEPT_SECONDS, or finished with nobody taking them).
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { factsCte } from "./facts";
import { num, seconds, Sql, type Scope } from "./scope";

export const TROUBLE_ACCEPT_SECONDS = 300;
export const TROUBLE_LIMIT = 200;

export interface WaitFigure {
  count: number;
  meanSeconds: number | null;
  p90Seconds: number | null;
}

export interface WaitsReport {
  toOffer: WaitFigure;
  toAccept: WaitFigure;
  toPickup: WaitFigure;
  byHour: Array<{ hour: number; orders: number; meanAcceptSeconds: number | null; p90AcceptSeconds: number | null; meanPickupSeconds: number | null }>;
  trouble: Array<{ orderId: number; createdAt: Date; state: string; phone: string; acceptSeconds: number | null; pickupSeconds: number | null; outcome: string }>;
}

/** A phone the reader may not see: its country code and last two digits. */
export function maskPhone(phone: string): string {
  if (phone.length <= 4) return "***";
  return `${phone.slice(0, 2)}${"*".repeat(Math.max(3, phone.length - 4))}${phone.slice(-2)}`;
}

export async function waitsReport(db: DbOrTx, scope: Scope, options: { showPhones: boolean }): Promise<WaitsReport> {
  const sql = new Sql();
  const cte = factsCte(sql, scope);
  const hour = sql.hourOf("created_at", scope.period);
  // The facts' waits in milliseconds: the same values as the seconds between the timestamps, without interval arithmetic.
  const figure = (ms: string, name: string) =>
    `count(${ms})::int AS ${name}_n, (avg(${ms}) / 1000)::float8 AS ${name}_mean,
     percentile_cont(0.9) WITHIN GROUP (ORDER BY ${ms}::float8 / 1000)::float8 AS ${name}_p90`;
  const rows = await sqlQuery<Record<string, unknown>>(
    db,
    `${cte} SELECT hour, count(*)::int AS orders, ${figure("offer_ms", "offer")}, ${figure("accept_ms", "accept")}, ${figure("pickup_ms", "pickup")}
       FROM (SELECT facts.*, ${hour} AS hour FROM facts WHERE NOT preorder) x GROUP BY GROUPING SETS ((hour), ()) ORDER BY hour NULLS LAST`,
    sql.params,
  );
  const total = rows.find((r) => r.hour === null) ?? {};
  const fig = (r: Record<string, unknown>, name: string): WaitFigure => ({ count: num(r[`${name}_n`]), meanSeconds: seconds(r[`${name}_mean`]), p90Seconds: seconds(r[`${name}_p90`]) });
  const byHourRows = new Map(rows.filter((r) => r.hour !== null).map((r) => [num(r.hour), r]));
  const tsql = new Sql();
  const tcte = factsCte(tsql, scope);
  const limit = tsql.param(TROUBLE_ACCEPT_SECONDS);
  const trouble = await sqlQuery<Record<string, unknown>>(
    db,
    `${tcte}, out AS (SELECT facts.* FROM facts WHERE NOT preorder)
     SELECT out.id, out.created_at AT TIME ZONE 'UTC' AS created_at, out.state, o.phone, out.outcome,
            out.accept_ms::float8 / 1000 AS accept_s, out.pickup_ms::float8 / 1000 AS pickup_s
       FROM out JOIN orders o ON o.id = out.id
      WHERE out.outcome = 'lost' OR out.accept_ms > ${limit}::bigint * 1000
      ORDER BY out.created_at, out.id LIMIT ${TROUBLE_LIMIT}`,
    tsql.params,
  );
  return {
    toOffer: fig(total, "offer"),
    toAccept: fig(total, "accept"),
    toPickup: fig(total, "pickup"),
    byHour: Array.from({ length: 24 }, (_, h) => {
      const r = byHourRows.get(h) ?? {};
      return { hour: h, orders: num(r.orders), meanAcceptSeconds: seconds(r.accept_mean), p90AcceptSeconds: seconds(r.accept_p90), meanPickupSeconds: seconds(r.pickup_mean) };
    }),
    trouble: trouble.map((r) => ({
      orderId: num(r.id),
      createdAt: new Date(r.created_at as string | Date),
      state: String(r.state),
      phone: options.showPhones ? String(r.phone) : maskPhone(String(r.phone)),
      acceptSeconds: seconds(r.accept_s),
      pickupSeconds: seconds(r.pickup_s),
      outcome: String(r.outcome),
    })),
  };
}
