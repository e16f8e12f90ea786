// `npm run simulate -- [options]`: plays drivers and passengers against a
// running dispatch server through its public interfaces (docs/driver-app.md).
// Without --minutes it runs until Ctrl-C; with --minutes it runs that long,
// drains (no new orders; the drivers finish theirs), checks every order and
// prints the summary: the benchmarks' load generator. Exit code 1 when an
// order was lost or is stuck.
//
//   --url URL               the server (default http://127.0.0.1:$PORT)
//   --api-key KEY           a dispatch API key for the passengers (env SIMULATE_API_KEY;
//                           default: the key the server's own simulator uses, present once
//                           the server has run with SIMULATE on)
//   --provisioning-key KEY  the driver app provisioning key (env DRIVER_APP_PROVISIONING_KEY;
//                           default: derived from APP_SECRET or DATA_DIR/app-secret)
//   --drivers N  --rate ORDERS_PER_MINUTE  --speedup X  --seed S  --city-km KM  --city ID
//                           (defaults: SIMULATE_DRIVERS, SIMULATE_ORDERS_PER_MINUTE, ...)
//   --minutes M             simulated minutes to run, then drain and report
//   --drain-minutes M       longest drain (default 180; 0: no drain)
//   --report-every M        a report line every M simulated minutes (default 1)
//   --json                  print the summary and the per-minute counts as JSON
//   --verbose               log every shift change and every failed call
//
//   --compare [--short] [--seed S] [--seeds N] [--out DIR]
//                           no server: plays the same seeded days under each dispatch policy (the
//                           fair baselines pull, fcfs-nearest, nearest-pair and queue; the product's
//                           strategies and the production default) over a sweep of loads and fleet
//                           sizes, N seeds from S (default 20 from 1), in process on a simulated
//                           clock on the demo city's roads with the server's own dispatch core;
//                           writes DIR/dispatch-compare.{json,md,svg} (default docs/dispatch, and then
//                           the summary table into docs/dispatch.md between its markers).
//                           --short: 3 seeds of one simulated hour (CI); without --out it writes
//                           to the system's temporary folder, never over the full run's report. Exit code 1 when the
//                           production default is significantly behind the best fair baseline
//                           (the paired 95 % interval of the difference lies above 0) at any load.
//   --compare --rating [--seed S] [--seeds N] [--minutes M]
//                           the passengers' ratings as a weight of the candidate cost: the production default
//                           against the same with each rating weight at every load, N seeds (default 20),
//                           M simulated minutes (default 150); writes docs/dispatch/dispatch-rating.{json,md}
//                           and its table into docs/dispatch.md between its markers.
//   --compare --live [--load L] [--scale F] [--seed S] [--seeds N] [--speedup X] [--minutes M] [--silent K]
//                    [--look T] [--parallel P] [--out DIR]
//                           the live arm: for each of N seeds from S (default 3 from 1) the model's day at
//                           load L (default "normal"; a name of the comparison's sweep) with its drivers and
//                           orders per minute scaled by F (default 1; the same city) under the production
//                           default, and the same day played over HTTP against a started server of its own
//                           (the production build, the demo city, PGlite; TEST_DB=postgres: PostgreSQL at
//                           127.0.0.1:5432) at X times real time (default 2; the server's time settings
//                           scaled, the model run on the same), M simulated minutes of orders (default 60),
//                           K silent drivers (default 4), the radio looked at every T simulated seconds in
//                           both arms (default 8), P seeds at once (default 1); writes the load's section of
//                           DIR/dispatch-live.{json,md} (default docs/dispatch, and the table into
//                           docs/dispatch.md between its markers); a seed whose lag breaks the validity
//                           criterion is reported and left out of the figures. Exit code 1 when a silent
//                           driver was offered.
//   --compare --live --from FILE[,FILE]
//                           merges the loads of reports written with --out (runs made at once) into
//                           docs/dispatch/dispatch-live.{json,md} and the table of docs/dispatch.md.
//   --compare --live --remodel [--out DIR]
//                           the kept live runs (DIR/dispatch-live.json, default docs/dispatch) with each
//                           seed's model side computed again by today's model from the seed and the run's
//                           settings, the live side as it was run (no server, seconds): rewrites the report,
//                           and without --out the table of docs/dispatch.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { config } from "../server/config";
import { provisioningKeyFor } from "../server/driver-app/keys";
import { simulatorApiKeyFor } from "../server/simulator/in-process";
import { Engine, type SimulationOptions } from "../server/simulator/engine";
import { compareRatingWeight, compareStrategies, ratingTable } from "../server/simulator/compare/run";
import { candidatesTable, markdown, summaryTable, svgChart } from "../server/simulator/compare/report";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    "api-key": { type: "string" },
    "provisioning-key": { type: "string" },
    drivers: { type: "string" },
    rate: { type: "string" },
    speedup: { type: "string" },
    seed: { type: "string" },
    "city-km": { type: "string" },
    city: { type: "string" },
    minutes: { type: "string" },
    "drain-minutes": { type: "string" },
    "report-every": { type: "string" },
    json: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    compare: { type: "boolean", default: false },
    short: { type: "boolean", default: false },
    live: { type: "boolean", default: false },
    rating: { type: "boolean", default: false },
    remodel: { type: "boolean", default: false },
    silent: { type: "string" },
    load: { type: "string" },
    scale: { type: "string" },
    look: { type: "string" },
    from: { type: "string" },
    parallel: { type: "string" },
    seeds: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});

function usage(): never {
  const text = readFileSync(new URL(import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("//"))
    .map((line) => line.slice(3))
    .join("\n");
  console.log(text);
  process.exit(0);
}

function num(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${name}: expected a number, got ${value}`);
    process.exit(2);
  }
  return n;
}

/** The installation's APP_SECRET: the environment, or the file the server generated into DATA_DIR. */
function appSecret(): string | undefined {
  const cfg = config();
  if (cfg.APP_SECRET) return cfg.APP_SECRET;
  const file = path.resolve(cfg.DATA_DIR, "app-secret");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

const DOC = "docs/dispatch.md";
const BEGIN = "<!-- dispatch-compare:begin (generated by npm run simulate -- --compare; do not edit) -->";
const END = "<!-- dispatch-compare:end -->";

/** The summary table into docs/dispatch.md between its markers: the doc's figures come from the report, never by hand. */
function writeDocTable(table: string, begin = BEGIN, end = END): void {
  const doc = readFileSync(DOC, "utf8");
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) {
    console.error(`${DOC}: the markers of the generated table are missing`);
    process.exit(2);
  }
  writeFileSync(DOC, doc.slice(0, a + begin.length) + "\n\n" + table + "\n" + doc.slice(b));
}

function compareRating(): never {
  const first = num("seed", values.seed, 1);
  const count = Math.max(1, Math.round(num("seeds", values.seeds, 20)));
  const report = compareRatingWeight({
    seeds: Array.from({ length: count }, (_, i) => first + i),
    minutes: Math.max(1, num("minutes", values.minutes, 150)),
    progress: (line) => console.error(line),
  });
  const dir = path.resolve(values.out ?? "docs/dispatch");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "dispatch-rating.json"), JSON.stringify(report, null, 2) + "\n");
  const table = ratingTable(report);
  writeFileSync(path.join(dir, "dispatch-rating.md"), `# Dispatch: the rating weight measured\n\nGenerated by \`npm run simulate -- --compare --rating\`; see [../dispatch.md](../dispatch.md). Do not edit.\n\n${table}`);
  if (values.out === undefined) writeDocTable(table, "<!-- dispatch-rating:begin (generated by npm run simulate -- --compare --rating; do not edit) -->", "<!-- dispatch-rating:end -->");
  console.log(table);
  process.exit(0);
}

function compare(): never {
  const first = num("seed", values.seed, 1);
  const count = Math.max(1, Math.round(num("seeds", values.seeds, values.short ? 3 : 20)));
  const seeds = Array.from({ length: count }, (_, i) => first + i);
  const report = compareStrategies({ seeds, short: values.short, progress: (line) => console.error(line) });
  // A short run is a check, not a report: it never overwrites the full run's files in docs/.
  const dir = path.resolve(values.out ?? (values.short ? path.join(tmpdir(), "dispatch-compare-short") : "docs/dispatch"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "dispatch-compare.json"), JSON.stringify(report, null, 2) + "\n");
  writeFileSync(path.join(dir, "dispatch-compare.md"), markdown(report));
  writeFileSync(path.join(dir, "dispatch-compare.svg"), svgChart(report));
  if (values.out === undefined && !values.short) {
    writeDocTable(summaryTable(report));
    writeDocTable(candidatesTable(report), "<!-- dispatch-candidates:begin (generated by npm run simulate -- --compare; do not edit) -->", "<!-- dispatch-candidates:end -->");
  }
  console.log(summaryTable(report));
  console.log(`written to ${path.relative(process.cwd(), dir) || "."}/dispatch-compare.{json,md,svg}`);
  if (!report.goal.met) console.error(`the production default is significantly behind the best fair baseline at: ${report.goal.behindAt.join(", ")}`);
  process.exit(report.goal.met ? 0 : 1);
}

async function compareLive(): Promise<never> {
  const { liveArm, liveTable, readLiveReports, remodelLiveReports, writeLiveReport, writeLiveReports } = await import("./simulate-live");
  if (values.remodel) {
    // The kept live runs' model side computed again with today's model (the live side as it was run).
    const kept = readLiveReports(values.out);
    if (!kept) {
      console.error(`no live report in ${values.out ?? "docs/dispatch"}/dispatch-live.json`);
      process.exit(2);
    }
    const f = remodelLiveReports(kept);
    writeLiveReports(f, values.out);
    console.log(liveTable(f));
    process.exit(0);
  }
  if (values.from) {
    // The loads of runs written elsewhere (--out, e.g. two loads run at once) merged into the report and the doc.
    let file: ReturnType<typeof writeLiveReport> | undefined;
    for (const one of values.from.split(",")) {
      const read = JSON.parse(readFileSync(one, "utf8")) as Parameters<typeof liveTable>[0];
      for (const section of read.loads) file = writeLiveReport(section, values.out);
    }
    if (file) console.log(liveTable(file));
    process.exit(0);
  }
  const { LOADS } = await import("../server/simulator/compare/run");
  const first = num("seed", values.seed, 1);
  const count = Math.max(1, Math.round(num("seeds", values.seeds, 3)));
  const load = LOADS.find((l) => l.load === (values.load ?? "normal"));
  if (!load) {
    console.error(`--load: one of ${LOADS.map((l) => `"${l.load}"`).join(", ")}`);
    process.exit(2);
  }
  // Fewer drivers and orders in the same proportion, in the same city: light enough for a shared machine.
  const scale = Math.min(1, Math.max(0.05, num("scale", values.scale, 1)));
  const report = await liveArm({
    seeds: Array.from({ length: count }, (_, i) => first + i),
    speedUp: Math.max(1, num("speedup", values.speedup, 2)),
    minutes: Math.max(1, num("minutes", values.minutes, 60)),
    load: load.load,
    scale,
    drivers: Math.max(1, Math.round(load.drivers * scale)),
    perMinute: load.perMinute * scale,
    silent: Math.round(num("silent", values.silent, 4)),
    lookSeconds: Math.max(1, num("look", values.look, 8)),
    db: process.env.TEST_DB === "postgres" ? "postgres" : "pglite",
    parallel: Math.max(1, Math.round(num("parallel", values.parallel, 1))),
    out: values.out,
    log: (line) => console.error(line),
  });
  const file = writeLiveReport(report, values.out);
  console.log(liveTable(file));
  if (report.offersToSilent > 0) console.error(`${report.offersToSilent} offers went to silent drivers`);
  process.exit(report.offersToSilent > 0 ? 1 : 0);
}

async function main(): Promise<void> {
  if (values.help) usage();
  if (values.compare && values.live) await compareLive();
  if (values.compare && values.rating) compareRating();
  if (values.compare) compare();
  const cfg = config();
  const secret = appSecret();
  const apiKey = values["api-key"] ?? process.env.SIMULATE_API_KEY ?? (secret ? simulatorApiKeyFor(secret) : undefined);
  const provisioningKey = values["provisioning-key"] ?? process.env.DRIVER_APP_PROVISIONING_KEY ?? (secret ? provisioningKeyFor(secret) : undefined);
  if (!apiKey || !provisioningKey) {
    console.error("No keys: pass --api-key and --provisioning-key, or set APP_SECRET (or DATA_DIR) to the server's.");
    process.exit(2);
  }
  const baseUrl = (values.url ?? `http://127.0.0.1:${cfg.PORT}`).replace(/\/+$/, "");
  const minutes = values.minutes === undefined ? undefined : num("minutes", values.minutes, 0);
  const options: SimulationOptions = {
    baseUrl,
    apiKey,
    provisioningKey,
    drivers: num("drivers", values.drivers, cfg.SIMULATE_DRIVERS),
    ordersPerMinute: num("rate", values.rate, cfg.SIMULATE_ORDERS_PER_MINUTE),
    speedUp: Math.max(0.1, num("speedup", values.speedup, cfg.SIMULATE_SPEEDUP)),
    seed: num("seed", values.seed, cfg.SIMULATE_SEED),
    cityKm: Math.max(0.5, num("city-km", values["city-km"], cfg.SIMULATE_CITY_KM)),
    cityId: values.city === undefined ? undefined : num("city", values.city, 1),
    reportEveryMinutes: num("report-every", values["report-every"], 1),
    verbose: values.verbose,
    log: (line) => console.log(line),
  };

  const engine = new Engine(options);
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.log("\nstopping (Ctrl-C again to quit at once)...");
    engine.stop();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    await engine.setup();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`Cannot start: ${message}`);
    if (/BAD_API_KEY|MISSING_API_KEY/.test(message)) {
      console.error("The dispatch API refused the key: pass --api-key (npm start prints one; the console issues more under Settings > API keys).");
    }
    if (/UNAUTHORIZED/.test(message)) console.error("The driver app refused the provisioning key: run with the server's APP_SECRET (or its DATA_DIR).");
    process.exit(2);
  }
  await engine.run(minutes);
  if (minutes !== undefined && !interrupted) {
    const drain = num("drain-minutes", values["drain-minutes"], 180);
    if (drain > 0) {
      console.log(`no new orders; the drivers finish theirs (at most ${drain} simulated minutes)...`);
      await engine.drain(drain);
    }
  }
  const check = await engine.finalCheck();
  const summary = { ...engine.summary(), stuck: minutes !== undefined && !interrupted ? check.stuck.length : engine.summary().stuck };
  if (values.json) {
    console.log(JSON.stringify({ summary, minutes: engine.stats.minutes, stuck: check.stuck }, null, 2));
  } else {
    const t = summary.totals;
    console.log(
      [
        "",
        `simulated ${summary.simulatedMinutes} min (${summary.loadMinutes} of them ordering) in ${summary.wallSeconds} s (lag ${summary.lagSeconds} s)`,
        `orders: ${t.created} created, ${t.assigned} assignments, ${t.completed} completed, ${t.cancelled} cancelled, ${t.noShow} no-shows, ${t.rejected} refused by drivers`,
        `per minute: ${summary.perMinute.created} created, ${summary.perMinute.assigned} assigned, ${summary.perMinute.completed} completed, ${summary.perMinute.cancelled} cancelled`,
        `other orders completed by the simulated drivers: ${t.foreignCompleted}`,
        `failed calls: ${t.failedCalls}${t.failedCalls ? ` ${JSON.stringify(summary.errors)}` : ""}`,
        `open ${summary.open}, lost ${summary.lost}, stuck ${summary.stuck}${check.stuck.length && summary.stuck ? `: ${check.stuck.slice(0, 10).join(", ")}` : ""}`,
      ].join("\n"),
    );
  }
  process.exit(summary.lost > 0 || summary.stuck > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
