// The reports' benchmark (docs/reports.md, "Speed"): a month of a city's
// orders generated in PostgreSQL by set-based SQL (generate_series, never row
// by row) with their history, offers, commission entries, ratings and the
// drivers' shifts, then each report of that month run through the same
// service the console and the exports call (server/reports/run.ts), timed.
// No HTTP server: the figure is the report's own work on the database.
//   full mode: 1,000,000 orders; short mode: 30,000 (seconds, for CI).
import { performance } from "node:perf_hooks";
import { seedDemoCity } from "../../server/seed/demo";
import { SESSION_OPTIONS } from "../../server/db";
import { runReport } from "../../server/reports/run";
import { REPORT_KINDS, type ReportKind } from "../../server/reports/query";
import { prepareDatabase } from "../../tests/support/exchange/db";
import type { PrismaClient } from "../../server/generated/prisma/client";
import type { Sample } from "./report";

export interface ReportsTarget {
  name: ReportKind;
  /** The first run (cold caches), then the median and the slowest of the warm runs, ms. */
  firstMs: number;
  latencyMs: Sample;
}

export interface ReportsResult {
  orders: number;
  /** Rows generated besides the orders. */
  rows: { history: number; offers: number; commission: number; ratings: number; shifts: number };
  generateSeconds: number;
  month: string;
  targets: ReportsTarget[];
  /** What the order_fact triggers add to writing orders: the same batch of orders with their history and offers, with and without them. */
  triggerCost: { orders: number; rows: number; withMs: number; withoutMs: number };
}

/** The goal of issue 29: a month of a city with a million orders within 2 s on PostgreSQL. */
export const REPORTS_GOAL_MS = 2_000;
export const REPORTS_FULL_ORDERS = 1_000_000;

const MONTH = "2026-10";

/** The order_fact triggers (migration order_facts), switched off while the history is generated set-based and filled by the migration's own backfill after. */
const FACT_TRIGGERS: Array<[table: string, trigger: string]> = [
  ["orders", "order_fact_insert"],
  ["orders", "order_fact_update"],
  ["order_status_change", "order_fact_insert"],
  ["order_status_change", "order_fact_change"],
  ["dispatch_offer", "order_fact_insert"],
  ["dispatch_offer", "order_fact_change"],
  ["exchange_link", "order_fact_link"],
];

async function factTriggers(db: Pick<PrismaClient, "$executeRawUnsafe">, on: boolean): Promise<void> {
  for (const [table, trigger] of FACT_TRIGGERS) await db.$executeRawUnsafe(`ALTER TABLE "${table}" ${on ? "ENABLE" : "DISABLE"} TRIGGER "${trigger}"`);
}

/** The migration's backfill of order_fact (prisma/migrations/*_order_facts), for the orders generated without the triggers (the demo city's own have theirs). */
const FACTS_BACKFILL = `INSERT INTO order_fact (order_id, city_id, service_id, region_id, driver_id, api_key_id, source, created_at, preorder, state, status_code, amount,
                        offered_at, accepted_at, at_pickup_at, completed_at, offers, first_source, first_offer_at, first_offer_id,
                        last_change_id, last_actor, last_reason, bought, sold)
SELECT order_id, city_id, service_id, region_id, driver_id, api_key_id, source, created_at, preorder, state, status_code, amount,
       offered_at, accepted_at, at_pickup_at, completed_at, offers, first_source, first_offer_at, first_offer_id,
       last_change_id, last_actor, last_reason, bought, sold
  FROM order_fact_source s
 WHERE NOT EXISTS (SELECT 1 FROM order_fact x WHERE x.order_id = s.order_id)`;

type Step = (what: string, sql: string, ...params: unknown[]) => Promise<number>;

/** `n` orders of city 1 from `from` over `span` seconds, marked by their street, with their history and offers. */
async function makeOrders(step: Step, street: string, n: number, from: string, span: number): Promise<{ history: number; offers: number }> {
  // Of every 100 orders: 80 completed, 8 taken then cancelled by the client, 7 cancelled before any driver, 5 lost (no cars).
  await step(
    "orders",
    `INSERT INTO orders (uuid, city_id, service_id, region_id, driver_id, source, state, status_code, phone, street, house, lat, lon, amount, need_notify, created_at, updated_at)
     SELECT gen_random_uuid(), 1, s.ids[1 + i % array_length(s.ids, 1)], r.ids[1 + (i / 7) % array_length(r.ids, 1)],
            CASE WHEN i % 100 < 88 THEN d.ids[1 + (i * 7) % array_length(d.ids, 1)] END,
            (CASE WHEN i % 10 < 6 THEN 'API' WHEN i % 10 < 9 THEN 'CONSOLE' ELSE 'EXCHANGE' END)::"OrderSource",
            CASE WHEN i % 100 < 80 THEN 'DONE_SUCCESSFUL' WHEN i % 100 < 95 THEN 'DONE_CANCELLED' ELSE 'DONE_NO_CARS' END,
            CASE WHEN i % 100 < 80 THEN 100 WHEN i % 100 < 95 THEN 95 ELSE 93 END,
            '+7916' || lpad((i % 9000000)::text, 7, '0'), $4, (i % 200)::text, 55.75 + (i % 100) / 1000.0, 37.62 + (i % 77) / 1000.0,
            15000 + (i * 37) % 60000, false, t, t
       FROM generate_series(1, $1::int) i
            CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM service WHERE city_id = 1) s
            CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM region WHERE city_id = 1) r
            CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM driver WHERE city_id = 1) d
            CROSS JOIN LATERAL (SELECT $2::timestamp + make_interval(secs => (i::float8 * $3::int) / $1::int) AS t) x`,
    n,
    from,
    span,
    street,
  );
  // The history: w1 seconds to the first offer (5..119), the driver accepts 5 s later, w2 to the pickup (120..719).
  const history = await step(
    "order_status_change",
    `INSERT INTO order_status_change (order_id, from_state, to_state, to_code, actor_type, reason, at)
     SELECT o.id, v.from_state, v.to_state, v.to_code, v.actor::"ActorType", v.reason, o.created_at + make_interval(secs => v.offset_s)
       FROM orders o
            CROSS JOIN LATERAL (SELECT 5 + (o.id * 37) % 115 AS w1, 120 + (o.id * 13) % 600 AS w2) w
            CROSS JOIN LATERAL (VALUES
              (1, NULL, 'FREE', 9, 'API_KEY', '', 0, TRUE),
              (2, 'FREE', 'SENT_TO_DRIVER', 1, 'SYSTEM', '', w.w1, o.driver_id IS NOT NULL),
              (3, 'SENT_TO_DRIVER', 'CONFIRMED', 2, 'DRIVER', '', w.w1 + 5, o.driver_id IS NOT NULL),
              (4, 'CONFIRMED', 'AWAITING_CLIENT', 3, 'DRIVER', '', w.w1 + 5 + w.w2, o.state = 'DONE_SUCCESSFUL'),
              (5, 'AWAITING_CLIENT', 'IN_PROCESS', 4, 'DRIVER', '', w.w1 + 65 + w.w2, o.state = 'DONE_SUCCESSFUL'),
              (6, 'IN_PROCESS', 'DONE_SUCCESSFUL', 100, 'DRIVER', '', w.w1 + 1265 + w.w2, o.state = 'DONE_SUCCESSFUL'),
              (6, 'CONFIRMED', 'DONE_CANCELLED', 95, 'API_KEY', 'client changed plans', w.w1 + 95, o.state = 'DONE_CANCELLED' AND o.driver_id IS NOT NULL),
              (6, 'FREE', 'DONE_CANCELLED', 95, 'API_KEY', 'client changed plans', 300, o.state = 'DONE_CANCELLED' AND o.driver_id IS NULL),
              (6, 'FREE', 'DONE_NO_CARS', 93, 'SYSTEM', 'no cars', 600, o.state = 'DONE_NO_CARS')
            ) v(step, from_state, to_state, to_code, actor, reason, offset_s, applies)
      WHERE o.street = $1 AND v.applies
      ORDER BY o.id, v.step`,
    street,
  );
  // Offers: the accepted one (AUTO or BATCH), and for every third taken order a refusal by another driver before it.
  const offers = await step(
    "dispatch_offer",
    `INSERT INTO dispatch_offer (order_id, driver_id, attempt, kind, state, source, sent_at, deadline, answered_at)
     SELECT o.id, CASE WHEN v.attempt = 1 AND o.id % 3 = 0 THEN d.ids[1 + (o.id * 11) % array_length(d.ids, 1)] ELSE o.driver_id END,
            v.attempt, 'LIVE', v.state::"DispatchOfferState", CASE WHEN o.id % 2 = 0 THEN 'AUTO' ELSE 'BATCH' END,
            o.created_at + make_interval(secs => v.at), o.created_at + make_interval(secs => v.at + 20), o.created_at + make_interval(secs => v.at + 4)
       FROM orders o
            CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM driver WHERE city_id = 1) d
            CROSS JOIN LATERAL (SELECT 5 + (o.id * 37) % 115 AS w1) w
            CROSS JOIN LATERAL (VALUES (1, 'REFUSED', greatest(w.w1 - 4, 0), o.id % 3 = 0), (2, 'ACCEPTED', w.w1, TRUE)) v(attempt, state, at, applies)
      WHERE o.street = $1 AND o.driver_id IS NOT NULL AND v.applies`,
    street,
  );
  return { history, offers };
}

/** Generates `n` orders of city 1 over the month (Moscow time, shift day from 08:00) with everything the reports read. */
async function generate(prisma: PrismaClient, n: number, log: (m: string) => void): Promise<ReportsResult["rows"]> {
  const step: Step = async (what, sql, ...params) => {
    const t0 = performance.now();
    const count = await prisma.$executeRawUnsafe(sql, ...params);
    log(`    ${what}: ${count.toLocaleString("en")} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return count;
  };
  // 2026-10-01 08:00 MSK = 05:00 UTC; the month holds 31 shift days.
  const from = "2026-10-01 05:00:00";
  const span = 31 * 86_400;
  await factTriggers(prisma, false);
  const { history, offers } = await makeOrders(step, "ул. Бенчмарка", n, from, span);
  await factTriggers(prisma, true);
  await step("order_fact (the migration's backfill)", FACTS_BACKFILL);
  // The commission of each completed trip (15 %), written when it completed.
  const commission = await step(
    "driver_ledger_entry",
    `INSERT INTO driver_ledger_entry (driver_id, kind, txn_id, amount, balance_after, actor_type, order_id, created_at)
     SELECT o.driver_id, 'COMMISSION', 'commission:order:' || o.id, -(o.amount * 15 / 100), 0, 'SYSTEM', o.id, c.at
       FROM orders o JOIN order_status_change c ON c.order_id = o.id AND c.to_state = 'DONE_SUCCESSFUL'
      WHERE o.street = 'ул. Бенчмарка'`,
  );
  const ratings = await step(
    "trip_rating",
    `INSERT INTO trip_rating (order_id, driver_id, stars, created_at)
     SELECT o.id, o.driver_id, 1 + (o.id * 7) % 5, c.at + interval '5 minutes'
       FROM orders o JOIN order_status_change c ON c.order_id = o.id AND c.to_state = 'DONE_SUCCESSFUL'
      WHERE o.street = 'ул. Бенчмарка' AND o.id % 10 < 3`,
  );
  // Every driver of the city: a ten-hour shift each day of the month (and the days around it).
  const shifts = await step(
    "shift",
    `INSERT INTO shift (driver_id, started_at, ended_at)
     SELECT d.id, day + make_interval(hours => d.id % 14), day + make_interval(hours => d.id % 14 + 10)
       FROM driver d CROSS JOIN generate_series($1::timestamp - interval '1 day', $1::timestamp + interval '31 days', interval '1 day') day
      WHERE d.city_id = 1`,
    from,
  );
  const t0 = performance.now();
  await prisma.$executeRawUnsafe("ANALYZE");
  log(`    ANALYZE in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { history, offers, commission, ratings, shifts };
}

/**
 * The triggers' cost: `k` more orders (another month, so no report sees them) with their history and offers written
 * set-based with the triggers and without, each in a transaction rolled back after. Per row, not per API call: the
 * whole cost the triggers can add to a move is here.
 */
async function measureTriggers(prisma: PrismaClient, k: number, log: (m: string) => void): Promise<ReportsResult["triggerCost"]> {
  const run = async (on: boolean) => {
    let ms = 0;
    let rows = 0;
    await prisma
      .$transaction(
        async (tx) => {
          if (!on) await factTriggers(tx, false);
          const t0 = performance.now();
          const step: Step = async (_what, sql, ...params) => tx.$executeRawUnsafe(sql, ...params);
          const made = await makeOrders(step, "ул. Замера", k, "2026-11-10 05:00:00", 86_400);
          ms = Math.round(performance.now() - t0);
          rows = k + made.history + made.offers;
          throw new Rollback();
        },
        { timeout: 900_000, maxWait: 60_000 },
      )
      .catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
    return { ms, rows };
  };
  const without = await run(false);
  const withT = await run(true);
  log(`  triggers: ${k.toLocaleString("en")} orders (${withT.rows.toLocaleString("en")} rows with history and offers) in ${withT.ms} ms with the order_fact triggers, ${without.ms} ms without`);
  return { orders: k, rows: withT.rows, withMs: withT.ms, withoutMs: without.ms };
}

class Rollback extends Error {}

function sample(values: number[]): Sample {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x);
  return { n: sorted.length, p50: round(sorted[Math.floor((sorted.length - 1) / 2)]!), p99: round(sorted.at(-1)!), max: round(sorted.at(-1)!) };
}

export async function benchReports(options: { short: boolean; log: (m: string) => void; orders?: number }): Promise<ReportsResult> {
  const { log } = options;
  const n = options.orders ?? (options.short ? 30_000 : REPORTS_FULL_ORDERS);
  log(`reports: a month of ${n.toLocaleString("en")} orders on PostgreSQL`);
  const t0 = performance.now();
  const made = await prepareDatabase("postgres", async (prisma) => {
    await seedDemoCity(prisma, { streets: 300 });
    return generate(prisma, n, log);
  });
  const generateSeconds = Math.round((performance.now() - t0) / 100) / 10;
  // The reports run on the application's session settings (JIT off: server/db.ts); the pool opened here is the
  // test support's, which sets none, and node-postgres takes a session's options from PGOPTIONS when none are given.
  process.env.PGOPTIONS ??= SESSION_OPTIONS;
  const { prisma, close } = await made.db.open();
  const targets: ReportsTarget[] = [];
  let triggerCost: ReportsResult["triggerCost"] = { orders: 0, rows: 0, withMs: 0, withoutMs: 0 };
  try {
    const query = { period: "month" as const, date: `${MONTH}-15`, cityId: 1 };
    const runs = options.short ? 3 : 5;
    for (const kind of REPORT_KINDS) {
      const times: number[] = [];
      let firstMs = 0;
      for (let i = 0; i <= runs; i++) {
        const started = performance.now();
        await runReport(prisma, kind, query, { roles: ["ADMIN"] });
        const ms = performance.now() - started;
        if (i === 0) firstMs = Math.round(ms);
        else times.push(ms);
      }
      const latencyMs = sample(times);
      targets.push({ name: kind, firstMs, latencyMs });
      log(`  ${kind}: first ${firstMs} ms, median ${latencyMs.p50} ms, slowest ${latencyMs.max} ms`);
    }
    triggerCost = await measureTriggers(prisma, options.short ? 3_000 : 20_000, log);
  } finally {
    await close();
    // BENCH_REPORTS_KEEP_DB=1 leaves the generated database for EXPLAIN ANALYZE by hand.
    if (process.env.BENCH_REPORTS_KEEP_DB === "1") log(`  kept: ${made.db.env.DATABASE_URL}`);
    else await made.db.drop();
  }
  return { orders: n, rows: made.result, generateSeconds, month: MONTH, targets, triggerCost };
}
