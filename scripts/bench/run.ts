// `npm run bench` (docs/performance.md): the production build on the embedded
// database and on PostgreSQL, measured side by side with the limit (a plain
// node:http server on the raw driver) and the default way (a plain Next.js
// route handler with Prisma). Writes bench-results/latest.{json,md,svg}.
//
//   npm run bench                        both databases, full durations
//   npm run bench -- --short             the short mode (CI): a few seconds per measurement
//   npm run bench -- --db=postgres       one database
//   npm run bench -- --profile           also a CPU profile of the server (bench-results/profiles)
//   npm run bench -- --only=streets,pre_cost   only the targets whose names contain one of these
//   npm run bench -- --only=routing      only the routing benchmark (no server, no database, no build)
//   npm run bench -- --only=reports      only the reports' month on PostgreSQL (no server, no build; reports.ts)
//   npm run bench -- --fleet             the fleet: 10,000 drivers' positions, offer streams, dispatch rounds (fleet.ts); --short: 1,000;
//                                        --split-rounds: the rounds in a second instance (DISPATCH_ROUNDS=no on the phones' one);
//                                        --two-instances: half the phones on a second instance (the rounds, orders, consoles on the first);
//                                        --no-rounds: no dispatch rounds (no offers): the positions' and streams' own floor;
//                                        --soak=10m: the positions held that long first, memory and p99 each minute (a chart)
//                                        --patience=5m: passengers cancel their orders that long after making them (a steady load)
//                                        --period=10s: each driver reports this often (5 s by default): a soak the machine keeps up with
//   npm run bench -- --soak=10m          the soak: a mixed steady load, memory and p99 each minute (soak.ts)
//
// The application runs as in production: plain node on the server's
// JavaScript build with Next's build in NEXT_DIST_DIR (default .next-bench);
// both are built first when missing or older than their sources.
import { spawn, type ChildProcess } from "node:child_process";
import { renameSync, statSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { seedDemoCity } from "../../server/seed/demo";
import type { TestDb } from "../../tests/support/server";
import { scrapeMetrics, serverNode, startBenchServer, type BenchServer } from "./server";
import { ensureBuilt } from "./build";
import { runSoak, parseDuration } from "./soak";
import { runFleet } from "./fleet";
import { prepareDatabase, type PreparedDb } from "../../tests/support/exchange/db";
import { addParticipants } from "../../tests/support/exchange/fixtures";
import { startReceiver, type Receiver } from "../../tests/support/exchange/receiver";
import { signInApi, trpc, type Session } from "../../e2e/support/console-api";
import { dbWork, type DbWork } from "./db-work";
import type { LoadJob, LoadResult } from "./load";
import { writeReport, type BenchResult, type DbResult, type Measurement, type Sample } from "./report";
import { summarizeProfile } from "./profile";
import { summarizeHeap, type HeapSummary } from "./heap";
import { benchRouting } from "./routing";
import { benchReports } from "./reports";

const root = path.resolve(import.meta.dirname, "..", "..");
const args = process.argv.slice(2);
const short = args.includes("--short");
const profile = args.includes("--profile");
/** --heap: a heap snapshot of the server at the end of each database's run, summarised in the report. */
const heap = args.includes("--heap");
const dbArg = args.find((a) => a.startsWith("--db="))?.slice(5);
const only = args.find((a) => a.startsWith("--only="))?.slice(7).split(",").filter(Boolean);
/** --fleet: the driver fleet (fleet.ts): 10,000 drivers' positions and offer streams on PostgreSQL; with --short 1,000. */
const fleet = args.includes("--fleet");
const soakArg = args.find((a) => a.startsWith("--soak="))?.slice(7);
const patienceArg = args.find((a) => a.startsWith("--patience="))?.slice("--patience=".length);
const periodArg = args.find((a) => a.startsWith("--period="))?.slice("--period=".length);
/** --server-flags="--max-semi-space-size=4 ...": extra Node/V8 flags for the server (memory experiments, docs/performance.md). */
const serverFlags = (args.find((a) => a.startsWith("--server-flags="))?.slice(15) ?? "").split(/\s+/).filter(Boolean);
/** Whether a target (or a scenario: "console", "exchange", "POST /api/order") is measured in this run. */
const wanted = (name: string) => !only || only.some((part) => name.includes(part));
const databases: TestDb[] = dbArg ? (dbArg.split(",") as TestDb[]) : ["pglite", "postgres"];
const distDir = process.env.NEXT_DIST_DIR || ".next-bench";
const outDir = path.join(root, "bench-results");

const M = short
  ? { saturate: 4, rate: 4, warm: 1, connections: 20, activeOrders: 10_000, streets: 10_000, exchangeSamples: 30, boardSamples: 10, consoles: 10, liveChanges: 5 }
  : { saturate: 10, rate: 10, warm: 2, connections: 20, activeOrders: 10_000, streets: 10_000, exchangeSamples: 200, boardSamples: 40, consoles: 50, liveChanges: 20 };

/** The benchmark's own switch for the "default way" route (app/bench/order/route.ts): a token of this run, sent with each of its requests. */
const benchToken = randomBytes(24).toString("hex");
const benchHeaders = { authorization: `Bearer ${benchToken}` };

/** Requests per second of the fixed-rate measurements. */
const RATE = { read: 1_000, write: 500, exchange: 200, board: 20, lowStreets: 100 };

function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

// ------------------------------------------------------------------ processes

export function vm(pid: number | undefined, field: "VmHWM" | "VmRSS"): number | undefined {
  if (!pid) return undefined;
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** Resets the peak resident set size (VmHWM) of a process: echo 5 > /proc/pid/clear_refs. */
export function resetPeak(pid: number | undefined): void {
  if (!pid) return;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // not allowed here: the peak is then the process's peak so far
  }
}

let jobCounter = 0;
const jobDir = mkdtempSync(path.join(tmpdir(), "taxi-bench-jobs-"));

/** Runs one autocannon job in a child process. */
export function load(job: LoadJob): Promise<LoadResult> {
  const file = path.join(jobDir, `job-${++jobCounter}.json`);
  writeFileSync(file, JSON.stringify(job));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench/load.ts"), file], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("exit", (code) => {
      rmSync(file, { force: true });
      const line = out.split("\n").find((l) => l.startsWith("LOAD_RESULT "));
      if (code !== 0 || !line) return reject(new Error(`load generator failed (${code}): ${err.slice(-2000)}`));
      resolve(JSON.parse(line.slice("LOAD_RESULT ".length)) as LoadResult);
    });
  });
}

async function startLimit(db: TestDb, prepared: PreparedDb): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  const dataDir = db === "pglite" ? mkdtempSync(path.join(tmpdir(), "taxi-bench-limit-")) : undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0" };
  delete env.DATABASE_URL;
  if (dataDir) env.LIMIT_DATA_DIR = dataDir;
  else env.DATABASE_URL = prepared.env.DATABASE_URL;
  const child = spawn(serverNode, ["--import", "tsx", path.join(root, "scripts/bench/limit-server.ts")], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`limit server did not start: ${out}`)), 120_000);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /LIMIT_READY (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`limit server exited (${code}): ${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------ helpers

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function samples(values: number[]): Sample {
  return { n: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values) };
}

async function json<T>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  const text = await r.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${r.status}): ${text.slice(0, 300)}`);
  }
}

async function pool<T, R>(items: T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ the database

export interface Prepared {
  db: PreparedDb;
  activeUuids: string[];
  /** Known addresses (street and house) of the demo city. */
  addresses: Array<{ street: string; house: string }>;
  callSign: string;
  center: { lat: number; lon: number };
  sellerKey: string;
}

export async function prepare(kind: TestDb, receivers: { seller: Receiver; taker: Receiver }): Promise<Prepared> {
  const sellerKey = `xk_${randomBytes(18).toString("base64url")}`;
  const takerKey = `xk_${randomBytes(18).toString("base64url")}`;
  const made = await prepareDatabase(kind, async (prisma) => {
    const t0 = Date.now();
    await seedDemoCity(prisma, { streets: M.streets });
    log(`${kind}: demo city with ${M.streets} streets in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const one = [{ externalId: 1, name: "Эконом", carClass: 1, executes: true }];
    await addParticipants(prisma, [
      { name: "Seller", url: receivers.seller.url, key: sellerKey, services: one },
      { name: "Taker", url: receivers.taker.url, key: takerKey, services: one, deposit: 1_000_000n },
    ]);
    const city = await prisma.city.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true, lat: true, lon: true } });
    const service = await prisma.service.findFirstOrThrow({ where: { cityId: city.id }, orderBy: { id: "asc" }, select: { id: true } });
    // The console's board: this many active orders (moderation, free, assigned to nobody).
    await prisma.$executeRawUnsafe(
      `INSERT INTO orders (uuid, city_id, service_id, state, status_code, phone, street, house, lat, lon, amount, updated_at, created_at)
       SELECT gen_random_uuid(), $1, $2,
              CASE WHEN i % 3 = 0 THEN 'ON_MODERATION' ELSE 'FREE' END, CASE WHEN i % 3 = 0 THEN 80 ELSE 9 END,
              '+7916' || lpad(i::text, 7, '0'), 'ул. Бенчмарка', (i % 200)::text, $3 + (i % 100) / 1000.0, $4 + (i % 77) / 1000.0,
              10000 + i, now(), now() - (i || ' seconds')::interval
         FROM generate_series(1, $5) i`,
      city.id,
      service.id,
      city.lat,
      city.lon,
      M.activeOrders,
    );
    const uuids = await prisma.$queryRawUnsafe<Array<{ uuid: string }>>(`SELECT uuid::text AS uuid FROM orders ORDER BY id DESC LIMIT 2000`);
    const addresses = await prisma.$queryRawUnsafe<Array<{ street: string; house: string }>>(
      `SELECT s.full_name AS street, h.number AS house FROM house h JOIN street s ON s.id = h.street_id WHERE s.city_id = $1 ORDER BY h.id LIMIT 200`,
      city.id,
    );
    if (addresses.length === 0) throw new Error("no houses in the demo city");
    const driver = await prisma.driver.findFirstOrThrow({ where: { active: true }, orderBy: { id: "asc" }, select: { callSign: true } });
    return { uuids: uuids.map((u) => u.uuid), addresses, callSign: driver.callSign, center: { lat: city.lat, lon: city.lon } };
  });
  return { db: made.db, activeUuids: made.result.uuids, addresses: made.result.addresses, callSign: made.result.callSign, center: made.result.center, sellerKey };
}

// ------------------------------------------------------------------ one measured target

interface Target {
  name: string;
  group: "limit" | "default" | "ours";
  kind: "read" | "write" | "exchange" | "console";
  server: "app" | "limit";
  job: Omit<LoadJob, "url" | "connections" | "duration" | "overallRate">;
  rate: number;
  /** A second fixed rate (street search latency of one client). */
  lowRate?: number;
  /** Variants for the saturation run and for the fixed-rate run (each used once, e.g. tokens). */
  split?: { saturate: LoadJob["variants"]; rate: LoadJob["variants"] };
}

async function measure(target: Target, base: { app: BenchServer; limit: { url: string; process: ChildProcess }; work?: DbWork }): Promise<Measurement> {
  const url = target.server === "app" ? base.app.url : base.limit.url;
  const pid = target.server === "app" ? base.app.process.pid : base.limit.process.pid;
  const job = (extra: Partial<LoadJob>): LoadJob => ({ ...target.job, url, connections: M.connections, duration: M.saturate, ...extra });
  log(`  ${target.name}`);
  if (!target.split) await load(job({ duration: M.warm, connections: 10 }));
  resetPeak(pid);
  const before = target.server === "app" ? await base.work?.statements() : undefined;
  const saturate = await load(job(target.split ? { variants: target.split.saturate } : {}));
  let dbStatementsPerRequest: number | undefined;
  if (base.work && before !== undefined && saturate.ok > 0) {
    await base.work.outboxDrained(20_000);
    dbStatementsPerRequest = ((await base.work.statements()) - before) / saturate.ok;
  }
  const rate = await load(job({ duration: M.rate, overallRate: target.rate, ...(target.split ? { variants: target.split.rate } : {}) }));
  const low = target.lowRate ? await load(job({ duration: M.rate, overallRate: target.lowRate, connections: 1 })) : undefined;
  const m: Measurement = {
    name: target.name,
    group: target.group,
    kind: target.kind,
    saturation: saturate,
    fixedRate: { rate: target.rate, ...rate },
    ...(low ? { lowRate: { rate: target.lowRate!, ...low } } : {}),
    peakMemoryMb: vm(pid, "VmHWM"),
    ...(dbStatementsPerRequest === undefined ? {} : { dbStatementsPerRequest }),
  };
  const bad = saturate.bad + rate.bad + (low?.bad ?? 0);
  log(
    `    ${saturate.rps.toFixed(0)} req/s; at ${target.rate}/s p50 ${rate.latency.p50} ms p99 ${rate.latency.p99} ms; peak ${m.peakMemoryMb ?? "?"} MB` +
      (bad ? `; ${bad} failed (${saturate.firstBad ?? rate.firstBad ?? low?.firstBad})` : ""),
  );
  return m;
}

// ------------------------------------------------------------------ the console

async function consoleScenario(app: BenchServer, uuids: string[]): Promise<{ board: Sample; live: Sample & { consoles: number; changes: number; missed: number }; session: Session }> {
  const session = await signInApi(app.url, app.adminEmail, app.adminPassword);
  const input = (v: unknown) => encodeURIComponent(JSON.stringify({ json: v }));
  const boardUrl = `${app.url}/api/trpc/orders.board?input=${input({ filter: { group: "active" }, limit: 100 })}`;
  const countsUrl = `${app.url}/api/trpc/orders.counts`;
  const headers = { cookie: session.cookie };
  const loads: number[] = [];
  for (let i = 0; i < M.boardSamples; i++) {
    const t0 = performance.now();
    const [b, c] = await Promise.all([fetch(boardUrl, { headers }), fetch(countsUrl, { headers })]);
    const bt = await b.text();
    await c.text();
    if (!b.ok || !c.ok) throw new Error(`board ${b.status} ${bt.slice(0, 300)}`);
    loads.push(performance.now() - t0);
  }
  log(`  console board (board + counts): p50 ${percentile(loads, 50).toFixed(1)} ms, max ${Math.max(...loads).toFixed(1)} ms`);

  // Live: this many open consoles, each a live.events SSE stream; a status
  // change through the API must reach all of them. An operator may hold 8
  // streams (server/trpc/limits.ts): the consoles are spread over dispatchers.
  const PER_OPERATOR = 8;
  const sessions: Session[] = [];
  for (let u = 0; u < Math.ceil(M.consoles / PER_OPERATOR); u++) {
    const email = `dispatcher${u}-${Date.now()}@bench.local`;
    const made = await trpc(app.url, session, "admin.users.create", { email, name: `Dispatcher ${u}`, password: "bench-password-1", roles: ["DISPATCHER"] }, "mutation");
    if (made.error) throw new Error(`admin.users.create: ${made.error.message}`);
    sessions.push(await signInApi(app.url, email, "bench-password-1"));
  }
  const controller = new AbortController();
  const seen: Array<Map<string, number>> = [];
  const opened: boolean[] = [];
  const streams = await Promise.all(
    Array.from({ length: M.consoles }, async (_, i) => {
      const res = await fetch(`${app.url}/api/trpc/live.events`, { headers: { cookie: sessions[Math.floor(i / PER_OPERATOR)]!.cookie, accept: "text/event-stream" }, signal: controller.signal });
      if (!res.ok || !res.body) throw new Error(`live.events ${res.status}`);
      const map = new Map<string, number>();
      seen[i] = map;
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            opened[i] = true;
            buffer += decoder.decode(value, { stream: true });
            let nl: number;
            while ((nl = buffer.indexOf("\n")) !== -1) {
              const line = buffer.slice(0, nl);
              buffer = buffer.slice(nl + 1);
              // A message may carry several orders' events (server/events/console-batch.ts).
              for (const m of line.matchAll(/"uuid":"([0-9a-f-]{36})"/g)) if (!map.has(m[1]!)) map.set(m[1]!, performance.now());
            }
          }
        } catch {
          // aborted
        }
      })();
      return res;
    }),
  );
  // Every stream has started (tRPC's first SSE message), and a moment for its subscription to the bus.
  const openBy = performance.now() + 10_000;
  while (performance.now() < openBy && opened.filter(Boolean).length < M.consoles) await sleep(10);
  await sleep(300);
  const delays: number[] = [];
  let missed = 0;
  const targets = uuids.slice(0, M.liveChanges);
  for (const uuid of targets) {
    const t0 = performance.now();
    const r = await json<{ status: string }>(fetch(`${app.url}/api/cancel_order`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ api_key: app.apiKey, uuid }) }));
    if (r.status !== "DONE") throw new Error(`cancel_order: ${JSON.stringify(r)}`);
    const deadline = performance.now() + 5_000;
    while (performance.now() < deadline && seen.some((m) => !m.has(uuid))) await sleep(2);
    for (const m of seen) {
      const at = m.get(uuid);
      if (at === undefined) missed++;
      else delays.push(at - t0);
    }
    await sleep(50);
  }
  controller.abort();
  void streams;
  const live = { ...samples(delays), consoles: M.consoles, changes: targets.length, missed };
  log(`  live: ${M.consoles} consoles x ${targets.length} changes: p50 ${live.p50.toFixed(1)} ms, max ${live.max.toFixed(1)} ms, missed ${missed}`);
  return { board: samples(loads), live, session };
}

// ------------------------------------------------------------------ the exchange

async function exchangeLatency(app: BenchServer, token: string, taker: Receiver): Promise<Sample & { postP50: number }> {
  const delays: number[] = [];
  const posts: number[] = [];
  for (let i = 0; i < M.exchangeSamples; i++) {
    const body = JSON.stringify({ data: { id: `lat-${Date.now()}-${i}`, type: "order", attributes: exchangeAttributes() } });
    const t0 = Date.now();
    const p0 = performance.now();
    const r = await json<{ data?: { id: string } }>(fetch(`${app.url}/exchange/order`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body }));
    posts.push(performance.now() - p0);
    const id = r.data?.id;
    if (!id) throw new Error(`exchange order: ${JSON.stringify(r)}`);
    const deadline = Date.now() + 5_000;
    let got: number | undefined;
    while (Date.now() < deadline) {
      got = taker.received.find((x) => x.path.endsWith("/on/order/received") && String(x.data.id) === id)?.at;
      if (got !== undefined) break;
      await sleep(1);
    }
    if (got === undefined) throw new Error(`no order/received for ${id} at the taker`);
    delays.push(got - t0);
    await sleep(20);
  }
  const s = samples(delays);
  log(`  exchange POST /exchange/order -> on/order/received: p50 ${s.p50} ms, p99 ${s.p99} ms (POST itself p50 ${percentile(posts, 50).toFixed(1)} ms)`);
  return { ...s, postP50: percentile(posts, 50) };
}

function exchangeAttributes() {
  return {
    client: { phone: "79161234567", name: "Иван" },
    from: { street: "ул. Ленина", house: "1", latitude: 55.75, longitude: 37.62 },
    to: { street: "пр. Мира", house: "10", latitude: 55.78, longitude: 37.63 },
    carClass: 1,
    fare: 350,
  };
}

// ------------------------------------------------------------------ memory

const MB = 1024 * 1024;

/** What the server holds now: resident set, V8's heap, memory outside it (WASM and buffers), and its caches. */
async function memoryOf(app: BenchServer): Promise<NonNullable<DbResult["memory"]>> {
  const m = await scrapeMetrics(app.metricsUrl);
  const mb = (name: string) => Math.round((m.get(name) ?? NaN) / MB);
  const caches: Record<string, number> = {};
  for (const [k, v] of m) {
    const c = /^taxi_cache_entries\{cache="([^"]+)"\}$/.exec(k);
    if (c) caches[c[1]!] = v;
  }
  return {
    rssMb: vm(app.process.pid, "VmRSS") ?? mb("process_resident_memory_bytes"),
    peakMb: vm(app.process.pid, "VmHWM"),
    heapUsedMb: mb("nodejs_heap_size_used_bytes"),
    heapTotalMb: mb("nodejs_heap_size_total_bytes"),
    externalMb: mb("nodejs_external_memory_bytes"),
    caches,
  };
}

/** Asks the server for a heap snapshot (SIGUSR2) and summarises it. */
async function heapSnapshot(app: BenchServer, kind: TestDb): Promise<HeapSummary & { file: string }> {
  const dir = path.join(outDir, "heap");
  mkdirSync(dir, { recursive: true });
  const before = new Set(readdirSync(dir));
  app.process.kill("SIGUSR2");
  const deadline = Date.now() + 180_000;
  for (;;) {
    const file = readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (file) {
      // Written when its size stops changing.
      let size = -1;
      for (;;) {
        await sleep(1_000);
        const now = statSync(path.join(dir, file)).size;
        if (now === size && now > 0) break;
        size = now;
      }
      const target = path.join(dir, `${kind}.heapsnapshot`);
      renameSync(path.join(dir, file), target);
      log(`  heap snapshot: ${path.relative(root, target)} (${Math.round(size / 1048576)} MB)`);
      return { file: path.relative(root, target), ...summarizeHeap(target) };
    }
    if (Date.now() > deadline) throw new Error("no heap snapshot");
    await sleep(500);
  }
}

// ------------------------------------------------------------------ one database

async function benchDatabase(kind: TestDb): Promise<DbResult> {
  const started = Date.now();
  log(`${kind}: preparing the database`);
  const seller = await startReceiver();
  const taker = await startReceiver();
  const prepared = await prepare(kind, { seller, taker });
  const profileDir = path.join(outDir, "profiles", kind);
  if (profile) {
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
  }
  const app = await startBenchServer(
    {
      ...prepared.db.env,
      BENCH_ROUTES: benchToken,
      RATE_LIMIT_PER_KEY: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
      // The console scenarios sign in dozens of operators from one address.
      AUTH_RATE_PER_ADDRESS: "0",
      LOG_LEVEL: "error",
      EXCHANGE_CHECK_SECONDS: "0",
      NEXT_DIST_DIR: distDir,
      ...(profile ? { BENCH_CPU_PROF_DIR: profileDir } : {}),
    },
    [...serverFlags, ...(profile ? [`--import=${path.join(root, "scripts/bench/cpu-profile.mjs")}`] : []), ...(heap ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${path.join(outDir, "heap")}`] : [])],
  );
  log(`${kind}: the server answered ${(app.readyMs / 1000).toFixed(1)} s after its start`);
  const limit = await startLimit(kind, prepared.db);
  const work = kind === "postgres" && prepared.db.env.DATABASE_URL ? await dbWork(prepared.db.env.DATABASE_URL, app.metricsUrl) : undefined;
  const measurements: Measurement[] = [];
  let consoleResult: DbResult["console"];
  let exchange: DbResult["exchange"];
  let memory: DbResult["memory"];
  try {
    const key = app.apiKey;
    const limitUuids = await json<string[]>(fetch(`${limit.url}/uuids?n=1000`));
    const uuids = prepared.activeUuids;
    const uuidVariants = (prefix: string, list: string[]) => list.map((u) => ({ path: `${prefix}${u}` }));
    const streets = (await json<{ response: { streets: string[] } }>(fetch(`${app.url}/api/streets?api_key=${key}&pattern=${encodeURIComponent("ул")}&limit=50`))).response.streets;
    if (streets.length === 0) throw new Error("no streets");
    const words = streets.map((s) => s.replace(/^(ул|пр|пер|пл|ш|б-р|наб)\.?\s+/u, "").slice(0, 3).toLowerCase());
    const { lat, lon } = prepared.center;
    const pointsOf = (i: number) =>
      JSON.stringify([
        prepared.addresses[i % prepared.addresses.length]!,
        { latitude: lat + ((i % 50) - 25) / 1000, longitude: lon + ((i % 40) - 20) / 1000 },
      ]);
    const base = { app, limit, work };
    const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
    // A different client per order, as in real traffic (one phone is one client row, locked by each order of it).
    const phoneOf = (i: number) => `+7926${String(i).padStart(7, "0")}`;

    const targets: Target[] = [
      { name: "limit: read order (node:http + driver)", group: "limit", kind: "read", server: "limit", rate: RATE.read, job: { method: "GET", path: "/order", variants: uuidVariants("/order?uuid=", limitUuids), expect: '"DONE"' } },
      { name: "limit: insert order (node:http + driver)", group: "limit", kind: "write", server: "limit", rate: RATE.write, job: { method: "POST", path: "/order", body: form({ phone: "+79160000001", street: "ул. Ленина", house: "1" }), expect: '"DONE"' } },
      { name: "default: read order (Next route + Prisma)", group: "default", kind: "read", server: "app", rate: RATE.read, job: { method: "GET", path: "/bench/order", headers: benchHeaders, variants: uuidVariants("/bench/order?uuid=", uuids), expect: '"DONE"' } },
      { name: "default: insert order (Next route + Prisma)", group: "default", kind: "write", server: "app", rate: RATE.write, job: { method: "POST", path: "/bench/order", headers: benchHeaders, body: form({ phone: "+79160000001", street: "ул. Ленина", house: "1" }), expect: '"DONE"' } },
      { name: "GET /api/order", group: "ours", kind: "read", server: "app", rate: RATE.read, job: { method: "GET", path: "/api/order", variants: uuidVariants(`/api/order?api_key=${key}&uuid=`, uuids), expect: '"DONE"' } },
      {
        name: "GET /api/order/pre_cost",
        group: "ours",
        kind: "read",
        server: "app",
        rate: RATE.read,
        job: { method: "GET", path: "/api/order/pre_cost", variants: Array.from({ length: 200 }, (_, i) => ({ path: `/api/order/pre_cost?api_key=${key}&way_points=${encodeURIComponent(pointsOf(i))}` })), expect: '"DONE"' },
      },
      {
        name: "GET /api/streets",
        group: "ours",
        kind: "read",
        server: "app",
        rate: RATE.read,
        lowRate: RATE.lowStreets,
        job: { method: "GET", path: "/api/streets", variants: words.map((w) => ({ path: `/api/streets?api_key=${key}&pattern=${encodeURIComponent(w)}` })), expect: '"DONE"' },
      },
      { name: "GET /api/drivers?code=", group: "ours", kind: "read", server: "app", rate: RATE.read, job: { method: "GET", path: `/api/drivers?api_key=${key}&code=${encodeURIComponent(prepared.callSign)}`, expect: '"DONE"' } },
    ];
    for (const t of targets) if (wanted(t.name)) measurements.push(await measure(t, base));

    if (wanted("console")) {
      log("  console");
      const c = await consoleScenario(app, uuids.slice(-M.liveChanges));
      const boardTarget: Target = {
        name: "console: order board (tRPC, 10,000 active)",
        group: "ours",
        kind: "console",
        server: "app",
        rate: RATE.board,
        job: { method: "GET", path: `/api/trpc/orders.board?input=${encodeURIComponent(JSON.stringify({ json: { filter: { group: "active" }, limit: 100 } }))}`, headers: { cookie: c.session.cookie }, expect: '"result"' },
      };
      const board = await measure(boardTarget, base);
      measurements.push(board);
      consoleResult = { activeOrders: M.activeOrders, boardLoad: c.board, live: c.live };
    }

    // Order creation: the address form, and the token form with a fresh token per request.
    if (wanted("POST /api/order")) {
      const addressForm = await measure(
          {
            name: "POST /api/order (address form)",
            group: "ours",
            kind: "write",
            server: "app",
            rate: RATE.write,
            job: { method: "POST", path: "/api/order", variants: Array.from({ length: 20_000 }, (_, i) => {
              const a = prepared.addresses[i % prepared.addresses.length]!;
              return { body: form({ api_key: key, phone: phoneOf(i), street: a.street, house: a.house }) };
            }), expect: '"DONE"' },
          },
          base,
        );
      measurements.push(addressForm);
      // Enough tokens for the token form: it runs about as fast as the address
      // form (a used-up token counts as a failure, never as throughput).
      const satTokens = Math.round(M.saturate * Math.min(3_000, Math.max(200, addressForm.saturation.rps * 2)));
      const rateTokens = Math.round(M.rate * RATE.write * 1.1);
      log(`  generating ${satTokens + rateTokens} price tokens`);
      const t0 = Date.now();
      const tokens = await pool(Array.from({ length: satTokens + rateTokens }, (_, i) => i), 16, async (i) => {
        const r = await json<{ status: string; response: { token: string } }>(fetch(`${app.url}/api/order/pre_cost?api_key=${key}&phone=${encodeURIComponent(phoneOf(100_000 + i))}&way_points=${encodeURIComponent(pointsOf(i))}`));
        if (r.status !== "DONE") throw new Error(`pre_cost: ${JSON.stringify(r)}`);
        return r.response.token;
      });
      log(`    ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      const tokenBody = (t: string) => ({ body: form({ api_key: key, token: t, moderation_required: "no" }) });
      measurements.push(
        await measure(
          {
            name: "POST /api/order (token form)",
            group: "ours",
            kind: "write",
            server: "app",
            rate: RATE.write,
            job: { method: "POST", path: "/api/order", expect: '"DONE"' },
            split: { saturate: tokens.slice(0, satTokens).map(tokenBody), rate: tokens.slice(satTokens).map(tokenBody) },
          },
          base,
        ),
      );

    }

    // The exchange: end-to-end latency first (an idle outbox), then load.
    if (wanted("exchange")) {
      log("  exchange");
      const session = await json<{ data: { token: string } }>(fetch(`${app.url}/exchange/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ data: { key: prepared.sellerKey } }) }));
      const xToken = session.data.token;
      const latency = await exchangeLatency(app, xToken, taker);
      const xBodies = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ body: JSON.stringify({ data: { id: `${tag}-${i}`, type: "order", attributes: exchangeAttributes() } }) }));
      const xm = await measure(
        {
          name: "POST /exchange/order",
          group: "ours",
          kind: "exchange",
          server: "app",
          rate: RATE.exchange,
          job: { method: "POST", path: "/exchange/order", headers: { "content-type": "application/json", authorization: `Bearer ${xToken}` }, expect: '"data"' },
          split: { saturate: xBodies(M.saturate * 1_500, "sat"), rate: xBodies(Math.round(M.rate * RATE.exchange * 1.2), "rate") },
        },
        base,
      );
      measurements.push(xm);
      exchange = { receivedLatency: latency };
    }
    memory = await memoryOf(app);
    if (heap) memory.heap = await heapSnapshot(app, kind);
  } finally {
    await work?.close();
    await limit.stop();
    await app.stop();
    await prepared.db.drop();
    await seller.stop();
    await taker.stop();
  }
  let profileSummary: DbResult["profile"];
  if (profile) {
    const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
    if (file) profileSummary = { file: path.relative(root, path.join(profileDir, file)), ...summarizeProfile(path.join(profileDir, file), root) };
  }
  return { db: kind, seconds: Math.round((Date.now() - started) / 1000), startMs: Math.round(app.readyMs), measurements, console: consoleResult, exchange, memory, profile: profileSummary };
}

async function main(): Promise<void> {
  if (fleet) {
    await ensureBuilt(distDir, log, { nextOnlyIfMissing: true });
    mkdirSync(outDir, { recursive: true });
    const fleetProfile = profile ? path.join(outDir, "profiles", "fleet") : undefined;
    if (fleetProfile) {
      rmSync(fleetProfile, { recursive: true, force: true });
      mkdirSync(fleetProfile, { recursive: true });
    }
    await runFleet({ short, outDir, distDir, log, vm, profileDir: fleetProfile, splitRounds: args.includes("--split-rounds"), twoInstances: args.includes("--two-instances"), noRounds: args.includes("--no-rounds"), soakSeconds: soakArg ? parseDuration(soakArg) : undefined, patienceSeconds: patienceArg ? parseDuration(patienceArg) : undefined, periodSeconds: periodArg ? parseDuration(periodArg) : undefined, startLimit: (url) => startLimit("postgres", { kind: "postgres", env: { DATABASE_URL: url } } as unknown as PreparedDb) });
    return;
  }
  if (soakArg) {
    await ensureBuilt(distDir, log);
    mkdirSync(outDir, { recursive: true });
    const ok = await runSoak({ seconds: parseDuration(soakArg), databases: dbArg ? databases : ["postgres"], outDir, distDir, log, load, vm, resetPeak, prepare });
    if (!ok) process.exit(2);
    return;
  }
  // The routing benchmark needs neither a server nor a database.
  const routing = wanted("routing") ? benchRouting({ short, log }) : undefined;
  // The reports need PostgreSQL but no server: a month of generated orders, each report timed.
  const reportsArg = args.find((a) => a.startsWith("--report-orders="))?.slice(16);
  const reports = wanted("reports") && databases.includes("postgres") ? await benchReports({ short, log, ...(reportsArg ? { orders: Number(reportsArg) } : {}) }) : undefined;
  const serverTargets = !only || only.some((part) => part !== "routing" && part !== "reports");
  if (serverTargets) await ensureBuilt(distDir, log);
  mkdirSync(outDir, { recursive: true });
  const results: DbResult[] = [];
  if (serverTargets) for (const kind of databases) results.push(await benchDatabase(kind));
  const result: BenchResult = {
    at: new Date().toISOString(),
    mode: short ? "short" : "full",
    machine: { cpus: (await import("node:os")).cpus().length, node: process.version, serverNode: (await import("node:child_process")).execFileSync(serverNode, ["--version"], { encoding: "utf8" }).trim(), loadAverage: (await import("node:os")).loadavg().map((l) => Number(l.toFixed(2))) },
    connections: M.connections,
    durations: { saturate: M.saturate, rate: M.rate },
    databases: results,
    ...(routing ? { routing } : {}),
    ...(reports ? { reports } : {}),
  };
  const files = writeReport(result, outDir);
  console.log(readFileSync(files.md, "utf8"));
  log(`written: ${files.json}, ${files.md}, ${files.svg}`);
}

main()
  .then(() => {
    rmSync(jobDir, { recursive: true, force: true });
    process.exit(0);
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
