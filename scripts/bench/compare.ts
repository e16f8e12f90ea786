// Benchmark runs side by side (docs/performance.md): 
// `tsx scripts/bench/compare.ts "before (1)=bench-results/bench-<time>.json" "after (1)=..." ...`
// prints one Markdown table, a column per group of runs (labels that agree
// before " (" are one group) and a row per figure of each target measured:
// requests a second at saturation, the share of the limit's in the same
// run, the p99 at the fixed rate and the statements a request, each as the
// mean and its 95% confidence interval. The figures in the docs are the
// tool's own, never copied by hand.
import { readFileSync } from "node:fs";
import type { BenchResult, Measurement } from "./report";
import { byLabelGroup, meanCi } from "./mean-ci";

const args = process.argv.slice(2);
const db = args.find((a) => a.startsWith("--db="))?.slice(5) ?? "postgres";
const runs = args
  .filter((a) => !a.startsWith("--"))
  .map((arg) => {
    const eq = arg.indexOf("=");
    if (eq <= 0) throw new Error(`"label=file.json" expected, got ${arg}`);
    const result = JSON.parse(readFileSync(arg.slice(eq + 1), "utf8")) as BenchResult;
    const measurements = result.databases.find((d) => d.db === db)?.measurements;
    if (!measurements) throw new Error(`${arg}: no ${db} results`);
    return { label: arg.slice(0, eq), r: new Map(measurements.map((m) => [m.name, m])) };
  });
if (runs.length === 0) throw new Error('usage: compare.ts [--db=postgres|pglite] "label (1)=file.json" ...');

/** The limit a target is set against: reads against its read, writes against its insert. */
function limitOf(m: Measurement): string | undefined {
  if (m.group === "limit") return undefined;
  return m.kind === "read" || m.kind === "console" ? "limit: read order (node:http + driver)" : "limit: insert order (node:http + driver)";
}

const groups = byLabelGroup(runs);
const names = [...groups.keys()];
const targets = [...new Set(runs.flatMap((x) => [...x.r.keys()]))];
const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
console.log(line(["", ...names]));
console.log(line(["---", ...names.map(() => "---")]));
for (const target of targets) {
  const of = (g: string) => groups.get(g)!.map((r) => r.get(target)).filter((m): m is Measurement => m !== undefined);
  const figure = (label: string, f: (m: Measurement, run: Map<string, Measurement>) => number) =>
    console.log(line([label, ...names.map((g) => meanCi(groups.get(g)!.flatMap((run) => (run.get(target) ? [f(run.get(target)!, run)] : []))))]));
  const sample = of(names[0]!)[0] ?? runs.map((x) => x.r.get(target)).find(Boolean)!;
  figure(`**${target}**: requests a second at saturation`, (m) => m.saturation.rps);
  const limit = limitOf(sample);
  if (limit) figure(`  of the limit's (${limit.includes("read") ? "read" : "insert"}) in the same run, %`, (m, run) => (100 * m.saturation.rps) / (run.get(limit)?.saturation.rps ?? NaN));
  figure(`  p99 at ${sample.fixedRate.rate}/s, ms`, (m) => m.fixedRate.latency.p99);
  if (sample.dbStatementsPerRequest !== undefined) figure("  database statements a request", (m) => m.dbStatementsPerRequest ?? NaN);
}
