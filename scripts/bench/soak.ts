// `npm run bench -- --soak=10m`: a mixed steady load for a long time — the
// dispatch API (order information, estimates, order creation), the exchange
// (registrations, delivered to a taker) and open consoles (the board, live
// streams) — with the server's memory and each load's p99 sampled every
// minute. A leak shows as a rising trend; the soak fails on one. The report
// (bench-results/soak-<time>.{json,md,svg}, latest-soak.*) plots both.
import { writeFileSync, copyFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { TestDb } from "../../tests/support/server";
import type { Receiver } from "../../tests/support/exchange/receiver";
import { startReceiver } from "../../tests/support/exchange/receiver";
import { signInApi } from "../../e2e/support/console-api";
import type { LoadJob, LoadResult } from "./load";
import { scrapeMetrics, startBenchServer, type BenchServer } from "./server";

export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`--soak=${text}: a duration such as 10m, 90s or 1h`);
  return Math.round(Number(m[1]) * (m[2] === "h" ? 3600 : m[2] === "s" ? 1 : 60));
}

interface Prepared {
  db: { env: Record<string, string>; drop: () => Promise<void> };
  activeUuids: string[];
  addresses: Array<{ street: string; house: string }>;
  center: { lat: number; lon: number };
  sellerKey: string;
}

export interface SoakContext {
  seconds: number;
  databases: TestDb[];
  outDir: string;
  distDir: string;
  log: (m: string) => void;
  load: (job: LoadJob) => Promise<LoadResult>;
  vm: (pid: number | undefined, field: "VmHWM" | "VmRSS") => number | undefined;
  resetPeak: (pid: number | undefined) => void;
  prepare: (kind: TestDb, receivers: { seller: Receiver; taker: Receiver }) => Promise<Prepared>;
}

/** The steady load, per second: what a busy city's day asks of one instance, well under saturation on two cores. */
const MIX = { read: 100, estimate: 50, create: 20, exchange: 10, board: 5 };
/** Open consoles (live streams) of the one operator the soak signs in as: the per-operator limit (server/trpc/limits.ts). */
const CONSOLES = 8;
const SAMPLE_SECONDS = 60;

export interface Minute {
  minute: number;
  rssMb: number;
  /** The smallest V8 heap seen in the minute (sampled every 5 s): close to what survives a collection, so a leak shows through the garbage. */
  heapUsedMb: number;
  externalMb: number;
  p99: Record<string, number>;
  rps: Record<string, number>;
  failed: number;
  liveStreams: number;
}

export interface SoakDb {
  db: TestDb;
  minutes: Minute[];
  verdict: { ok: boolean; reasons: string[]; rssSlopeMbPerMin: number; heapSlopeMbPerMin: number };
}

/** Least-squares slope of y over x = 0, 1, 2 ... */
function slope(ys: number[]): number {
  const n = ys.length;
  if (n < 2) return 0;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

/**
 * A leak is a steady rise after the warm-up (the first minute, and the first
 * quarter of a long soak: caches and the JIT settle): the fitted slope of the
 * resident set or of the V8 heap above 1% of its mean per minute and 2 MB
 * per minute; a p99 that rises likewise (its slope above 5% of its median
 * per minute, and the last minute at over twice the first measured one).
 */
/**
 * The smallest V8 heap the server's metrics show while `work` runs, sampled
 * every 5 s: a single sample lands anywhere in a collection's cycle, the
 * smallest is close to what survives one, so a leak shows through the garbage.
 */
export async function heapFloorWhile<T>(metricsUrl: string, work: Promise<T>): Promise<{ value: T; heapFloorBytes: number }> {
  let heapFloorBytes = Infinity;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const heap = (await scrapeMetrics(metricsUrl)).get("nodejs_heap_size_used_bytes");
      if (heap !== undefined) heapFloorBytes = Math.min(heapFloorBytes, heap);
      await new Promise((r) => setTimeout(r, 5_000));
    }
  })();
  try {
    return { value: await work, heapFloorBytes };
  } finally {
    sampling = false;
    await sampler;
  }
}

export function judge(minutes: Minute[]): SoakDb["verdict"] {
  const skip = Math.max(1, Math.floor(minutes.length / 4));
  const steady = minutes.slice(skip);
  const reasons: string[] = [];
  if (steady.length < 4) return { ok: true, reasons: [`too short to judge a trend (${steady.length} minutes after the warm-up; 4 needed)`], rssSlopeMbPerMin: slope(steady.map((m) => m.rssMb)), heapSlopeMbPerMin: slope(steady.map((m) => m.heapUsedMb)) };
  const rss = steady.map((m) => m.rssMb);
  const heap = steady.map((m) => m.heapUsedMb);
  const rssSlope = slope(rss);
  const heapSlope = slope(heap);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
  if (steady.length >= 2) {
    if (rssSlope > Math.max(2, mean(rss) * 0.01)) reasons.push(`resident memory rises ${rssSlope.toFixed(1)} MB/min`);
    if (heapSlope > Math.max(2, mean(heap) * 0.01)) reasons.push(`V8 heap rises ${heapSlope.toFixed(1)} MB/min`);
    for (const kind of Object.keys(steady[0]!.p99)) {
      const ys = steady.map((m) => m.p99[kind] ?? 0);
      const sorted = [...ys].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
      const s = slope(ys);
      if (s > Math.max(1, median * 0.05) && ys.at(-1)! > 2 * Math.max(ys[0]!, 1)) reasons.push(`${kind} p99 rises ${s.toFixed(1)} ms/min (${ys[0]} → ${ys.at(-1)} ms)`);
    }
  }
  return { ok: reasons.length === 0, reasons, rssSlopeMbPerMin: rssSlope, heapSlopeMbPerMin: heapSlope };
}

async function soakDatabase(kind: TestDb, ctx: SoakContext): Promise<SoakDb> {
  const { log } = ctx;
  const seller = await startReceiver();
  const taker = await startReceiver();
  const prepared = await ctx.prepare(kind, { seller, taker });
  let app: BenchServer | undefined;
  const minutes: Minute[] = [];
  const controller = new AbortController();
  try {
    app = await startBenchServer({ ...prepared.db.env, RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0", AUTH_RATE_PER_ADDRESS: "0", LOG_LEVEL: "error", EXCHANGE_CHECK_SECONDS: "0", NEXT_DIST_DIR: ctx.distDir });
    const a = app;
    log(`${kind}: server ready in ${(a.readyMs / 1000).toFixed(1)} s; soaking for ${ctx.seconds} s`);
    const key = a.apiKey;
    const session = await signInApi(a.url, a.adminEmail, a.adminPassword);
    const xs = await (await fetch(`${a.url}/exchange/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ data: { key: prepared.sellerKey } }) })).json() as { data: { token: string } };
    // Open consoles: live streams held for the whole soak (read and dropped).
    for (let i = 0; i < CONSOLES; i++) {
      void fetch(`${a.url}/api/trpc/live.events`, { headers: { cookie: session.cookie, accept: "text/event-stream" }, signal: controller.signal })
        .then(async (res) => {
          const reader = res.body?.getReader();
          while (reader && !(await reader.read()).done);
        })
        .catch(() => undefined);
    }
    const { lat, lon } = prepared.center;
    const run = randomBytes(3).toString("hex");
    const rounds = Math.max(1, Math.round(ctx.seconds / SAMPLE_SECONDS));
    for (let minute = 0; minute < rounds; minute++) {
      const n = (rate: number) => Math.ceil(rate * SAMPLE_SECONDS * 1.3);
      const base = { url: a.url, connections: 4, duration: SAMPLE_SECONDS };
      const jobs: Record<string, LoadJob> = {
        "GET /api/order": { ...base, method: "GET", path: "/api/order", overallRate: MIX.read, expect: '"DONE"', variants: prepared.activeUuids.slice(0, 1000).map((u) => ({ path: `/api/order?api_key=${key}&uuid=${u}` })) },
        "GET /api/order/pre_cost": {
          ...base, method: "GET", path: "/api/order/pre_cost", overallRate: MIX.estimate, expect: '"DONE"',
          variants: Array.from({ length: 200 }, (_, i) => ({ path: `/api/order/pre_cost?api_key=${key}&way_points=${encodeURIComponent(JSON.stringify([prepared.addresses[i % prepared.addresses.length], { latitude: lat + ((i % 50) - 25) / 1000, longitude: lon + ((i % 40) - 20) / 1000 }]))}` })),
        },
        "POST /api/order": {
          ...base, method: "POST", path: "/api/order", overallRate: MIX.create, expect: '"DONE"',
          variants: Array.from({ length: n(MIX.create) }, (_, i) => {
            const addr = prepared.addresses[i % prepared.addresses.length]!;
            return { body: new URLSearchParams({ api_key: key, phone: `+7927${String(minute * 10_000 + i).padStart(7, "0")}`, street: addr.street, house: addr.house, moderation_required: "no" }).toString() };
          }),
        },
        "POST /exchange/order": {
          ...base, method: "POST", path: "/exchange/order", overallRate: MIX.exchange, expect: '"data"', headers: { "content-type": "application/json", authorization: `Bearer ${xs.data.token}` },
          variants: Array.from({ length: n(MIX.exchange) }, (_, i) => ({ body: JSON.stringify({ data: { id: `soak-${run}-${minute}-${i}`, type: "order", attributes: { client: { phone: "79161234567", name: "Иван" }, from: { street: "ул. Ленина", house: "1", latitude: lat, longitude: lon }, carClass: 1, fare: 350 } } }) })),
        },
        "console board": { ...base, method: "GET", path: `/api/trpc/orders.board?input=${encodeURIComponent(JSON.stringify({ json: { filter: { group: "active" }, limit: 100 } }))}`, headers: { cookie: session.cookie }, overallRate: MIX.board, expect: '"result"', connections: 2 },
      };
      const names = Object.keys(jobs);
      const { value: results, heapFloorBytes } = await heapFloorWhile(a.metricsUrl, Promise.all(names.map((name) => ctx.load(jobs[name]!))));
      const metrics = await scrapeMetrics(a.metricsUrl);
      const mb = (name: string) => Math.round((metrics.get(name) ?? 0) / (1024 * 1024));
      const sample: Minute = {
        minute: minute + 1,
        rssMb: ctx.vm(a.process.pid, "VmRSS") ?? mb("process_resident_memory_bytes"),
        heapUsedMb: Math.round(Math.min(heapFloorBytes, metrics.get("nodejs_heap_size_used_bytes") ?? Infinity) / (1024 * 1024)),
        externalMb: mb("nodejs_external_memory_bytes"),
        p99: Object.fromEntries(names.map((name, i) => [name, results[i]!.latency.p99])),
        rps: Object.fromEntries(names.map((name, i) => [name, Math.round(results[i]!.rps)])),
        failed: results.reduce((s, r) => s + r.bad, 0),
        liveStreams: metrics.get("taxi_live_streams_open") ?? 0,
      };
      minutes.push(sample);
      log(`  minute ${sample.minute}: RSS ${sample.rssMb} MB, heap ${sample.heapUsedMb} MB, outside ${sample.externalMb} MB; p99 ${names.map((k) => `${k.replace(/^(GET|POST) /, "")} ${sample.p99[k]}`).join(", ")} ms; failed ${sample.failed}; streams ${sample.liveStreams}`);
      // Taker-side notifications pile up in the receiver's memory: keep it bounded.
      taker.received.length = 0;
      seller.received.length = 0;
    }
  } finally {
    controller.abort();
    await app?.stop();
    await prepared.db.drop();
    await seller.stop();
    await taker.stop();
  }
  const verdict = judge(minutes);
  log(`${kind}: ${verdict.ok ? (verdict.reasons[0] ?? "flat") : `RISING: ${verdict.reasons.join("; ")}`} (RSS ${verdict.rssSlopeMbPerMin.toFixed(2)} MB/min, heap ${verdict.heapSlopeMbPerMin.toFixed(2)} MB/min)`);
  return { db: kind, minutes, verdict };
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** Two panels per database: memory (RSS, V8 heap, outside the heap) and p99 of each load, per minute. */
export function chart(results: SoakDb[], at: string): string {
  const W = 460;
  const H = 220;
  const pad = { l: 50, t: 30, b: 30 };
  const colors = ["#2b7bd9", "#d9822b", "#3a9d5d", "#b23c8f", "#777"];
  const out: string[] = [];
  const width = 2 * W + 40;
  const height = results.length * (H + 40) + 40;
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="8" y="18" font-size="14" font-weight="bold">${esc(`Soak ${at.slice(0, 16)}: memory and p99 per minute`)}</text>`);
  results.forEach((r, row) => {
    const y0 = 40 + row * (H + 40);
    const panel = (x0: number, title: string, series: Array<{ name: string; ys: number[] }>, unit: string) => {
      const n = Math.max(...series.map((s) => s.ys.length), 2);
      const max = Math.max(1, ...series.flatMap((s) => s.ys)) * 1.1;
      const X = (i: number) => x0 + pad.l + (i / (n - 1)) * (W - pad.l - 20);
      const Y = (v: number) => y0 + pad.t + (1 - v / max) * (H - pad.t - pad.b);
      out.push(`<text x="${x0 + pad.l}" y="${y0 + 18}" font-weight="bold">${esc(`${r.db === "pglite" ? "PGlite" : "PostgreSQL"}: ${title}`)}</text>`);
      out.push(`<line x1="${x0 + pad.l}" y1="${Y(0)}" x2="${x0 + W - 20}" y2="${Y(0)}" stroke="#999"/><line x1="${x0 + pad.l}" y1="${Y(0)}" x2="${x0 + pad.l}" y2="${Y(max)}" stroke="#999"/>`);
      for (const f of [0, 0.5, 1]) out.push(`<text x="${x0 + 4}" y="${Y(max * f / 1.1) + 4}">${Math.round((max * f) / 1.1)} ${unit}</text>`);
      out.push(`<text x="${x0 + W / 2}" y="${y0 + H - 6}">minute (1–${n})</text>`);
      series.forEach((s, i) => {
        const c = colors[i % colors.length];
        out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${s.ys.map((v, j) => `${X(j).toFixed(1)},${Y(v).toFixed(1)}`).join(" ")}"/>`);
        out.push(`<text x="${x0 + W - 150}" y="${y0 + pad.t + 12 * i}" fill="${c}">${esc(s.name)}</text>`);
      });
    };
    panel(0, `memory${r.verdict.ok ? " (flat)" : " (RISING)"}`, [
      { name: "RSS", ys: r.minutes.map((m) => m.rssMb) },
      { name: "V8 heap (floor)", ys: r.minutes.map((m) => m.heapUsedMb) },
      { name: "outside the heap", ys: r.minutes.map((m) => m.externalMb) },
    ], "MB");
    const kinds = Object.keys(r.minutes[0]?.p99 ?? {});
    panel(W + 20, "p99 per load", kinds.map((k) => ({ name: k, ys: r.minutes.map((m) => m.p99[k] ?? 0) })), "ms");
  });
  out.push("</svg>");
  return out.join("\n");
}

export async function runSoak(ctx: SoakContext): Promise<boolean> {
  const at = new Date().toISOString();
  const results: SoakDb[] = [];
  for (const kind of ctx.databases) results.push(await soakDatabase(kind, ctx));
  const lines: string[] = [`Soak ${at}: ${ctx.seconds} s per database; load per second: ${Object.entries(MIX).map(([k, v]) => `${k} ${v}`).join(", ")}; ${CONSOLES} open live streams`, ""];
  for (const r of results) {
    const kinds = Object.keys(r.minutes[0]?.p99 ?? {});
    lines.push(`### ${r.db}: ${r.verdict.ok ? (r.verdict.reasons[0] ?? "flat") : `**rising**: ${r.verdict.reasons.join("; ")}`} (RSS ${r.verdict.rssSlopeMbPerMin.toFixed(2)} MB/min, heap ${r.verdict.heapSlopeMbPerMin.toFixed(2)} MB/min after the warm-up)`, "");
    lines.push(`| minute | RSS MB | heap MB (floor) | outside heap MB | ${kinds.map((k) => `${k} p99 ms`).join(" | ")} | failed |`, `|---:|---:|---:|---:|${kinds.map(() => "---:").join("|")}|---:|`);
    for (const m of r.minutes) lines.push(`| ${m.minute} | ${m.rssMb} | ${m.heapUsedMb} | ${m.externalMb} | ${kinds.map((k) => `${m.p99[k]} (${m.rps[k]}/s)`).join(" | ")} | ${m.failed || ""} |`);
    lines.push("");
  }
  const stamp = at.replace(/[:.]/g, "-");
  const files = { json: path.join(ctx.outDir, `soak-${stamp}.json`), md: path.join(ctx.outDir, `soak-${stamp}.md`), svg: path.join(ctx.outDir, `soak-${stamp}.svg`) };
  writeFileSync(files.json, JSON.stringify({ at, seconds: ctx.seconds, mix: MIX, consoles: CONSOLES, results }, null, 2));
  writeFileSync(files.md, lines.join("\n"));
  writeFileSync(files.svg, chart(results, at));
  for (const ext of ["json", "md", "svg"] as const) copyFileSync(files[ext], path.join(ctx.outDir, `latest-soak.${ext}`));
  console.log(lines.join("\n"));
  ctx.log(`written: ${files.md}, ${files.svg}`);
  return results.every((r) => r.verdict.ok);
}
