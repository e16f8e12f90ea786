// The benchmark's output: the JSON result, a short Markdown table with the
// goals of docs/performance.md checked, and an SVG chart of throughput and
// latency. Files: bench-results/bench-<time>.{json,md,svg} and latest.*.
import { copyFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { LoadResult } from "./load";
import type { RoutingResult } from "./routing";
import { REPORTS_FULL_ORDERS, REPORTS_GOAL_MS, type ReportsResult } from "./reports";

export interface Sample {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export interface Measurement {
  name: string;
  group: "limit" | "default" | "ours";
  kind: "read" | "write" | "exchange" | "console";
  saturation: LoadResult;
  fixedRate: LoadResult & { rate: number };
  lowRate?: LoadResult & { rate: number };
  peakMemoryMb?: number;
  /** PostgreSQL: statements the server sent per request served at saturation, deliveries it caused included (scripts/bench/db-work.ts). */
  dbStatementsPerRequest?: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  byArea: Array<{ area: string; ms: number; share: number }>;
  top: Array<{ fn: string; where: string; ms: number; share: number }>;
}

export interface DbResult {
  db: "pglite" | "postgres";
  seconds: number;
  measurements: Measurement[];
  console?: { activeOrders: number; boardLoad: Sample; live: Sample & { consoles: number; changes: number; missed: number } };
  exchange?: { receivedLatency: Sample & { postP50: number } };
  profile?: ProfileSummary;
  /** Milliseconds from the server's spawn to its first answer. */
  startMs?: number;
  /** What the server held at the end of the run (docs/performance.md, memory). */
  memory?: { rssMb?: number; peakMb?: number; heapUsedMb: number; heapTotalMb: number; externalMb: number; caches: Record<string, number>; heap?: { file: string; totalMb: number; top: Array<{ what: string; mb: number; count: number }> } };
}

export interface BenchResult {
  at: string;
  mode: "short" | "full";
  machine: { cpus: number; node: string; serverNode?: string; loadAverage?: number[] };
  connections: number;
  durations: { saturate: number; rate: number };
  databases: DbResult[];
  routing?: RoutingResult;
  reports?: ReportsResult;
  goals?: Goal[];
}

export interface Goal {
  db: string;
  goal: string;
  value: string;
  met: boolean;
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? "–" : n.toFixed(digits));

function limitOf(r: DbResult, kind: "read" | "write"): Measurement | undefined {
  return r.measurements.find((m) => m.group === "limit" && m.kind === kind);
}

function defaultOf(r: DbResult, kind: "read" | "write"): Measurement | undefined {
  return r.measurements.find((m) => m.group === "default" && m.kind === kind);
}

/** The limit a target is compared with: reads (and the console's board) with the limit's read, writes (and exchange registrations) with its insert. */
function ratio(r: DbResult, m: Measurement): number | undefined {
  const limit = limitOf(r, m.kind === "read" || m.kind === "console" ? "read" : "write");
  return limit && limit.saturation.rps > 0 ? m.saturation.rps / limit.saturation.rps : undefined;
}

export function checkGoals(result: BenchResult): Goal[] {
  const goals: Goal[] = [];
  const route = result.routing?.targets[0];
  if (route) {
    // docs/performance.md: an estimate or a dispatch decision may not wait for routing.
    goals.push({ db: "routing", goal: "routes along the roads: ≥ 1,000/s on one core", value: `${route.perSecond}/s`, met: route.perSecond >= 1_000 });
    goals.push({ db: "routing", goal: "routes along the roads: p99 < 10 ms", value: `${route.latencyMs.p99} ms`, met: route.latencyMs.p99 < 10 });
  }
  if (result.reports) {
    // Issue 29: a month of a city with a million orders, each report within 2 s on PostgreSQL (short mode: fewer orders, same goal).
    const rep = result.reports;
    for (const t of rep.targets) {
      const scale = rep.orders === REPORTS_FULL_ORDERS ? "1,000,000" : rep.orders.toLocaleString("en");
      goals.push({ db: "postgres", goal: `report ${t.name}: a month of ${scale} orders ≤ ${REPORTS_GOAL_MS / 1000} s`, value: `${t.latencyMs.p50} ms (first ${t.firstMs} ms)`, met: t.latencyMs.p50 <= REPORTS_GOAL_MS });
    }
  }
  for (const r of result.databases) {
    const reads = r.measurements.filter((m) => m.group === "ours" && m.kind === "read");
    const def = defaultOf(r, "read");
    for (const m of reads) {
      const share = ratio(r, m) ?? 0;
      goals.push({ db: r.db, goal: `${m.name}: ≥ 50% of the limit's throughput`, value: `${fmt(share * 100)}%`, met: share >= 0.5 });
      if (def) {
        const x = m.saturation.rps / Math.max(def.saturation.rps, 1e-9);
        goals.push({ db: r.db, goal: `${m.name}: ≥ 5× the default way`, value: `${fmt(x, 1)}×`, met: x >= 5 });
      }
      const p99 = m.fixedRate.latency.p99;
      goals.push({ db: r.db, goal: `${m.name}: p99 < 20 ms at ${m.fixedRate.rate}/s`, value: `${p99} ms (${fmt(m.fixedRate.rps)}/s served)`, met: p99 < 20 && m.fixedRate.rps >= m.fixedRate.rate * 0.95 });
      if (m.lowRate) {
        goals.push({ db: r.db, goal: `${m.name}: p99 < 5 ms (one client, ${m.lowRate.rate}/s; 10,000 streets)`, value: `${m.lowRate.latency.p99} ms`, met: m.lowRate.latency.p99 < 5 });
      }
    }
    if (r.db === "postgres") {
      for (const m of r.measurements.filter((x) => x.group === "ours" && x.kind === "write")) {
        goals.push({ db: r.db, goal: `${m.name}: ≥ 500/s`, value: `${fmt(m.saturation.rps)}/s`, met: m.saturation.rps >= 500 });
        goals.push({ db: r.db, goal: `${m.name}: p99 < 50 ms at 500/s`, value: `${m.fixedRate.latency.p99} ms (${fmt(m.fixedRate.rps)}/s served)`, met: m.fixedRate.latency.p99 < 50 && m.fixedRate.rps >= 475 });
      }
    }
    // Issue 18's goals: the exchange's registration, the console's board, order creation, memory.
    for (const m of r.measurements.filter((x) => x.group === "ours" && x.kind === "exchange")) {
      const share = ratio(r, m) ?? 0;
      goals.push({ db: r.db, goal: `${m.name}: ≥ 25% of the limit's insert`, value: `${fmt(share * 100)}% (${fmt(m.saturation.rps)}/s)`, met: share >= 0.25 });
      goals.push({ db: r.db, goal: `${m.name}: p99 < 50 ms at ${m.fixedRate.rate}/s`, value: `${m.fixedRate.latency.p99} ms (${fmt(m.fixedRate.rps)}/s served)`, met: m.fixedRate.latency.p99 < 50 && m.fixedRate.rps >= m.fixedRate.rate * 0.95 });
    }
    for (const m of r.measurements.filter((x) => x.group === "ours" && x.kind === "console")) {
      const share = ratio(r, m) ?? 0;
      goals.push({ db: r.db, goal: `${m.name}: ≥ 10% of the limit's read`, value: `${fmt(share * 100)}% (${fmt(m.saturation.rps)}/s)`, met: share >= 0.1 });
      goals.push({ db: r.db, goal: `${m.name}: p99 < 100 ms at ${m.fixedRate.rate}/s`, value: `${m.fixedRate.latency.p99} ms`, met: m.fixedRate.latency.p99 < 100 });
    }
    for (const m of r.measurements.filter((x) => x.group === "ours" && x.name.startsWith("POST /api/order (address"))) {
      const share = ratio(r, m) ?? 0;
      goals.push({ db: r.db, goal: `${m.name}: ≥ 50% of the limit's insert`, value: `${fmt(share * 100)}%`, met: share >= 0.5 });
    }
    if (r.db === "postgres") {
      const peak = Math.max(...r.measurements.filter((x) => x.group !== "limit").map((x) => x.peakMemoryMb ?? 0));
      if (peak > 0) goals.push({ db: r.db, goal: "the server's peak memory during the benchmark ≤ 350 MB", value: `${peak} MB`, met: peak <= 350 });
    }
    if (r.exchange) {
      const x = r.exchange.receivedLatency;
      goals.push({ db: r.db, goal: "exchange: POST /exchange/order → on/order/received p50 < 50 ms", value: `${fmt(x.p50)} ms (p99 ${fmt(x.p99)} ms)`, met: x.p50 < 50 });
    }
    if (r.console) {
      goals.push({ db: r.db, goal: `console: board with ${r.console.activeOrders} active orders loads < 1 s`, value: `max ${fmt(r.console.boardLoad.max)} ms (p50 ${fmt(r.console.boardLoad.p50)} ms)`, met: r.console.boardLoad.max < 1000 });
      const l = r.console.live;
      goals.push({ db: r.db, goal: `console: a status change reaches every open console (${l.consoles}) < 1 s`, value: `max ${fmt(l.max)} ms (p50 ${fmt(l.p50, 1)} ms, missed ${l.missed})`, met: l.max < 1000 && l.missed === 0 });
    }
  }
  return goals;
}

function table(result: BenchResult): string {
  const lines: string[] = [];
  lines.push(`Benchmark ${result.at} (${result.mode} mode: ${result.durations.saturate} s saturation with ${result.connections} connections, ${result.durations.rate} s at a fixed rate; ${result.machine.cpus} cores, Node ${result.machine.node}${result.machine.serverNode && result.machine.serverNode !== result.machine.node ? `, the servers on Node ${result.machine.serverNode}` : ""}${result.machine.loadAverage ? `, load average at the end ${result.machine.loadAverage.join(" ")}` : ""})`, "");
  for (const r of result.databases) {
    lines.push(`### ${r.db === "pglite" ? "PGlite (embedded)" : "PostgreSQL"}`, "");
    if (r.startMs !== undefined) lines.push(`Start to ready: ${fmt(r.startMs / 1000, 1)} s (plain node on build/server/main.mjs).`, "");
    if (r.memory) {
      const m = r.memory;
      lines.push(`Memory at the end: RSS ${fmt(m.rssMb)} MB (peak ${fmt(m.peakMb)} MB); V8 heap ${fmt(m.heapUsedMb)} of ${fmt(m.heapTotalMb)} MB; outside the heap (WASM memories, buffers) ${fmt(m.externalMb)} MB; caches: ${Object.entries(m.caches).map(([k, v]) => `${k} ${v}`).join(", ") || "–"}.`, "");
    }
    lines.push("| target | req/s at saturation | vs limit | fixed rate | p50 ms | p99 ms | peak MB | failed | DB statements / request |");
    lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const m of r.measurements) {
      const share = ratio(r, m);
      const failed = m.saturation.bad + m.fixedRate.bad + (m.lowRate?.bad ?? 0);
      lines.push(`| ${m.name} | ${fmt(m.saturation.rps)} | ${share === undefined ? "" : `${fmt(share * 100)}%`} | ${m.fixedRate.rate}/s | ${m.fixedRate.latency.p50} | ${m.fixedRate.latency.p99} | ${fmt(m.peakMemoryMb)} | ${failed || ""} | ${m.dbStatementsPerRequest === undefined ? "" : fmt(m.dbStatementsPerRequest, 2)} |`);
      if (m.lowRate) lines.push(`| ${m.name}, one client | | | ${m.lowRate.rate}/s | ${m.lowRate.latency.p50} | ${m.lowRate.latency.p99} | | |`);
    }
    if (r.exchange) lines.push(`| exchange: POST → on/order/received at the taker (${r.exchange.receivedLatency.n} orders, one at a time) | | | | ${fmt(r.exchange.receivedLatency.p50)} | ${fmt(r.exchange.receivedLatency.p99)} | | |`);
    if (r.console) {
      lines.push(`| console: board + counts, ${r.console.activeOrders} active orders (${r.console.boardLoad.n} loads) | | | | ${fmt(r.console.boardLoad.p50)} | ${fmt(r.console.boardLoad.p99)} | | |`);
      lines.push(`| console: status change → ${r.console.live.consoles} open consoles (${r.console.live.changes} changes) | | | | ${fmt(r.console.live.p50, 1)} | ${fmt(r.console.live.p99, 1)} | | ${r.console.live.missed || ""} |`);
    }
    lines.push("");
  }
  if (result.routing) {
    const r = result.routing;
    lines.push(
      `### Routing (one core, no server): ${r.nodes} junctions, ${r.segments} segments; graph ${r.buildMs} ms, ${r.landmarks} landmarks ${r.landmarksMs} ms, ${r.graphMb} MB`,
      "",
      "| query | per second | p50 ms | p99 ms | junctions settled |",
      "|---|---:|---:|---:|---:|",
    );
    for (const t of r.targets) lines.push(`| ${t.name} | ${t.perSecond} | ${t.latencyMs.p50} | ${t.latencyMs.p99} | ${t.settled ?? ""} |`);
    lines.push("");
  }
  if (result.reports) {
    const r = result.reports;
    lines.push(
      `### Reports (PostgreSQL, no server): a month (${r.month}) of ${r.orders.toLocaleString("en")} orders of one city; ${r.rows.history.toLocaleString("en")} history rows, ${r.rows.offers.toLocaleString("en")} offers, ${r.rows.commission.toLocaleString("en")} commission entries, ${r.rows.ratings.toLocaleString("en")} ratings, ${r.rows.shifts.toLocaleString("en")} shifts; generated in ${r.generateSeconds} s`,
      "",
      "| report | first run ms | median ms | slowest ms | runs |",
      "|---|---:|---:|---:|---:|",
    );
    for (const t of r.targets) lines.push(`| ${t.name} | ${t.firstMs} | ${t.latencyMs.p50} | ${t.latencyMs.max} | ${t.latencyMs.n} |`);
    lines.push("");
  }
  const goals = result.goals ?? [];
  if (goals.length) {
    lines.push("### Goals", "", "| db | goal | value | met |", "|---|---|---|---|");
    for (const g of goals) lines.push(`| ${g.db} | ${g.goal} | ${g.value} | ${g.met ? "yes" : "**no**"} |`);
    lines.push("");
  }
  for (const r of result.databases) {
    const h = r.memory?.heap;
    if (!h) continue;
    lines.push(`### Heap snapshot, ${r.db} (${h.file}: ${fmt(h.totalMb, 1)} MB live)`, "", "| what | MB | count |", "|---|---:|---:|");
    for (const t of h.top.slice(0, 20)) lines.push(`| ${t.what.replace(/\|/g, "\\|")} | ${fmt(t.mb, 1)} | ${t.count} |`);
    lines.push("");
  }
  for (const r of result.databases) {
    if (!r.profile) continue;
    lines.push(`### CPU profile, ${r.db} (${r.profile.file}, ${fmt(r.profile.totalMs / 1000, 1)} s sampled)`, "");
    lines.push("| area | self time | share |", "|---|---:|---:|");
    for (const a of r.profile.byArea.slice(0, 12)) lines.push(`| ${a.area} | ${fmt(a.ms)} ms | ${fmt(a.share * 100, 1)}% |`);
    lines.push("", "| function | where | self time | share |", "|---|---|---:|---:|");
    for (const f of r.profile.top.slice(0, 20)) lines.push(`| ${f.fn} | ${f.where} | ${fmt(f.ms)} ms | ${fmt(f.share * 100, 1)}% |`);
    lines.push("");
  }
  return lines.join("\n");
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Two panels: throughput at saturation (bars, log-free), and p50/p99 at the fixed rate. */
function chart(result: BenchResult): string {
  const rows = result.databases.flatMap((r) => r.measurements.map((m) => ({ db: r.db, m })));
  const rowH = 18;
  const label = 330;
  const panelW = 330;
  const gap = 40;
  const top = 50;
  const height = top + rows.length * rowH + 40;
  const width = label + panelW * 2 + gap * 2;
  const maxRps = Math.max(...rows.map((r) => r.m.saturation.rps), 1);
  const maxLat = Math.max(...rows.map((r) => r.m.fixedRate.latency.p99), 1);
  const color = (g: Measurement["group"]) => (g === "limit" ? "#888" : g === "default" ? "#d9822b" : "#2b7bd9");
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="8" y="18" font-size="14" font-weight="bold">${esc(`Benchmark ${result.at.slice(0, 16)} (${result.mode})`)}</text>`);
  out.push(`<text x="${label}" y="40" font-weight="bold">requests/s at saturation (max ${Math.round(maxRps)})</text>`);
  out.push(`<text x="${label + panelW + gap}" y="40" font-weight="bold">latency at the fixed rate, ms: p50 (dark), p99 (light); max ${maxLat}</text>`);
  rows.forEach(({ db, m }, i) => {
    const y = top + i * rowH;
    out.push(`<text x="8" y="${y + 12}">${esc(`${db === "pglite" ? "PGlite" : "PG"} · ${m.name}`)}</text>`);
    const w = (m.saturation.rps / maxRps) * (panelW - 50);
    out.push(`<rect x="${label}" y="${y + 2}" width="${w.toFixed(1)}" height="${rowH - 5}" fill="${color(m.group)}"/>`);
    out.push(`<text x="${(label + w + 4).toFixed(1)}" y="${y + 12}">${Math.round(m.saturation.rps)}</text>`);
    const x0 = label + panelW + gap;
    const w99 = (m.fixedRate.latency.p99 / maxLat) * (panelW - 70);
    const w50 = (m.fixedRate.latency.p50 / maxLat) * (panelW - 70);
    out.push(`<rect x="${x0}" y="${y + 2}" width="${w99.toFixed(1)}" height="${rowH - 5}" fill="${color(m.group)}" opacity="0.35"/>`);
    out.push(`<rect x="${x0}" y="${y + 2}" width="${w50.toFixed(1)}" height="${rowH - 5}" fill="${color(m.group)}"/>`);
    out.push(`<text x="${(x0 + w99 + 4).toFixed(1)}" y="${y + 12}">${m.fixedRate.latency.p50} / ${m.fixedRate.latency.p99} @${m.fixedRate.rate}/s</text>`);
  });
  const ly = height - 14;
  out.push(`<rect x="8" y="${ly - 9}" width="10" height="10" fill="#888"/><text x="22" y="${ly}">limit (node:http + driver)</text>`);
  out.push(`<rect x="190" y="${ly - 9}" width="10" height="10" fill="#d9822b"/><text x="204" y="${ly}">default way (Next route handler + Prisma)</text>`);
  out.push(`<rect x="450" y="${ly - 9}" width="10" height="10" fill="#2b7bd9"/><text x="464" y="${ly}">ours</text>`);
  out.push("</svg>");
  return out.join("\n");
}

export function writeReport(result: BenchResult, dir: string): { json: string; md: string; svg: string } {
  result.goals = checkGoals(result);
  const stamp = result.at.replace(/[:.]/g, "-");
  const files = { json: path.join(dir, `bench-${stamp}.json`), md: path.join(dir, `bench-${stamp}.md`), svg: path.join(dir, `bench-${stamp}.svg`) };
  writeFileSync(files.json, JSON.stringify(result, null, 2));
  writeFileSync(files.md, table(result));
  writeFileSync(files.svg, chart(result));
  copyFileSync(files.json, path.join(dir, "latest.json"));
  copyFileSync(files.md, path.join(dir, "latest.md"));
  copyFileSync(files.svg, path.join(dir, "latest.svg"));
  return files;
}
