// Fleet runs side by side (docs/performance.md, "A fleet of ten thousand"):
// `tsx scripts/bench/fleet-compare.ts "label=bench-results/fleet-<time>.json" ...`
// prints one Markdown table, a column per run, from the reports fleet.ts
// wrote, so the figures in the docs are the tools' own.
import { readFileSync } from "node:fs";
import type { FleetResult } from "./fleet";
import type { PacedResult } from "./fleet-stats";

type Run = Partial<FleetResult> & Pick<FleetResult, "at" | "drivers" | "positions" | "offers" | "rounds" | "streams" | "memory" | "loadAverage">;

const runs = process.argv.slice(2).map((arg) => {
  const eq = arg.indexOf("=");
  const label = eq > 0 ? arg.slice(0, eq) : arg;
  const file = eq > 0 ? arg.slice(eq + 1) : arg;
  return { label, file, r: JSON.parse(readFileSync(file, "utf8")) as Run };
});
if (runs.length === 0) throw new Error('usage: fleet-compare.ts "label=file.json" ...');

const paced = (p: PacedResult | undefined) => (p ? `${p.rps}/s; p50 ${p.latency.p50}, p99 ${p.latency.p99} ms; ${p.bad + p.errors} refused or failed` : "—");
const sat = (r: Run) => {
  const s = r.positions.saturation as { app: { rps: number }; limit: { rps: number } };
  return `${s.app.rps} / ${s.limit.rps}/s = ${Math.round((100 * s.app.rps) / s.limit.rps)}%`;
};
const rows: Array<[string, (r: Run) => string]> = [
  ["report", (r) => `fleet-${r.at.replace(/[:.]/g, "-")}`],
  ["dispatch's rounds", (r) => (r.splitRounds ? "in a second instance" : "in the phones' instance")],
  ["load average before → after (1 min)", (r) => `${r.loadAverage.before[0]} → ${r.loadAverage.after[0]}`],
  [`positions at the fleet's rate`, (r) => paced(r.positions.app)],
  ["the same, 20 consoles watching the live map", (r) => paced(r.consoles?.positions)],
  ["the limit (node:http + pg, one UPDATE), same rate", (r) => paced(r.positions.limit)],
  ["saturation, 64 concurrent: ours / the limit", sat],
  ["server CPU a report served (streams; rounds and offers when in the same instance)", (r) => (r.serverCpu ? `${r.serverCpu.app.msPerReport} ms` : "—")],
  ["the rounds' instance's CPU over the positions", (r) => (r.serverCpu && r.splitRounds ? `${r.serverCpu.rounds} s in ${r.positions.app.seconds} s` : "—")],
  ["the same with the consoles", (r) => (r.serverCpu ? `${r.serverCpu.consoles.msPerReport} ms` : "—")],
  ["a console's live map", (r) => (r.consoles ? `${r.consoles.watch.messagesPerSecond} messages/s, ${r.consoles.watch.carsPerMessage} cars each, ${r.consoles.watch.kbPerSecond} KB/s` : "—")],
  ["offer: creation → the phone", (r) => `${r.offers.n} offers, p50 ${r.offers.latency.p50}, p99 ${r.offers.latency.p99} ms`],
  ["dispatch rounds: whole round p50 / max; plan p50", (r) => `${r.rounds.seconds.p50} / ${r.rounds.seconds.max} ms; ${r.rounds.planSeconds.p50} ms (${r.rounds.n} rounds, last ${r.rounds.offers} offers)`],
  ["server memory per open stream; peak RSS", (r) => `${r.streams.kbPerStream} KB; ${r.memory.peakMb} MB`],
];
const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
console.log(line(["", ...runs.map((x) => x.label)]));
console.log(line(["---", ...runs.map(() => "---")]));
for (const [name, f] of rows) console.log(line([name, ...runs.map((x) => f(x.r))]));
