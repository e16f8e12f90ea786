// `tsx scripts/bench/fleet-round.ts [--drivers=10000] [--orders=300] [--rounds=3] [--label=x] [--explain] [--expire]`
// (docs/performance.md, "Round four"): dispatch rounds over the fleet's
// city, alone, in this process, their phases timed (the round's own report:
// the sweep, the reads, the candidate pool, the arrival times, the
// assignment, the offers) and the longest stretch the event loop was held
// without a turn. Between rounds every offer is taken back by SQL, so each
// round weighs the same free orders against the same free drivers. Writes
// bench-results/fleet-round-<time>.json; `--compare a.json b.json ...`
// prints those reports side by side as one Markdown table; `--groups a.json
// b.json ...` each label's mean and 95% CI over its runs.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { prepareDatabase } from "../../tests/support/exchange/db";
import { provisionFleet } from "./fleet-provision";
import { watchLoopStretch } from "./loop-stretch";
import { byLabelGroup, meanCi } from "./mean-ci";

interface RoundFigures {
  ms: number;
  phases: Record<string, number>;
  orders: number;
  drivers: number;
  pairs: number;
  offers: number;
  /** Offers the round's sweep closed as timed out (--expire; absent in older reports). */
  expired?: number;
  longestStallMs: number;
  delayP99Ms: number;
  /** Statements the round sent (taxi_db_statements_total; absent in reports made before it was counted). */
  statements?: number;
}
interface RoundRun {
  at: string;
  label: string;
  loadAverage: { before: number[]; after: number[] };
  rounds: RoundFigures[];
}

if (process.argv[2] === "--compare") {
  const runs = process.argv.slice(3).map((f) => JSON.parse(readFileSync(f, "utf8")) as RoundRun);
  const cell = (r: RoundRun, f: (x: RoundFigures) => number) => r.rounds.map(f).map((v) => Math.round(v)).join(" / ");
  const rows: Array<[string, (r: RoundRun) => string]> = [
    ["report", (r) => `fleet-round-${r.at.replace(/[:.]/g, "-")}`],
    ["load average before → after (1 min)", (r) => `${r.loadAverage.before[0]} → ${r.loadAverage.after[0]}`],
    ["the round (ms, each round)", (r) => cell(r, (x) => x.ms)],
    ...["read", "pool", "arrival", "assign", "offers"].map((p): [string, (r: RoundRun) => string] => [`  its ${p} (ms)`, (r) => (r.rounds[0]?.phases[p] === undefined ? "—" : cell(r, (x) => x.phases[p]!))]),
    ["orders × drivers; pairs; offers (the last round)", (r) => { const x = r.rounds.at(-1)!; return `${x.orders} × ${x.drivers}; ${x.pairs}; ${x.offers}`; }],
    ["longest stretch without an event loop turn (ms)", (r) => cell(r, (x) => x.longestStallMs)],
  ];
  console.log(`| | ${runs.map((r) => r.label).join(" | ")} |`);
  console.log(`| --- | ${runs.map(() => "---").join(" | ")} |`);
  for (const [name, f] of rows) console.log(`| ${name} | ${runs.map(f).join(" | ")} |`);
  process.exit(0);
}

if (process.argv[2] === "--groups") {
  // `--groups a.json b.json ...`: the runs grouped by label, each figure the mean of a run's rounds after its
  // first (the first warms the pool and the plans), then the mean and 95% CI over the runs of a group.
  const runs = process.argv.slice(3).map((f) => JSON.parse(readFileSync(f, "utf8")) as RoundRun);
  const groups = byLabelGroup(runs.map((r) => ({ label: r.label, r })));
  const steady = (r: RoundRun, f: (x: RoundFigures) => number) => {
    const later = r.rounds.slice(1);
    return later.reduce((a, x) => a + f(x), 0) / later.length;
  };
  const rows: Array<[string, (x: RoundFigures) => number]> = [
    ["the round (ms)", (x) => x.ms],
    ["its read (ms)", (x) => x.phases.read ?? NaN],
    ["its candidate pool (ms)", (x) => x.phases.pool ?? NaN],
    ["its arrival times (ms)", (x) => x.phases.arrival ?? NaN],
    ["its assignment (ms)", (x) => x.phases.assign ?? NaN],
    ["the longest stretch without an event loop turn (ms)", (x) => x.longestStallMs],
    ["its offers (ms)", (x) => x.phases.offers ?? NaN],
    ["an offer, the offers' phase over the offers made (ms)", (x) => (x.phases.offers ?? NaN) / Math.max(1, x.offers)],
    ["offers made", (x) => x.offers],
    ["statements the round sent, over the offers made", (x) => (x.statements ?? NaN) / Math.max(1, x.offers)],
    ...(runs.some((r) => r.rounds.some((x) => (x.expired ?? 0) > 0))
      ? ([
          ["its sweep (ms)", (x) => x.phases.sweep ?? NaN],
          ["offers its sweep closed as timed out", (x) => x.expired ?? NaN],
        ] as Array<[string, (x: RoundFigures) => number]>)
      : []),
  ];
  console.log(`| | ${[...groups.keys()].join(" | ")} |`);
  console.log(`| --- | ${[...groups.keys()].map(() => "---").join(" | ")} |`);
  for (const [name, f] of rows) console.log(`| ${name} | ${[...groups.values()].map((rs) => meanCi(rs.map((r) => steady(r, f)))).join(" | ")} |`);
  process.exit(0);
}

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const DRIVERS = arg("drivers", 10_000);
const ORDERS = arg("orders", 300);
const ROUNDS = arg("rounds", 3);
const LABEL = process.argv.find((a) => a.startsWith("--label="))?.slice(8) ?? "";
/** --expire: a round's offers are left to time out, and the next round's sweep closes them (the sweep phase measures that). */
const EXPIRE = process.argv.includes("--expire");
const loadBefore = os.loadavg().map((l) => Number(l.toFixed(2)));
const figures: RoundFigures[] = [];

const made = await prepareDatabase("postgres", (prisma) => provisionFleet(prisma, { drivers: DRIVERS, freeOrders: ORDERS, token: randomBytes(6).toString("hex") }));
// The server's modules read their configuration on first use: this process becomes an instance on the fleet's database.
Object.assign(process.env, made.db.env, { APP_SECRET: "bench-secret-bench-secret-bench-secret-01", LOG_LEVEL: process.env.LOG_LEVEL ?? "error", SIMULATE: "0" });
// The seed read the configuration already (without DATABASE_URL): read again (server/config.ts caches it on globalThis).
delete (globalThis as Record<symbol, unknown>)[Symbol.for("taxi.config")];
await import("../../server/subscribers");
const { db, closeDb } = await import("../../server/db");
const { sqlQuery } = await import("../../server/db/sql");
const { dispatchRound, newRoundState, ROUND_PHASES } = await import("../../server/dispatch/round");
const { cityRoads } = await import("../../server/routing/graph-cache");
const { metrics } = await import("../../server/metrics/registry");
const statementsSoFar = async () => (await metrics().dbStatements.get()).values.reduce((a, v) => a + v.value, 0);

// The pool's and the listener's sockets do not hold the process open (server/db/pool.ts): this does, until the end.
const alive = setInterval(() => undefined, 1_000);
try {
  // The road graph loaded once, as a running instance has it.
  await cityRoads(db(), made.result.cityId);
  if (process.argv.includes("--explain")) {
    // The free drivers' read as PostgreSQL runs it (the first phase of every round).
    const { freeDriversSql } = await import("../../server/dispatch/data");
    for (let k = 0; k < 3; k++) {
      const plan = await sqlQuery<{ "QUERY PLAN": string }>(db(), `EXPLAIN (ANALYZE, BUFFERS) ${freeDriversSql()}`);
      console.log(k === 2 ? plan.map((r) => r["QUERY PLAN"]).join("\n") : plan.at(-1)!["QUERY PLAN"]);
    }
  }
  for (let k = 1; k <= ROUNDS; k++) {
    const stretch = watchLoopStretch();
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const statementsBefore = await statementsSoFar();
    const t0 = performance.now();
    const report = await dispatchRound(db(), newRoundState());
    const statements = (await statementsSoFar()) - statementsBefore;
    const seconds = (performance.now() - t0) / 1000;
    delay.disable();
    const longest = stretch.stop();
    // A build before the phases were timed (a baseline run) has none.
    const phases = (ROUND_PHASES ?? []).map((p) => `${p} ${(report.phases[p] * 1000).toFixed(0)}`).join(", ");
    figures.push({
      ms: seconds * 1000,
      phases: Object.fromEntries((ROUND_PHASES ?? []).map((p) => [p, report.phases[p] * 1000])),
      orders: report.orders,
      drivers: report.drivers,
      pairs: report.pairs,
      offers: report.offers,
      expired: report.expired,
      longestStallMs: longest,
      delayP99Ms: delay.percentile(99) / 1e6,
      statements,
    });
    console.log(
      `round ${k}: ${(seconds * 1000).toFixed(0)} ms (${phases} ms); ${report.orders} orders × ${report.drivers} drivers, ${report.pairs} pairs, ${report.offers} offers, ${report.expired} expired, ${statements} statements; ` +
        `event loop: longest stretch without a turn ${longest.toFixed(0)} ms, delay p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms`,
    );
    if (EXPIRE) {
      // Every offer past its deadline: the next round's sweep closes them all (its first phase), the orders free again.
      // The drivers' timeouts in a row are forgotten, so that none is set away and each round weighs the same fleet.
      await sqlQuery(db(), `UPDATE dispatch_offer SET deadline = now() - interval '1 second' WHERE state = 'LIVE'`);
      await sqlQuery(db(), `UPDATE driver SET missed_offers = 0, away_since = NULL, app_seen_at = now(), position_at = now() WHERE call_sign LIKE 'F%'`);
    } else {
      // Every offer taken back, the orders free again, the drivers free: the next round weighs the same.
      await sqlQuery(db(), `DELETE FROM dispatch_offer`);
      await sqlQuery(db(), `UPDATE orders SET state = 'FREE', status_code = 9, driver_id = NULL WHERE phone LIKE '+7917%'`);
      await sqlQuery(db(), `UPDATE driver SET state = 'FREE', app_seen_at = now(), position_at = now() WHERE call_sign LIKE 'F%'`);
    }
  }
  const run: RoundRun = { at: new Date().toISOString(), label: LABEL, loadAverage: { before: loadBefore, after: os.loadavg().map((l) => Number(l.toFixed(2))) }, rounds: figures };
  const dir = path.resolve(import.meta.dirname, "..", "..", "bench-results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `fleet-round-${run.at.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(run, null, 2));
  console.log(`written: ${path.relative(process.cwd(), file)} (load average ${run.loadAverage.before[0]} → ${run.loadAverage.after[0]})`);
} finally {
  clearInterval(alive);
  await closeDb();
  await made.db.drop();
}
