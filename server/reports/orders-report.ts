// The Orders report: what happened to the orders created in the period —
// created, offered, taken by a driver, car at the pickup, completed,
// cancelled (by whom and why), lost (nobody took it), bought from and sold to
// the exchange; by local hour; the funnel.
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { factsCte } from "./facts";
import { num, seconds, Sql, type Scope } from "./scope";

export interface OrdersReport {
  totals: { created: number; offered: number; assigned: number; atPickup: number; completed: number; cancelled: number; lost: number; open: number; bought: number; sold: number };
  byHour: Array<{ hour: number; created: number; completed: number; cancelled: number; lost: number; meanAcceptSeconds: number | null }>;
  funnel: Array<{ step: "created" | "offered" | "assigned" | "atPickup" | "completed"; count: number }>;
  cancellations: Array<{ actor: string; state: string; reason: string; count: number }>;
}

export async function ordersReport(db: DbOrTx, scope: Scope): Promise<OrdersReport> {
  const sql = new Sql();
  const cte = factsCte(sql, scope);
  const hour = sql.hourOf("created_at", scope.period);
  const rows = await sqlQuery<Record<string, unknown>>(
    db,
    `${cte}, out AS (SELECT facts.*, ${hour} AS hour FROM facts)
     SELECT hour,
            count(*)::int AS created,
            count(*) FILTER (WHERE offered_at IS NOT NULL OR accepted_at IS NOT NULL)::int AS offered,
            count(*) FILTER (WHERE accepted_at IS NOT NULL)::int AS assigned,
            count(*) FILTER (WHERE at_pickup_at IS NOT NULL)::int AS at_pickup,
            count(*) FILTER (WHERE outcome = 'completed')::int AS completed,
            count(*) FILTER (WHERE outcome = 'cancelled')::int AS cancelled,
            count(*) FILTER (WHERE outcome = 'lost')::int AS lost,
            count(*) FILTER (WHERE outcome = 'open')::int AS open,
            count(*) FILTER (WHERE bought)::int AS bought,
            count(*) FILTER (WHERE sold)::int AS sold,
            (avg(accept_ms) FILTER (WHERE NOT preorder) / 1000)::float8 AS mean_accept
       FROM out GROUP BY GROUPING SETS ((hour), ()) ORDER BY hour NULLS LAST`,
    sql.params,
  );
  const total = rows.find((r) => r.hour === null) ?? {};
  const byHourRows = new Map(rows.filter((r) => r.hour !== null).map((r) => [num(r.hour), r]));
  const totals = {
    created: num(total.created),
    offered: num(total.offered),
    assigned: num(total.assigned),
    atPickup: num(total.at_pickup),
    completed: num(total.completed),
    cancelled: num(total.cancelled),
    lost: num(total.lost),
    open: num(total.open),
    bought: num(total.bought),
    sold: num(total.sold),
  };
  const byHour = Array.from({ length: 24 }, (_, h) => {
    const r = byHourRows.get(h) ?? {};
    return { hour: h, created: num(r.created), completed: num(r.completed), cancelled: num(r.cancelled), lost: num(r.lost), meanAcceptSeconds: seconds(r.mean_accept) };
  });
  const csql = new Sql();
  const ccte = factsCte(csql, scope);
  const cancellations = await sqlQuery<{ actor: string | null; state: string; reason: string | null; count: number }>(
    db,
    `${ccte} SELECT COALESCE(final_actor, '') AS actor, state, COALESCE(final_reason, '') AS reason, count(*)::int AS count
       FROM facts x
      WHERE outcome IN ('cancelled', 'lost')
      GROUP BY 1, 2, 3 ORDER BY count DESC, actor, state, reason LIMIT 200`,
    csql.params,
  );
  return {
    totals,
    byHour,
    funnel: [
      { step: "created", count: totals.created },
      { step: "offered", count: totals.offered },
      { step: "assigned", count: totals.assigned },
      { step: "atPickup", count: totals.atPickup },
      { step: "completed", count: totals.completed },
    ],
    cancellations: cancellations.map((c) => ({ actor: c.actor ?? "", state: c.state, reason: c.reason ?? "", count: num(c.count) })),
  };
}
