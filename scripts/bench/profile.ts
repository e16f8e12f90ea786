// Summarizes a V8 CPU profile (node --cpu-prof): self time by area (our
// code, Next, Prisma, PGlite, zod, node internals, ...) and the functions
// with the most self time.
//   tsx scripts/bench/profile.ts <file.cpuprofile>
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ProfileSummary } from "./report";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

function areaOf(url: string, fn: string): string {
  if (!url) return fn === "(garbage collector)" ? "garbage collector" : fn === "(idle)" ? "idle" : fn === "(program)" ? "V8 / native" : "native";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) {
    const pkg = m[1]!;
    if (pkg === "next" || pkg.startsWith("@next")) return "next";
    if (pkg.startsWith("@prisma") || pkg === "prisma") return "prisma";
    if (pkg.includes("pglite")) return "pglite";
    return pkg;
  }
  if (url.startsWith("node:")) return "node internals";
  // PostgreSQL: Prisma's query compiler; PGlite: also the database itself.
  if (url.startsWith("wasm:")) return "wasm (Prisma query compiler; PGlite)";
  if (url.includes("/server/generated/")) return "prisma (generated client)";
  const s = /\/(server|app|scripts)\/([^/]+)/.exec(url);
  if (s) return `${s[1]}/${s[2]}`;
  return "other";
}

// The server runs as one bundled file (build/server/main.mjs): its frames are
// mapped back to their TypeScript sources through the bundle's source map.
const maps = new Map<string, SourceMap | null>();
function original(url: string, line: number, column: number): { url: string; line: number } | undefined {
  if (!url.endsWith(".mjs") || !url.includes("/build/")) return undefined;
  if (!maps.has(url)) {
    const mapFile = `${url.startsWith("file:") ? fileURLToPath(url) : url}.map`;
    maps.set(url, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")) as ConstructorParameters<typeof SourceMap>[0]) : null);
  }
  const entry: { originalSource?: string; originalLine?: number } | undefined = maps.get(url)?.findEntry(line, column);
  if (!entry?.originalSource) return undefined;
  const source = entry.originalSource.startsWith("file:") ? fileURLToPath(entry.originalSource) : path.resolve(path.dirname(url.replace(/^file:\/\//, "")), entry.originalSource);
  return { url: source, line: entry.originalLine ?? 0 };
}

export function summarizeProfile(file: string, root: string): Omit<ProfileSummary, "file"> {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const selfUs = new Map<number, number>();
  if (profile.samples && profile.timeDeltas) {
    for (let i = 0; i < profile.samples.length; i++) {
      const id = profile.samples[i]!;
      selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  } else {
    const total = profile.endTime - profile.startTime;
    const hits = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0) || 1;
    for (const n of profile.nodes) selfUs.set(n.id, ((n.hitCount ?? 0) / hits) * total);
  }
  const byArea = new Map<string, number>();
  const byFn = new Map<string, { fn: string; where: string; us: number }>();
  let busy = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (us === 0) continue;
    const { functionName } = node.callFrame;
    const mapped = original(node.callFrame.url, node.callFrame.lineNumber, node.callFrame.columnNumber ?? 0);
    const url = mapped?.url ?? node.callFrame.url;
    const lineNumber = mapped?.line ?? node.callFrame.lineNumber;
    if (functionName === "(idle)") continue;
    busy += us;
    const area = areaOf(url, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const where = url ? `${path.relative(root, url.replace(/^file:\/\//, "")).replace(/^node_modules\//, "")}:${lineNumber + 1}` : "";
    const key = `${functionName}@${where}`;
    const entry = byFn.get(key) ?? { fn: functionName || "(anonymous)", where, us: 0 };
    entry.us += us;
    byFn.set(key, entry);
  }
  return {
    totalMs: busy / 1000,
    byArea: [...byArea.entries()].map(([area, us]) => ({ area, ms: us / 1000, share: us / busy })).sort((a, b) => b.ms - a.ms),
    top: [...byFn.values()].map((f) => ({ fn: f.fn, where: f.where, ms: f.us / 1000, share: f.us / busy })).sort((a, b) => b.ms - a.ms).slice(0, 40),
  };
}

if (process.argv[1] && /profile\.ts$/.test(process.argv[1])) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: profile.ts <file.cpuprofile>");
  const s = summarizeProfile(file, path.resolve(import.meta.dirname, "..", ".."));
  console.log(`busy ${(s.totalMs / 1000).toFixed(1)} s`);
  for (const a of s.byArea.slice(0, 15)) console.log(`${(a.share * 100).toFixed(1).padStart(5)}%  ${a.area}`);
  console.log("");
  for (const f of s.top.slice(0, 30)) console.log(`${(f.share * 100).toFixed(1).padStart(5)}%  ${f.fn}  ${f.where}`);
}
