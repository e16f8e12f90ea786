// The Money report, in exact kopecks (bigint), over events in the period:
//   - revenue: the fares (orders.amount) of orders completed in the period
//     (their move to DONE_SUCCESSFUL);
// The orders' filters are read from order_fact (one narrow row per order,
// kept by triggers: facts.ts), not from the wide orders table.
//   - commission: the drivers' ledger's COMMISSION entries (debits, shown
//     positive) written in the period: the same rows the balances hold, so
//     the report reconciles with the ledger to the kopeck;
//   - bonuses spent and earned: the clients' bonus ledger (1 bonus = 1 rouble);
//   - the exchange: our sales, purchases and the commission we paid, from the
//     exchange's ledger (kept in this database when this installation runs the
//     exchange it trades on), entries written in the period, of the orders in
//     the filters like every other figure.
// Per shift day, per service and per driver.
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { kopecks, num, orderFilters, Sql, type Scope } from "./scope";

export interface MoneyRow {
  orders: number;
  revenue: bigint;
  commission: bigint;
  bonusesSpent: bigint;
}

export interface MoneyReport {
  totals: MoneyRow & { bonusesEarned: bigint; driverEarnings: bigint };
  exchange: { sales: bigint; purchases: bigint; commission: bigint };
  byDay: Array<MoneyRow & { day: string }>;
  byService: Array<MoneyRow & { serviceId: number; service: string; serviceEn: string }>;
  byDriver: Array<MoneyRow & { driverId: number; callSign: string }>;
}

type Key = "day" | "service_id" | "driver_id";
interface Grouped {
  /** GROUPING(day, service_id, driver_id): which grouping set the row is (a null key may be a real null). */
  g: number;
  day: string | null;
  service_id: number | null;
  driver_id: number | null;
  [k: string]: unknown;
}

/** One event source grouped by day, service, driver and in total. */
async function grouped(db: DbOrTx, scope: Scope, build: (sql: Sql) => { from: string; at: string; amount: string; values: string; carry?: string }): Promise<Grouped[]> {
  const sql = new Sql();
  const { from, at, amount, values, carry = "" } = build(sql);
  const day = sql.dayOf(at, scope.period);
  const rows = await sqlQuery<Grouped>(
    db,
    `SELECT GROUPING(day, service_id, driver_id)::int AS g, day, service_id, driver_id, ${values}
       FROM (SELECT ${day} AS day, o.service_id, o.driver_id, ${amount} AS amount${carry} FROM ${from}
              WHERE ${at} >= ${sql.instant(scope.period.from)} AND ${at} < ${sql.instant(scope.period.to)} AND ${orderFilters(sql, scope.query)}) e
      GROUP BY GROUPING SETS ((day), (service_id), (driver_id), ())`,
    sql.params,
  );
  return rows;
}

const SETS: Record<number, Key | "total"> = { 3: "day", 5: "service_id", 6: "driver_id", 7: "total" };

function which(row: Grouped): Key | "total" {
  return SETS[Number(row.g)] ?? "total";
}

export async function moneyReport(db: DbOrTx, scope: Scope): Promise<MoneyReport> {
  const [revenue, entries] = await Promise.all([
    grouped(db, scope, () => ({
      // An order completes once (the state machine has no move out of DONE_SUCCESSFUL): its fact's completed_at.
      from: `order_fact o`,
      at: "o.completed_at",
      amount: "o.amount",
      values: `count(*)::int AS orders, COALESCE(sum(amount), 0)::text AS revenue`,
    })),
    // The commission entries and the bonus entries as one stream joined once to the orders' facts (one hash of the
    // period's orders instead of two: the cost at a million orders).
    grouped(db, scope, () => ({
      from: `(SELECT e.order_id, e.created_at, e.amount::bigint AS amount, 1 AS kind FROM driver_ledger_entry e WHERE e.kind = 'COMMISSION'
              UNION ALL SELECT b.order_id, b.created_at, b.amount::bigint, 2 FROM client_bonus_entry b) x JOIN order_fact o ON o.order_id = x.order_id`,
      at: "x.created_at",
      amount: "x.amount",
      carry: ", x.kind",
      values: `count(*) FILTER (WHERE kind = 1)::int AS commissions, COALESCE(-sum(amount) FILTER (WHERE kind = 1), 0)::text AS commission,
               count(*) FILTER (WHERE kind = 2)::int AS bonuses,
               COALESCE(-sum(amount) FILTER (WHERE kind = 2 AND amount < 0), 0)::text AS spent, COALESCE(sum(amount) FILTER (WHERE kind = 2 AND amount > 0), 0)::text AS earned`,
    })),
  ]);
  // Duplicate-free join of the three sources per grouping key.
  const rows = new Map<string, MoneyRow & { earned: bigint }>();
  const row = (key: string) => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { orders: 0, revenue: 0n, commission: 0n, bonusesSpent: 0n, earned: 0n }));
    return r;
  };
  const keyOf = (g: Grouped) => {
    const kind = which(g);
    return kind === "total" ? "total" : `${kind}:${String(g[kind])}`;
  };
  for (const g of revenue) {
    const r = row(keyOf(g));
    r.orders = num(g.orders);
    r.revenue = kopecks(g.revenue);
  }
  for (const g of entries) {
    const r = row(keyOf(g));
    if (num(g.commissions) > 0) r.commission = kopecks(g.commission);
    // Bonuses are roubles: kopecks are a hundred times that.
    if (num(g.bonuses) > 0) {
      r.bonusesSpent = kopecks(g.spent) * 100n;
      r.earned = kopecks(g.earned) * 100n;
    }
  }
  const plain = ({ orders, revenue: rev, commission: com, bonusesSpent }: MoneyRow): MoneyRow => ({ orders, revenue: rev, commission: com, bonusesSpent });
  const total = row("total");

  // The exchange: our side of the trades of the orders in the filters — the
  // entries of the seller for an order we sold, of the executor for one we
  // bought — found through the order's link (its exchange id, and the id it
  // was sold or taken under, so that another exchange's ids never match).
  const esql = new Sql();
  const [exchange] = await sqlQuery<Record<string, unknown>>(
    db,
    `SELECT COALESCE(sum(e.amount) FILTER (WHERE e.kind = 'SALE'), 0)::text AS sales,
            COALESCE(-sum(e.amount) FILTER (WHERE e.kind = 'PURCHASE'), 0)::text AS purchases,
            COALESCE(-sum(e.amount) FILTER (WHERE e.kind = 'COMMISSION'), 0)::text AS commission
       FROM exchange_ledger_entry e
       JOIN exchange_order eo ON eo.id = e.exchange_order_id
       JOIN exchange_link l ON l.exchange_order_id = eo.id::text
            AND ((l.role = 'SOLD' AND l.source_id = eo.source_order_id AND e.participant_id = eo.seller_id)
              OR (l.role = 'BOUGHT' AND eo.executor_order_id = l.order_id::text AND e.participant_id = eo.executor_id))
       JOIN order_fact o ON o.order_id = l.order_id
      WHERE e.created_at >= ${esql.instant(scope.period.from)} AND e.created_at < ${esql.instant(scope.period.to)} AND ${orderFilters(esql, scope.query)}`,
    esql.params,
  );

  // Orders without a driver (none completes without one) have no row of their own.
  const serviceIds = [...rows.keys()].filter((k) => k.startsWith("service_id:")).map((k) => Number(k.slice(11))).filter(Number.isInteger);
  const driverIds = [...rows.keys()].filter((k) => k.startsWith("driver_id:")).map((k) => Number(k.slice(10))).filter(Number.isInteger);
  const [services, drivers] = await Promise.all([
    db.service.findMany({ where: { id: { in: serviceIds } }, select: { id: true, name: true, nameEn: true } }),
    db.driver.findMany({ where: { id: { in: driverIds } }, select: { id: true, callSign: true } }),
  ]);
  const serviceName = new Map(services.map((s) => [s.id, s]));
  const callSign = new Map(drivers.map((d) => [d.id, d.callSign]));
  return {
    totals: { ...plain(total), bonusesEarned: total.earned, driverEarnings: total.revenue - total.commission },
    exchange: { sales: kopecks(exchange?.sales), purchases: kopecks(exchange?.purchases), commission: kopecks(exchange?.commission) },
    byDay: scope.period.days.map((day) => ({ day, ...plain(rows.get(`day:${day}`) ?? { orders: 0, revenue: 0n, commission: 0n, bonusesSpent: 0n }) })),
    byService: serviceIds.sort((a, b) => a - b).map((id) => ({ serviceId: id, service: serviceName.get(id)?.name ?? String(id), serviceEn: serviceName.get(id)?.nameEn ?? String(id), ...plain(rows.get(`service_id:${id}`)!) })),
    byDriver: driverIds.sort((a, b) => a - b).map((id) => ({ driverId: id, callSign: callSign.get(id) ?? String(id), ...plain(rows.get(`driver_id:${id}`)!) })),
  };
}
