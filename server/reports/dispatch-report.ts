// The Dispatch report: how the orders created in the period were
// distributed, by strategy (the source of an order's first offer: AUTO for
// the greedy strategy, BATCH for the batched one, QUEUE for a parking queue,
// DISPATCHER by hand; NONE: never offered) and pickup region: orders, offers
// per order, and the share a driver took within ASSIGNED_WITHIN seconds of
// creation — what a manager compares after changing a rule.
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { factsCte } from "./facts";
import { num, Sql, type Scope } from "./scope";

export const ASSIGNED_WITHIN_SECONDS = 60;

export interface DispatchRow {
  strategy: string;
  regionId: number | null;
  /** The region's name in Russian and in English (empty without a region). */
  region: string;
  regionEn: string;
  orders: number;
  offers: number;
  offersPerOrder: number | null;
  assigned: number;
  assignedWithin60: number;
  /** assignedWithin60 / orders, 0..1 (null without orders). */
  shareWithin60: number | null;
}

export interface DispatchReport {
  totals: Omit<DispatchRow, "strategy" | "regionId" | "region" | "regionEn">;
  rows: DispatchRow[];
}

export async function dispatchReport(db: DbOrTx, scope: Scope): Promise<DispatchReport> {
  const sql = new Sql();
  const cte = factsCte(sql, scope);
  const within = sql.param(ASSIGNED_WITHIN_SECONDS);
  const rows = await sqlQuery<Record<string, unknown>>(
    db,
    `${cte} SELECT strategy, region_id, count(*)::int AS orders, COALESCE(sum(offers), 0)::int AS offers,
            count(accepted_at)::int AS assigned,
            count(*) FILTER (WHERE accept_ms <= ${within}::bigint * 1000)::int AS within
       FROM (SELECT facts.*, COALESCE(first_source, 'NONE') AS strategy FROM facts WHERE NOT preorder) x
      GROUP BY GROUPING SETS ((strategy, region_id), ())
      ORDER BY strategy NULLS LAST, region_id NULLS FIRST`,
    sql.params,
  );
  const regionIds = [...new Set(rows.map((r) => r.region_id).filter((v): v is number => v !== null).map(Number))];
  const regions = new Map((await db.region.findMany({ where: { id: { in: regionIds } }, select: { id: true, name: true, nameEn: true } })).map((r) => [r.id, r]));
  const shape = (r: Record<string, unknown>) => {
    const orders = num(r.orders);
    const offers = num(r.offers);
    const within60 = num(r.within);
    return {
      orders,
      offers,
      offersPerOrder: orders ? Math.round((offers / orders) * 100) / 100 : null,
      assigned: num(r.assigned),
      assignedWithin60: within60,
      shareWithin60: orders ? Math.round((within60 / orders) * 1000) / 1000 : null,
    };
  };
  const total = rows.find((r) => r.strategy === null);
  return {
    totals: shape(total ?? {}),
    rows: rows
      .filter((r) => r.strategy !== null)
      .map((r) => ({
        strategy: String(r.strategy),
        regionId: r.region_id === null ? null : num(r.region_id),
        region: r.region_id === null ? "" : (regions.get(num(r.region_id))?.name ?? String(r.region_id)),
        regionEn: r.region_id === null ? "" : (regions.get(num(r.region_id))?.nameEn || String(r.region_id)),
        ...shape(r),
      })),
  };
}
