// `npm run bench -- --fleet` (docs/performance.md, "A fleet of ten thousand"):
// the driver fleet's own load on one instance with PostgreSQL. N drivers
// (10,000; --short: 1,000) are provisioned on shift in the demo city by
// set-based SQL, each with its own driver app key; a load generator in a
// process of its own (fleet-load.ts) plays their phones: every driver keeps
// its offer stream open and reports a position every 5 s on its own schedule,
// while orders arrive at a city's evening rate and the dispatch rounds run
// over 300 free orders (the drivers refuse what they are offered, so the
// orders stay free). Measured: the positions' latency from each report's due
// moment and their throughput, the server's memory per open stream, an
// offer's way from its creation to its driver's stream, the dispatch round's
// duration (the server's own metric), the resident memory over the run, the
// generator's own lag; and the same position write against the limit
// (limit-server.ts, POST /position: one UPDATE on node:http + pg) in the same
// run, at the same rate and at saturation.
//
// --two-instances: a second instance on the same database takes half the
// phones (driver i's stream and positions go to instance i % 2); the rounds,
// the orders and the consoles stay on the first, so an offer to a phone of
// the second reaches it through the event relay (server/events/pg-relay.ts).
// Both instances' CPU, PostgreSQL's and the machine's are read from /proc.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { prepareDatabase } from "../../tests/support/exchange/db";
import { scrapeMetrics, startBenchServer } from "./server";
import { provisionFleet } from "./fleet-provision";
import { latencies, type Latencies, type PacedResult } from "./fleet-stats";
import { consoleSessions, openConsoles, type ConsoleWatch } from "./fleet-consoles";
import { chart, heapFloorWhile, judge, type Minute } from "./soak";

const root = path.resolve(import.meta.dirname, "..", "..");

export interface FleetOptions {
  short: boolean;
  outDir: string;
  distDir: string;
  log: (m: string) => void;
  vm: (pid: number | undefined, field: "VmHWM" | "VmRSS") => number | undefined;
  /** A CPU profile of the server, written here when it stops (`--profile`; summarise with `tsx scripts/bench/profile.ts <file>`). */
  profileDir?: string;
  startLimit: (databaseUrl: string) => Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }>;
  /** `--soak=10m`: the positions' phase held this long, memory and p99 each minute (a chart beside the report). */
  soakSeconds?: number;
  /** `--split-rounds`: dispatch's rounds in a second instance on the same database (DISPATCH_ROUNDS), the phones on the first. */
  splitRounds?: boolean;
  /** `--two-instances`: half the phones (streams and positions) on a second instance on the same database; rounds, orders and consoles on the first. */
  twoInstances?: boolean;
  /** `--no-rounds`: no dispatch rounds anywhere (so no offers): the positions' and streams' own floor, to set beside a run with them. */
  noRounds?: boolean;
  /**
   * `--patience=5m`: a passenger whose order is still there this long after it was made cancels it
   * (POST /api/cancel_order), as passengers do; the provisioned free orders are given up one by one
   * over the first such period, as if made one a second before the run. With orders made at 1 a
   * second the city then keeps about as many free orders as the period has seconds, a steady load
   * for a soak; without it, in the benchmark's worst case (every offer refused) they pile up until
   * their attempts run out.
   */
  patienceSeconds?: number;
  /**
   * `--period=10s`: each driver's report this often instead of every 5 s (the same fleet and streams,
   * fewer reports a second): a soak at a rate the machine keeps up with tells a leak from a backlog.
   */
  periodSeconds?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The statements the instances have sent to the database so far, and of them the event relay's NOTIFYs (their counters, summed). */
async function statementsSent(metricsUrls: string[]): Promise<{ all: number; notifies: number }> {
  const sum = { all: 0, notifies: 0 };
  for (const url of metricsUrls) {
    const m = await scrapeMetrics(url);
    sum.all += m.get("taxi_db_statements_total") ?? NaN;
    sum.notifies += m.get("taxi_event_relay_notifies_total") ?? 0;
  }
  return sum;
}

/** CPU seconds a process has used (user + system, /proc/<pid>/stat): a figure the machine's other load does not inflate as much as latency. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds of every PostgreSQL process on the machine (user + system, with the reaped backends' in the postmaster's children fields): the database this benchmark uses, and any other session's. */
function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "postgres") continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100;
}

/** The machine's busy CPU seconds so far, over all cores (/proc/stat: all but idle and iowait). */
function machineBusySeconds(): number {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return (f.reduce((a, b) => a + b, 0) - f[3]! - f[4]!) / 100;
}

/** CPU seconds over a phase: each application instance's, the generator's, all of PostgreSQL's, and the machine's busy seconds, beside the phase's wall seconds. */
export interface PhaseCpu {
  wallSeconds: number;
  instances: number[];
  generator: number;
  postgres: number;
  machineBusy: number;
  cores: number;
}

function cpuPhase(instancePids: Array<number | undefined>, generatorPid: number | undefined): () => PhaseCpu {
  const t0 = performance.now();
  const i0 = instancePids.map(cpuSeconds);
  const g0 = cpuSeconds(generatorPid);
  const p0 = postgresCpuSeconds();
  const m0 = machineBusySeconds();
  const r = (x: number) => Math.round(x * 10) / 10;
  return () => ({
    wallSeconds: r((performance.now() - t0) / 1000),
    instances: instancePids.map((pid, k) => r(cpuSeconds(pid) - i0[k]!)),
    generator: r(cpuSeconds(generatorPid) - g0),
    postgres: r(postgresCpuSeconds() - p0),
    machineBusy: r(machineBusySeconds() - m0),
    cores: os.cpus().length,
  });
}

/** The generator in its own process, driven by one command a line (fleet-load.ts). */
function startGenerator(file: string, needFiles: number, log: (m: string) => void) {
  // Every open stream is a socket in the generator and in the server: check the descriptor limit, raise the soft one to what is needed.
  const soft = Number(spawnSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).stdout.trim());
  const hard = spawnSync("sh", ["-c", "ulimit -Hn"], { encoding: "utf8" }).stdout.trim();
  const hardN = hard === "unlimited" ? Infinity : Number(hard);
  if (hardN < needFiles) throw new Error(`ulimit -Hn is ${hard}: the fleet needs ${needFiles} open files per process (raise the hard limit)`);
  log(`  open files: soft ${soft}, hard ${hard}; needed ${needFiles}`);
  const child = spawn("sh", ["-c", `ulimit -n ${Math.max(soft, needFiles)} && exec "$0" --import tsx "$1" "$2"`, process.execPath, path.join(root, "scripts/bench/fleet-load.ts"), file], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const waiting: Array<(v: unknown) => void> = [];
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (line.startsWith("FLEET_REPLY ")) waiting.shift()?.(JSON.parse(line.slice(12)));
  });
  child.on("exit", (code) => {
    for (const w of waiting.splice(0)) w({ error: `generator exited (${code}): ${err.slice(-2000)}` });
  });
  return {
    child,
    ask<T>(command: Record<string, unknown>): Promise<T> {
      return new Promise((resolve, reject) => {
        waiting.push((v) => ((v as { error?: string }).error ? reject(new Error((v as { error: string }).error)) : resolve(v as T)));
        child.stdin.write(`${JSON.stringify(command)}\n`);
      });
    },
  };
}

interface Sampled {
  at: number;
  rssMb: number | undefined;
  /** The second instance's (--two-instances). */
  secondRssMb?: number | undefined;
  heapUsedMb: number;
  roundSeconds: number;
  roundOrders: number;
  roundDrivers: number;
  roundPairs: number;
  roundPlanSeconds: number;
  roundOffers: number;
  /** The last round's phases (seconds; NaN from a build that does not time them). */
  roundPhases: Record<string, number>;
}

/**
 * The bench's phases an offer can be made in, in their order: before the phones open their streams (the fleet on
 * shift, the rounds already running: such an offer reaches its phone when the stream opens), the streams opening,
 * the positions, the moments
 * between (the position phase's end to the consoles' start), the consoles, the limit's run beside the instance,
 * and the saturation up to the streams' close.
 */
export const OFFER_PHASES = ["before", "streams", "positions", "between", "consoles", "limit", "saturation"] as const;
export type OfferPhase = (typeof OFFER_PHASES)[number];

/** Offers by the phase they were made in, one line: "streams 120 (p50 …, p99 … ms); positions …". */
export function offersByPhase(byPhase: Record<OfferPhase, Latencies>): string {
  return OFFER_PHASES.map((phase) => `${phase} ${byPhase[phase].n} (p50 ${byPhase[phase].p50}, p99 ${byPhase[phase].p99} ms)`).join("; ");
}

/** The round's phases as the server's metrics name them (server/dispatch/round.ts, ROUND_PHASES). */
const PHASES = ["sweep", "read", "pool", "arrival", "assign", "offers"] as const;

export interface FleetResult {
  at: string;
  mode: "short" | "full";
  /** Dispatch's rounds in an instance of their own (the phones' instance runs none). */
  splitRounds: boolean;
  /** Half the phones on a second instance (--two-instances); absent in reports from before the option. */
  twoInstances?: boolean;
  /** No dispatch rounds at all (--no-rounds); absent in reports from before the option. */
  noRounds?: boolean;
  /** --two-instances: the second instance's streams and memory (the first's are in streams and memory). */
  second?: { streams: { opened: number; rssBeforeMb: number; rssAfterMb: number; kbPerStream: number }; peakMb: number | undefined };
  /** CPU over the positions' phase and over the consoles' phase: instances in order (the phones' first; the second or the rounds' instance next), the generator, PostgreSQL, the machine. */
  cpu?: { positions: PhaseCpu; consoles: PhaseCpu; saturation?: PhaseCpu };
  drivers: number;
  periodMs: number;
  loadAverage: { before: number[]; after: number[] };
  provisionSeconds: number;
  streams: { opened: number; failed: number; seconds: number; rssBeforeMb: number; rssAfterMb: number; heapBeforeMb: number; heapAfterMb: number; kbPerStream: number; openAtEnd: number; errors: number; errorKinds?: Record<string, number>;
    /** Five scrapes of /metrics (ms), a second apart, every stream open and no other load; absent in older reports. */
    scrapesMs?: number[];
  };
  positions: { app: PacedResult; limit: PacedResult; saturation: { app: unknown; limit: unknown } };
  /** The same positions again with the consoles watching the live map. */
  consoles: { watch: ConsoleWatch; positions: PacedResult };
  /** The server's CPU seconds over each phase of positions (streams, rounds and offers included), and per report served. */
  /** rounds: the CPU seconds of the rounds' own instance over the positions' phase (--split-rounds; NaN otherwise). */
  serverCpu: { app: { seconds: number; msPerReport: number }; rounds: number; consoles: { seconds: number; msPerReport: number } };
  /** The database statements every instance sent over the positions' phase (taxi_db_statements_total), per report served: positions, streams, rounds, offers and orders together; absent in older reports. */
  statements?: { positions: number; perReport: number; /** of them the event relay's NOTIFYs */ relayNotifies: number };
  /** delivery: per instance taking phones, the offers made to its drivers before the streams closed (the database) and those seen on their streams, with the latency of those. */
  offers: { n: number; latency: Latencies; /** Sightings after the first (a stream opened again while the offer was live); absent in older reports. */ seenAgain?: number; /** Those made during the positions' phase; absent in older reports. */ duringPositions?: Latencies; /** All, by the phase they were made in; absent in older reports. */ byPhase?: Record<OfferPhase, Latencies>; refusals: number; delivery?: Array<{ made: number; seen: number; latency: Latencies; unseen?: { states: Record<string, number>; madeSecondsBeforeClose: Latencies } }> };
  /** patienceSeconds, gaveUp, gaveUpFailed: with --patience, the orders their passengers cancelled (absent without it). */
  orders: { rate: number; created: number; failed: number; patienceSeconds?: number; gaveUp?: number; gaveUpFailed?: number };
  rounds: { n: number; seconds: Latencies; planSeconds: Latencies; orders: number; drivers: number; pairs: number; offers: number; phasesP50Ms?: Record<string, number>; each?: Array<{ s: number; ms: number; phasesMs: Record<string, number> }> };
  /** --soak: the minutes of the positions held at the fleet's rate, and the verdict on their trend. */
  soak?: { minutes: FleetMinute[]; verdict: ReturnType<typeof judge>; chart: string };
  memory: { peakMb: number | undefined; rssSamples: Array<{ s: number; mb: number | undefined }> };
}

export async function runFleet(o: FleetOptions): Promise<FleetResult> {
  const { log } = o;
  if (o.twoInstances && o.splitRounds) throw new Error("--two-instances and --split-rounds are measured apart: choose one");
  if (o.noRounds && o.splitRounds) throw new Error("--no-rounds and --split-rounds contradict each other: choose one");
  const N = o.short ? 1_000 : 10_000;
  const PERIOD_MS = (o.periodSeconds ?? 5) * 1000;
  const SECONDS = o.short ? 30 : 60;
  const LIMIT_SECONDS = o.short ? 15 : 30;
  const SATURATE_SECONDS = o.short ? 5 : 10;
  const CONSOLES = 20;
  const CONSOLE_SECONDS = o.short ? 20 : 30;
  const FREE_ORDERS = 300;
  // A city of a million at the evening peak: about 3,600 orders an hour for 10,000 cars, scaled with the fleet.
  const ORDER_RATE = Math.max(0.1, N / 10_000);
  const loadBefore = os.loadavg().map((l) => Number(l.toFixed(2)));
  const token = randomBytes(6).toString("hex");
  log(`fleet: ${N} drivers, a position each ${PERIOD_MS / 1000} s (${(N * 1000) / PERIOD_MS}/s), ${SECONDS} s; load average ${loadBefore.join(" ")}`);

  const t0 = Date.now();
  const made = await prepareDatabase("postgres", async (prisma) => {
    const tp = Date.now();
    const fleet = await provisionFleet(prisma, { drivers: N, freeOrders: FREE_ORDERS, token });
    log(`  provisioned ${fleet.drivers.length} drivers on shift and ${FREE_ORDERS} free orders in ${((Date.now() - tp) / 1000).toFixed(1)} s`);
    return fleet;
  });
  const provisionSeconds = (Date.now() - t0) / 1000;
  const url = made.db.env.DATABASE_URL!;
  const driversFile = path.join(tmpdir(), `taxi-fleet-${token}.json`);
  writeFileSync(driversFile, JSON.stringify(made.result.drivers));

  const serverEnv = {
    ...made.db.env,
    RATE_LIMIT_PER_KEY: "0",
    RATE_LIMIT_PER_ADDRESS: "0",
    AUTH_RATE_PER_ADDRESS: "0",
    LOG_LEVEL: "error",
    EXCHANGE_CHECK_SECONDS: "0",
    NEXT_DIST_DIR: o.distDir,
  };
  // With --split-rounds the rounds run in a second instance (started first: it migrates nothing new, the first start did).
  const roundsApp = o.splitRounds ? await startBenchServer({ ...serverEnv, DISPATCH_ROUNDS: "yes" }) : undefined;
  const app = await startBenchServer(
    {
      ...made.db.env,
      DISPATCH_ROUNDS: o.splitRounds || o.noRounds ? "no" : "yes",
      RATE_LIMIT_PER_KEY: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
      AUTH_RATE_PER_ADDRESS: "0",
      LOG_LEVEL: "error",
      EXCHANGE_CHECK_SECONDS: "0",
      // One connection per phone for its stream, plus the positions' pool: the default (4,096 per listener) closes the rest at once.
      MAX_CONNECTIONS: String(N + 2_000),
      NEXT_DIST_DIR: o.distDir,
      ...(o.profileDir ? { BENCH_CPU_PROF_DIR: o.profileDir } : {}),
    },
    o.profileDir ? [`--import=${path.join(root, "scripts/bench/cpu-profile.mjs")}`] : [],
    N + 1_000,
  );
  log(`  the server answered ${(app.readyMs / 1000).toFixed(1)} s after its start`);
  // --two-instances: the second takes half the phones and runs no rounds (they stay where they run with one instance: the first).
  const second = o.twoInstances
    ? await startBenchServer({ ...serverEnv, DISPATCH_ROUNDS: "no", MAX_CONNECTIONS: String(N + 2_000) }, [], N + 1_000)
    : undefined;
  if (second) log(`  the second instance answered ${(second.readyMs / 1000).toFixed(1)} s after its start; driver i's phone talks to instance i % 2`);
  /** The instances the phones talk to: driver i to phones[i % phones.length]. */
  const phones = second ? [app.url, second.url] : [app.url];
  const limit = await o.startLimit(url);
  const gen = startGenerator(driversFile, N + 1_000, log);
  const pid = app.process.pid;
  /** The instances whose CPU is read: the phones' first, then the second or the rounds' own. */
  const instancePids = [pid, (second ?? roundsApp)?.process.pid].filter((p): p is number => p !== undefined);
  const metricsUrls = [app.metricsUrl, ...[second, roundsApp].flatMap((x) => (x ? [x.metricsUrl] : []))];
  const samples: Sampled[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const m = await scrapeMetrics(app.metricsUrl);
      // The rounds' figures from the instance that runs them.
      const r = roundsApp ? await scrapeMetrics(roundsApp.metricsUrl) : m;
      samples.push({
        at: Date.now(),
        rssMb: o.vm(pid, "VmRSS"),
        ...(second ? { secondRssMb: o.vm(second.process.pid, "VmRSS") } : {}),
        heapUsedMb: Math.round((m.get("nodejs_heap_size_used_bytes") ?? NaN) / 1048576),
        roundSeconds: r.get('taxi_dispatch_round_last{figure="seconds"}') ?? NaN,
        roundOrders: r.get('taxi_dispatch_round_last{figure="orders"}') ?? NaN,
        roundDrivers: r.get('taxi_dispatch_round_last{figure="drivers"}') ?? NaN,
        roundPairs: r.get('taxi_dispatch_round_last{figure="pairs"}') ?? NaN,
        roundPlanSeconds: r.get('taxi_dispatch_round_last{figure="plan_seconds"}') ?? NaN,
        roundOffers: r.get('taxi_dispatch_round_last{figure="offers"}') ?? NaN,
        roundPhases: Object.fromEntries(PHASES.map((p) => [p, r.get(`taxi_dispatch_round_last{figure="${p}_seconds"}`) ?? NaN])),
      });
      await sleep(1_000);
    }
  })();
  try {
    // The consoles' dispatchers signed in now, before any load (and before the memory is measured).
    const dispatchers = await consoleSessions(app.url, { email: app.adminEmail, password: app.adminPassword }, CONSOLES);
    // Memory per open stream: the server's resident set before and after every driver's stream is open (settled a moment).
    await sleep(2_000);
    // Measured here, not taken from the sampler (whose scrape waits for a busy server's event loop).
    const measure = async () => ({ rssMb: o.vm(pid, "VmRSS"), heapUsedMb: Math.round(((await scrapeMetrics(app.metricsUrl)).get("nodejs_heap_size_used_bytes") ?? NaN) / 1048576) });
    const before = await measure();
    const secondBefore = second ? o.vm(second.process.pid, "VmRSS") : undefined;
    const streamsFrom = Date.now();
    log(`  opening ${N} offer streams${second ? ", half on each instance" : ""}`);
    const streams = await gen.ask<{ opened: number; openedVia: number[]; failed: number; seconds: number; firstError?: string }>({ cmd: "streams", urls: phones });
    await sleep(3_000);
    const after = await measure();
    const secondAfter = second ? o.vm(second.process.pid, "VmRSS") : undefined;
    const perStream = (mbBefore: number | undefined, mbAfter: number | undefined, opened: number) => (opened > 0 ? Math.round((((mbAfter ?? 0) - (mbBefore ?? 0)) * 1024) / opened) : NaN);
    const kbPerStream = perStream(before.rssMb, after.rssMb, streams.openedVia[0]!);
    log(`    ${streams.opened} open in ${streams.seconds} s (${streams.failed} failed${streams.firstError ? `: ${streams.firstError}` : ""}); RSS ${before.rssMb} -> ${after.rssMb} MB: ${kbPerStream} KB a stream`);
    const secondStreams = second
      ? { opened: streams.openedVia[1]!, rssBeforeMb: secondBefore ?? NaN, rssAfterMb: secondAfter ?? NaN, kbPerStream: perStream(secondBefore, secondAfter, streams.openedVia[1]!) }
      : undefined;
    if (secondStreams) log(`    the second instance: ${secondStreams.opened} of them, RSS ${secondStreams.rssBeforeMb} -> ${secondStreams.rssAfterMb} MB: ${secondStreams.kbPerStream} KB a stream`);
    // A scrape of /metrics with every stream open and nothing else to do: what a monitoring agent's scrape
    // takes from the phones' event loop (five, a second apart; the instance counts its open files at most every 10 s, so most reuse a count).
    const scrapesMs: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      await scrapeMetrics(app.metricsUrl);
      scrapesMs.push(Math.round((performance.now() - t) * 10) / 10);
      await sleep(1_000);
    }
    log(`    a scrape of /metrics at ${streams.opened} streams: ${scrapesMs.join(", ")} ms`);

    // Orders at the evening rate while the positions run.
    let ordering = true;
    let created = 0;
    let orderFailed = 0;
    // --patience: when each order's passenger gives up (ms), oldest first; the provisioned ones spread over the first period.
    const patienceMs = (o.patienceSeconds ?? 0) * 1000;
    const ordersFrom = Date.now();
    const givingUp: Array<{ uuid: string; at: number }> = patienceMs > 0 ? made.result.freeOrderUuids.map((uuid, k, all) => ({ uuid, at: ordersFrom + ((k + 1) * patienceMs) / all.length })) : [];
    let gaveUp = 0;
    let gaveUpFailed = 0;
    const passengers = (async () => {
      while (ordering && patienceMs > 0) {
        // Orders made later give up later: the list stays in the order of its times.
        while (givingUp.length && givingUp[0]!.at <= Date.now()) {
          const { uuid } = givingUp.shift()!;
          void fetch(`${app.url}/api/cancel_order`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ api_key: app.apiKey, uuid }),
          })
            .then(async (r) => ((await r.text()).includes('"DONE"') ? gaveUp++ : gaveUpFailed++))
            .catch(() => gaveUpFailed++);
        }
        await sleep(200);
      }
    })();
    const orders = (async () => {
      let i = 0;
      const start = Date.now();
      while (ordering) {
        const due = start + (i * 1000) / ORDER_RATE;
        if (due > Date.now()) {
          await sleep(Math.min(200, due - Date.now()));
          continue;
        }
        const a = made.result.addresses[i % made.result.addresses.length]!;
        i++;
        void fetch(`${app.url}/api/order`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ api_key: app.apiKey, phone: `+7927${String(i).padStart(7, "0")}`, street: a.street, house: a.house, moderation_required: "no", service_id: String(made.result.serviceId) }),
        })
          .then(async (r) => {
            const reply = (await r.json()) as { status?: string; response?: { uuid?: string } };
            if (reply.status !== "DONE") return orderFailed++;
            created++;
            if (patienceMs > 0 && reply.response?.uuid) givingUp.push({ uuid: reply.response.uuid, at: Date.now() + patienceMs });
          })
          .catch(() => orderFailed++);
      }
    })();
    const runFrom = Date.now();
    log(`  positions to the application: ${(N * 1000) / PERIOD_MS}/s for ${SECONDS} s, orders at ${ORDER_RATE}/s${patienceMs > 0 ? `, each given up by its passenger ${o.patienceSeconds} s after it was made` : ""}`);
    const soak = o.soakSeconds ? await soakFleet(o, app, phones, gen, PERIOD_MS) : undefined;
    const cpu0 = cpuSeconds(pid);
    const roundsCpu0 = roundsApp ? cpuSeconds(roundsApp.process.pid) : NaN;
    const positionsCpu = cpuPhase(instancePids, gen.child.pid);
    const statementsFrom = await statementsSent(metricsUrls);
    const appPaced = await gen.ask<PacedResult>({ cmd: "paced", urls: phones, kind: "app", seconds: SECONDS, periodMs: PERIOD_MS });
    const statementsTo = await statementsSent(metricsUrls);
    const positionsStatements = statementsTo.all - statementsFrom.all;
    const positionsNotifies = statementsTo.notifies - statementsFrom.notifies;
    const cpuApp = cpuSeconds(pid) - cpu0;
    const cpuRounds = roundsApp ? cpuSeconds(roundsApp.process.pid) - roundsCpu0 : NaN;
    const cpuPositions = positionsCpu();
    const runTo = Date.now();
    ordering = false;
    await orders;
    await passengers;
    logPaced(log, appPaced);
    logCpu(log, cpuPositions);
    log(`    database statements: ${positionsStatements} (${(positionsStatements / Math.max(1, appPaced.ok)).toFixed(2)} a report served), of them the event relay's NOTIFYs ${positionsNotifies}`);
    const status = await gen.ask<{ open: number }>({ cmd: "status" });

    // The consoles: 20 dispatchers watching the live map of the whole fleet while the same positions run again.
    log(`  ${CONSOLES} consoles watching the live map, positions again for ${CONSOLE_SECONDS} s`);
    const consolesFrom = Date.now();
    const consoles = await openConsoles(app.url, dispatchers, CONSOLES);
    await sleep(2_000);
    consoles.start();
    const cpu1 = cpuSeconds(pid);
    const consolesCpu = cpuPhase(instancePids, gen.child.pid);
    const withConsoles = await gen.ask<PacedResult>({ cmd: "paced", urls: phones, kind: "app", seconds: CONSOLE_SECONDS, periodMs: PERIOD_MS });
    const cpuConsoles = cpuSeconds(pid) - cpu1;
    const cpuWithConsoles = consolesCpu();
    const watch = consoles.stats();
    consoles.close();
    logPaced(log, withConsoles);
    logCpu(log, cpuWithConsoles);
    log(`    each console: ${watch.messagesPerSecond} messages/s, ${watch.carsPerMessage} cars a message, ${watch.carsPerSecond} cars/s, ${watch.kbPerSecond} KB/s; ${watch.resyncs} resyncs`);

    const limitFrom = Date.now();
    log(`  the same positions to the limit (node:http + pg, one UPDATE)`);
    const limitPaced = await gen.ask<PacedResult>({ cmd: "paced", url: limit.url, kind: "limit", seconds: LIMIT_SECONDS, periodMs: PERIOD_MS });
    logPaced(log, limitPaced);
    const saturationFrom = Date.now();
    log(`  saturation (64 concurrent reports), the application and the limit, ${SATURATE_SECONDS} s each`);
    const saturationCpu = cpuPhase(instancePids, gen.child.pid);
    const satApp = await gen.ask<{ rps: number; latency: Latencies }>({ cmd: "saturate", urls: phones, kind: "app", seconds: SATURATE_SECONDS, concurrency: 64 });
    const cpuSaturation = saturationCpu();
    const satLimit = await gen.ask<{ rps: number; latency: Latencies }>({ cmd: "saturate", url: limit.url, kind: "limit", seconds: SATURATE_SECONDS, concurrency: 64 });
    log(`    application ${satApp.rps}/s (p50 ${satApp.latency.p50} ms), limit ${satLimit.rps}/s (p50 ${satLimit.latency.p50} ms): ${Math.round((100 * satApp.rps) / satLimit.rps)}%`);
    logCpu(log, cpuSaturation);

    const closedAt = Date.now();
    const closed = await gen.ask<{ openAtClose: number; offers: Array<{ offerId: number; driverId: number; at: number; via: number }>; streamErrors: number; streamErrorKinds: Record<string, number>; refusals: number }>({ cmd: "close" });
    // An offer's way: from its creation (sent_at, the database's clock on this machine) to the stream event at the phone.
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // Every offer of the run (the fleet's drivers are this database's only ones), its driver and creation.
    const sent = new Map<number, { ms: number; driverId: number; state: string }>();
    const all = await client.query<{ id: number; driver_id: number; state: string; ms: string }>(`SELECT id, driver_id, state, (extract(epoch FROM sent_at AT TIME ZONE current_setting('TimeZone')) * 1000)::text AS ms FROM dispatch_offer`);
    for (const row of all.rows) sent.set(row.id, { ms: Number(row.ms), driverId: row.driver_id, state: row.state });
    await client.end();
    // Each offer's first sighting: a phone sees its live offer again when its stream is opened again (after the
    // server's 300 s, or a dropped connection), seconds after the offer was made; those are counted apart.
    const firstSeen = new Map<number, number>();
    for (const x of closed.offers) if (sent.has(x.offerId)) firstSeen.set(x.offerId, Math.min(firstSeen.get(x.offerId) ?? Infinity, x.at));
    const seenAgain = closed.offers.filter((x) => sent.has(x.offerId)).length - firstSeen.size;
    const offerDelays = [...firstSeen].map(([id, at]) => at - sent.get(id)!.ms);
    const offerLatency = latencies(offerDelays);
    log(`  offers at their drivers: ${offerLatency.n}, from creation p50 ${offerLatency.p50} ms, p99 ${offerLatency.p99} ms, max ${offerLatency.max} ms; seen again ${seenAgain} times`);
    // Every offer by the phase it was made in (its creation's moment against the phases' starts), to say where the tail
    // is; those of the positions' phase (the issue's load) apart, as older reports have them.
    const marks: Array<[OfferPhase, number]> = [["before", -Infinity], ["streams", streamsFrom], ["positions", runFrom], ["between", runTo], ["consoles", consolesFrom], ["limit", limitFrom], ["saturation", saturationFrom]];
    const phaseOf = (ms: number): OfferPhase => marks.filter(([, from]) => ms >= from).pop()![0];
    const byPhase = Object.fromEntries(
      OFFER_PHASES.map((phase) => [phase, latencies([...firstSeen].filter(([id]) => phaseOf(sent.get(id)!.ms) === phase).map(([id, at]) => at - sent.get(id)!.ms))]),
    ) as Record<OfferPhase, Latencies>;
    const duringPositions = byPhase.positions;
    log(`    of them made during the positions' phase: ${duringPositions.n}, p50 ${duringPositions.p50} ms, p90 ${duringPositions.p90} ms, p99 ${duringPositions.p99} ms`);
    log(`    by the phase they were made in: ${offersByPhase(byPhase)}`);
    // Per instance taking phones: the offers made to its drivers up to a second before the streams closed, and those its streams delivered (each once).
    const viaOf = new Map(made.result.drivers.map((d, i) => [d.id, i % phones.length]));
    const delivery = phones.map((_, k) => {
      const madeIds = new Set([...sent].filter(([, x]) => viaOf.get(x.driverId) === k && x.ms <= closedAt - 1_000).map(([id]) => id));
      const seen = new Map<number, number>();
      for (const x of closed.offers) if (x.via === k && !seen.has(x.offerId) && sent.has(x.offerId)) seen.set(x.offerId, x.at - sent.get(x.offerId)!.ms);
      // The offers its phones never saw: their state now (a LIVE one was still on its way; an EXPIRED one timed out before the stream's turn) and how long before the close they were made.
      const unseen = [...madeIds].filter((id) => !seen.has(id)).map((id) => sent.get(id)!);
      const states: Record<string, number> = {};
      for (const x of unseen) states[x.state] = (states[x.state] ?? 0) + 1;
      return { made: madeIds.size, seen: madeIds.size - unseen.length, latency: latencies([...seen.values()]), unseen: { states, madeSecondsBeforeClose: latencies(unseen.map((x) => (closedAt - x.ms) / 1000)) } };
    });
    delivery.forEach((d, k) =>
      log(`    through instance ${k + 1}${k === 1 ? " (the relay)" : ""}: ${d.seen} of ${d.made} offers made to its phones seen on their streams; p50 ${d.latency.p50} ms, p99 ${d.latency.p99} ms; the unseen: ${JSON.stringify(d.unseen.states)}, made ${d.unseen.madeSecondsBeforeClose.p50} s (p50) before the close`),
    );

    sampling = false;
    await sampler;
    const during = samples.filter((s) => s.at >= runFrom && s.at <= runTo + 1_000);
    // Each distinct round seen by the sampler (a round changes the gauge; the same value twice is one round).
    const rounds = samples.filter((s, k) => Number.isFinite(s.roundSeconds) && (k === 0 || s.roundSeconds !== samples[k - 1]!.roundSeconds));
    const roundMs = latencies(rounds.map((r) => r.roundSeconds * 1000));
    const planMs = latencies(rounds.map((r) => r.roundPlanSeconds * 1000));
    const phasesP50Ms = Object.fromEntries(PHASES.map((p) => [p, latencies(rounds.map((r) => r.roundPhases[p]! * 1000).filter(Number.isFinite)).p50]));
    void during;
    const lastRound = rounds.at(-1);
    log(`  the rounds' phases, p50 ms: ${PHASES.map((p) => `${p} ${phasesP50Ms[p]}`).join(", ")}`);
    log(`  dispatch rounds seen: ${rounds.length}, p50 ${roundMs.p50} ms, max ${roundMs.max} ms; their plan p50 ${planMs.p50} ms, max ${planMs.max} ms (last: ${lastRound?.roundOrders} orders x ${lastRound?.roundDrivers} drivers, ${lastRound?.roundPairs} pairs, ${lastRound?.roundOffers} offers)`);
    const rss = samples.map((s) => s.rssMb ?? 0);
    const result: FleetResult = {
      at: new Date().toISOString(),
      mode: o.short ? "short" : "full",
      splitRounds: Boolean(o.splitRounds),
      twoInstances: Boolean(o.twoInstances),
      noRounds: Boolean(o.noRounds),
      ...(secondStreams ? { second: { streams: secondStreams, peakMb: Math.max(...samples.map((x) => x.secondRssMb ?? 0)) } } : {}),
      cpu: { positions: cpuPositions, consoles: cpuWithConsoles, saturation: cpuSaturation },
      drivers: N,
      periodMs: PERIOD_MS,
      loadAverage: { before: loadBefore, after: os.loadavg().map((l) => Number(l.toFixed(2))) },
      provisionSeconds: Math.round(provisionSeconds),
      streams: {
        opened: streams.opened,
        failed: streams.failed,
        seconds: streams.seconds,
        rssBeforeMb: before.rssMb ?? NaN,
        rssAfterMb: after.rssMb ?? NaN,
        heapBeforeMb: before.heapUsedMb,
        heapAfterMb: after.heapUsedMb,
        kbPerStream,
        scrapesMs,
        openAtEnd: status.open,
        errors: closed.streamErrors,
        errorKinds: closed.streamErrorKinds,
      },
      positions: { app: appPaced, limit: limitPaced, saturation: { app: satApp, limit: satLimit } },
      consoles: { watch, positions: withConsoles },
      serverCpu: {
        app: { seconds: Math.round(cpuApp * 10) / 10, msPerReport: Math.round((cpuApp * 1000 * 100) / Math.max(1, appPaced.ok)) / 100 },
        rounds: Math.round(cpuRounds * 10) / 10,
        consoles: { seconds: Math.round(cpuConsoles * 10) / 10, msPerReport: Math.round((cpuConsoles * 1000 * 100) / Math.max(1, withConsoles.ok)) / 100 },
      },
      statements: { positions: positionsStatements, perReport: Math.round((positionsStatements * 100) / Math.max(1, appPaced.ok)) / 100, relayNotifies: positionsNotifies },
      offers: { n: offerLatency.n, latency: offerLatency, seenAgain, duringPositions, byPhase, refusals: closed.refusals, delivery },
      orders: { rate: ORDER_RATE, created, failed: orderFailed, ...(patienceMs > 0 ? { patienceSeconds: o.patienceSeconds, gaveUp, gaveUpFailed } : {}) },
      rounds: { n: rounds.length, seconds: roundMs, planSeconds: planMs, offers: lastRound?.roundOffers ?? NaN, orders: lastRound?.roundOrders ?? NaN, drivers: lastRound?.roundDrivers ?? NaN, pairs: lastRound?.roundPairs ?? NaN, phasesP50Ms,
        // Each round seen, when (seconds from the first sample) and its phases: a long one is explained by them.
        each: rounds.map((r) => ({ s: Math.round((r.at - samples[0]!.at) / 1000), ms: Math.round(r.roundSeconds * 1000), phasesMs: Object.fromEntries(PHASES.map((p) => [p, Math.round(r.roundPhases[p]! * 1000)])) })) },
      ...(soak ? { soak } : {}),
      memory: { peakMb: Math.max(...rss), rssSamples: samples.map((s) => ({ s: Math.round((s.at - samples[0]!.at) / 1000), mb: s.rssMb })) },
    };
    writeFleetReport(result, o.outDir, log);
    return result;
  } finally {
    sampling = false;
    await gen.ask({ cmd: "exit" }).catch(() => undefined);
    gen.child.kill();
    await limit.stop();
    await app.stop();
    await second?.stop();
    await roundsApp?.stop();
    await made.db.drop();
    rmSync(driversFile, { force: true });
  }
}

/** A soak's minute, with the last dispatch round at its end: the free orders it weighed, its time (absent in reports before them). */
export type FleetMinute = Minute & { freeOrders?: number; roundMs?: number; /** Live events waiting for the relay's NOTIFY at the minute's end (absent before it was counted). */ relayWaiting?: number };

/**
 * The soak: the fleet's positions held at their rate for o.soakSeconds in
 * one-minute phases (the streams open, reopened when the server closes them
 * after their time; orders arriving; the rounds running), the server's
 * resident set and p99 at the end of each minute and its V8 heap's floor
 * (heapFloorWhile), judged as the
 * general soak judges (soak.ts: a steady rise after the warm-up fails), and
 * charted.
 */
async function soakFleet(o: FleetOptions, app: { metricsUrl: string; process: ChildProcess; url: string }, phones: string[], gen: { ask: <T>(c: Record<string, unknown>) => Promise<T> }, periodMs: number) {
  const minutes: FleetMinute[] = [];
  const count = Math.max(1, Math.round(o.soakSeconds! / 60));
  o.log(`  the soak: positions at the fleet's rate for ${count} minutes`);
  for (let minute = 1; minute <= count; minute++) {
    const { value: p, heapFloorBytes } = await heapFloorWhile(app.metricsUrl, gen.ask<PacedResult>({ cmd: "paced", urls: phones, kind: "app", seconds: 60, periodMs }));
    const m = await scrapeMetrics(app.metricsUrl);
    const status = await gen.ask<{ open: number; reconnects: number }>({ cmd: "status" });
    minutes.push({
      minute,
      rssMb: o.vm(app.process.pid, "VmRSS") ?? NaN,
      heapUsedMb: Math.round(Math.min(heapFloorBytes, m.get("nodejs_heap_size_used_bytes") ?? Infinity) / 1048576),
      externalMb: Math.round((m.get("nodejs_external_memory_bytes") ?? NaN) / 1048576),
      p99: { position: p.latency.p99 },
      rps: { position: p.rps },
      failed: p.bad + p.errors,
      liveStreams: status.open,
      freeOrders: m.get('taxi_dispatch_round_last{figure="orders"}') ?? NaN,
      roundMs: Math.round((m.get('taxi_dispatch_round_last{figure="seconds"}') ?? NaN) * 1000),
      relayWaiting: m.get("taxi_event_relay_waiting"),
    });
    o.log(`    minute ${minute}: ${p.rps}/s, p50 ${p.latency.p50} ms, p99 ${p.latency.p99} ms, ${p.bad + p.errors} failed; RSS ${minutes.at(-1)!.rssMb} MB, heap ${minutes.at(-1)!.heapUsedMb} MB; ${minutes.at(-1)!.relayWaiting ?? "?"} events waiting for the relay; ${status.open} streams open (${status.reconnects} reopened)`);
  }
  const verdict = judge(minutes);
  const at = new Date().toISOString();
  const svg = chart([{ db: "postgres", minutes, verdict }], at);
  mkdirSync(o.outDir, { recursive: true });
  const file = path.join(o.outDir, `fleet-soak-${at.replace(/[:.]/g, "-")}.svg`);
  writeFileSync(file, svg);
  writeFileSync(path.join(o.outDir, "latest-fleet-soak.svg"), svg);
  o.log(`    the soak: ${verdict.ok ? "flat" : `NOT flat: ${verdict.reasons.join("; ")}`} (RSS ${verdict.rssSlopeMbPerMin.toFixed(1)} MB/min, heap ${verdict.heapSlopeMbPerMin.toFixed(1)} MB/min); chart ${file}`);
  return { minutes, verdict, chart: path.basename(file) };
}

function logCpu(log: (m: string) => void, c: PhaseCpu): void {
  log(`    CPU seconds in ${c.wallSeconds} s: instance${c.instances.length > 1 ? "s" : ""} ${c.instances.join(" + ")}, generator ${c.generator}, PostgreSQL ${c.postgres}; the machine busy ${c.machineBusy} of ${Math.round(c.wallSeconds * c.cores)}`);
}

function logPaced(log: (m: string) => void, r: PacedResult): void {
  log(
    `    ${r.kind}: ${r.rps}/s served of ${r.rate}/s; p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms; ${r.bad + r.errors} failed${r.firstBad ? ` (${r.firstBad})` : ""}; ` +
      `generator: send lag p99 ${r.sendLag.p99} ms, loop delay p99 ${r.loopDelay.p99} ms`,
  );
}

function cpuLine(c: PhaseCpu): string {
  return `instance${c.instances.length > 1 ? "s" : ""} ${c.instances.join(" + ")}, generator ${c.generator}, PostgreSQL (all its processes) ${c.postgres}; the machine busy ${c.machineBusy} of ${Math.round(c.wallSeconds * c.cores)} (${c.cores} cores)`;
}

function writeFleetReport(r: FleetResult, outDir: string, log: (m: string) => void): void {
  mkdirSync(outDir, { recursive: true });
  const stamp = r.at.replace(/[:.]/g, "-");
  const ratio = (a: number, b: number) => `${Math.round((100 * a) / b)}%`;
  const satApp = r.positions.saturation.app as { rps: number; latency: Latencies };
  const satLimit = r.positions.saturation.limit as { rps: number; latency: Latencies };
  const row = (p: PacedResult, name: string) =>
    `| ${name} | ${p.rate}/s | ${p.rps}/s | ${p.latency.p50} | ${p.latency.p99} | ${p.latency.max} | ${p.bad + p.errors} | ${p.sendLag.p99} | ${p.loopDelay.p99} |`;
  const md = [
    `# Fleet benchmark ${r.at} (${r.mode}${r.splitRounds ? ", the rounds in a second instance" : ""}${r.twoInstances ? ", half the phones on a second instance" : ""}${r.noRounds ? ", no dispatch rounds" : ""})`,
    ``,
    `${r.drivers} drivers on shift, a position every ${r.periodMs / 1000} s each; load average before ${r.loadAverage.before.join(" ")}, after ${r.loadAverage.after.join(" ")} (${os.cpus().length} cores). Provisioned in ${r.provisionSeconds} s.`,
    ``,
    `| positions | rate | served | p50 ms | p99 ms | max ms | failed | generator send lag p99 ms | generator loop delay p99 ms |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|`,
    row(r.positions.app, "POST /driver-app/v1/position (streams open, orders, rounds)"),
    row(r.consoles.positions, `the same with ${r.consoles.watch.consoles} consoles watching the live map`),
    row(r.positions.limit, "limit: node:http + pg, one UPDATE"),
    ``,
    ...(r.second
      ? [
          `Two instances on one database: driver i's phone (its stream and its positions) on instance i % 2; the rounds, the orders and the consoles on the first. Positions by instance: ${(r.positions.app.perInstance ?? []).map((p, k) => `${k + 1}: ${p.rps}/s, p50 ${p.latency.p50} ms, p99 ${p.latency.p99} ms, ${p.failed} failed`).join("; ")}.`,
          ``,
          `Offers by the instance carrying the phone's stream (made before the streams closed → seen on the stream; from creation): ${(r.offers.delivery ?? []).map((d, k) => `${k + 1}${k === 1 ? " (through the relay)" : ""}: ${d.seen} of ${d.made}, p50 ${d.latency.p50} ms, p99 ${d.latency.p99} ms`).join("; ")}. The second instance's ${r.second.streams.opened} streams: ${r.second.streams.kbPerStream} KB each (RSS ${r.second.streams.rssBeforeMb} → ${r.second.streams.rssAfterMb} MB), its peak ${r.second.peakMb} MB.`,
          ``,
        ]
      : []),
    ...(r.cpu
      ? [
          `CPU seconds (/proc) over the positions' ${r.cpu.positions.wallSeconds} s: ${cpuLine(r.cpu.positions)}; over the consoles' ${r.cpu.consoles.wallSeconds} s: ${cpuLine(r.cpu.consoles)}${r.cpu.saturation ? `; over the application's saturation, ${r.cpu.saturation.wallSeconds} s: ${cpuLine(r.cpu.saturation)}` : ""}.`,
          ``,
        ]
      : []),
    `The server's CPU over the positions: ${r.serverCpu.app.seconds} s in ${r.positions.app.seconds} s (${r.serverCpu.app.msPerReport} ms a report served, ${r.splitRounds ? `streams included; the rounds and offers ran in the other instance, ${r.serverCpu.rounds} s of its CPU` : "streams, rounds and offers included"}); with the consoles ${r.serverCpu.consoles.seconds} s (${r.serverCpu.consoles.msPerReport} ms a report).`,
    ``,
    `Consoles: ${r.consoles.watch.consoles} watching the live map for ${r.consoles.watch.seconds} s; each received ${r.consoles.watch.messagesPerSecond} messages/s of the drivers' changes, ${r.consoles.watch.carsPerMessage} cars a message (${r.consoles.watch.carsPerSecond} cars/s), ${r.consoles.watch.kbPerSecond} KB/s; ${r.consoles.watch.resyncs} resyncs.`,
    ``,
    `Saturation (64 concurrent reports): application ${satApp.rps}/s (p50 ${satApp.latency.p50} ms), limit ${satLimit.rps}/s (p50 ${satLimit.latency.p50} ms): ${ratio(satApp.rps, satLimit.rps)} of the limit.`,
    ``,
    `| figure | value |`,
    `|---|---|`,
    `| offer streams open | ${r.streams.opened} (${r.streams.failed} failed) in ${r.streams.seconds} s; ${r.streams.openAtEnd} still open after the positions; ${r.streams.errors} errors${r.streams.errors && r.streams.errorKinds ? ` (${Object.entries(r.streams.errorKinds).map(([kind, n]) => `${kind}: ${n}`).join(", ")})` : ""} |`,
    `| server memory per open stream | ${r.streams.kbPerStream} KB (RSS ${r.streams.rssBeforeMb} → ${r.streams.rssAfterMb} MB; V8 heap ${r.streams.heapBeforeMb} → ${r.streams.heapAfterMb} MB) |`,
    ...(r.streams.scrapesMs ? [`| a scrape of /metrics with every stream open (ms, five a second apart) | ${r.streams.scrapesMs.join(", ")} |`] : []),
    `| offer: creation → its driver's stream (its first sighting) | ${r.offers.n} offers, p50 ${r.offers.latency.p50} ms, p99 ${r.offers.latency.p99} ms, max ${r.offers.latency.max} ms${r.offers.seenAgain === undefined ? "" : `; seen again ${r.offers.seenAgain} times`} |`,
    ...(r.offers.duringPositions ? [`| the same, offers made during the positions' phase | ${r.offers.duringPositions.n} offers, p50 ${r.offers.duringPositions.p50} ms, p90 ${r.offers.duringPositions.p90} ms, p99 ${r.offers.duringPositions.p99} ms |`] : []),
    ...(r.offers.byPhase ? [`| the same, by the phase they were made in | ${offersByPhase(r.offers.byPhase)} |`] : []),
    `| dispatch round (ms: the whole round, with its offers) | ${r.rounds.n} rounds seen, p50 ${r.rounds.seconds.p50}, max ${r.rounds.seconds.max}; its plan (reads, arrival times, assignment) p50 ${r.rounds.planSeconds.p50}, max ${r.rounds.planSeconds.max}; the last: ${r.rounds.orders} free orders × ${r.rounds.drivers} free drivers, ${r.rounds.pairs} pairs weighed, ${r.rounds.offers} offers |`,
    `| orders created at ${r.orders.rate}/s | ${r.orders.created} (${r.orders.failed} failed) |`,
    `| server resident memory | peak ${r.memory.peakMb} MB; over the run (s: MB) ${r.memory.rssSamples.filter((_, k) => k % 10 === 0).map((s) => `${s.s}: ${s.mb}`).join(", ")} |`,
    ``,
  ].join("\n");
  const json = JSON.stringify(r, null, 2);
  for (const name of [`fleet-${stamp}`, "latest-fleet"]) {
    writeFileSync(path.join(outDir, `${name}.json`), json);
    writeFileSync(path.join(outDir, `${name}.md`), md);
  }
  console.log(md);
  log(`written: bench-results/fleet-${stamp}.{json,md}, bench-results/latest-fleet.{json,md}`);
}

