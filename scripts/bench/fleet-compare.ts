// Fleet runs side by side (docs/performance.md, "A fleet of ten thousand"):
// `tsx scripts/bench/fleet-compare.ts "label=bench-results/fleet-<time>.json" ...`
// prints one Markdown table, a column per run, from the reports fleet.ts
// wrote, so the figures in the docs are the tools' own.
import { readFileSync } from "node:fs";
import { offersByPhase, type FleetResult, type PhaseCpu } from "./fleet";
import type { PacedResult } from "./fleet-stats";
import { byLabelGroup, meanCi } from "./mean-ci";

type Run = Partial<FleetResult> & Pick<FleetResult, "at" | "drivers" | "positions" | "offers" | "rounds" | "streams" | "memory" | "loadAverage">;

/** --groups: also a table of each group's mean and 95% confidence interval (the runs whose labels agree before " (", e.g. "short, one (2)"). */
const groups = process.argv.includes("--groups");
/** --soak: only the soaks' minutes side by side (reports a second, p99, refused, resident memory, the V8 heap, streams open; the free orders of the minute's last round, where recorded). */
const soakOnly = process.argv.includes("--soak");
const runs = process.argv.slice(2).filter((a) => a !== "--groups" && a !== "--soak").map((arg) => {
  const eq = arg.indexOf("=");
  const label = eq > 0 ? arg.slice(0, eq) : arg;
  const file = eq > 0 ? arg.slice(eq + 1) : arg;
  return { label, file, r: JSON.parse(readFileSync(file, "utf8")) as Run };
});
if (runs.length === 0) throw new Error('usage: fleet-compare.ts "label=file.json" ...');

if (soakOnly) {
  const soaks = runs.filter((x) => x.r.soak);
  const withOrders = soaks.some((x) => x.r.soak!.minutes.some((m) => m.freeOrders !== undefined));
  const header = ["minute", ...soaks.flatMap((x) => [`${x.label}: reports/s`, "p99 ms", "refused", "RSS MB", "heap MB", "streams open", ...(withOrders ? ["free orders"] : [])])];
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---:").join("|")}|`);
  const minutes = Math.max(...soaks.map((x) => x.r.soak!.minutes.length));
  for (let m = 0; m < minutes; m++) {
    const cells = soaks.flatMap((x): string[] => {
      const row = x.r.soak!.minutes[m];
      const values = [row?.rps.position, row?.p99.position, row?.failed, row?.rssMb, row?.heapUsedMb, row?.liveStreams, ...(withOrders ? [row?.freeOrders] : [])];
      return values.map((v) => String(v ?? ""));
    });
    console.log(`| ${m + 1} | ${cells.join(" | ")} |`);
  }
  process.exit(0);
}

const paced = (p: PacedResult | undefined) => (p ? `${p.rps}/s; p50 ${p.latency.p50}, p99 ${p.latency.p99} ms; ${p.bad + p.errors} refused or failed` : "—");
const sat = (r: Run) => {
  const s = r.positions.saturation as { app: { rps: number }; limit: { rps: number } };
  return `${s.app.rps} / ${s.limit.rps}/s = ${Math.round((100 * s.app.rps) / s.limit.rps)}%`;
};
const perInstance = (p: PacedResult | undefined) =>
  p?.perInstance ? p.perInstance.map((x, k) => `${k + 1}: ${x.rps}/s, p50 ${x.latency.p50}, p99 ${x.latency.p99} ms`).join("; ") : "—";
/**
 * CPU seconds over a phase, each instance's and PostgreSQL's, and the
 * machine's busy cores (the CPU seconds of all its cores a wall second), of
 * which "others" is what none of the named processes used: other sessions'
 * work on the shared machine.
 */
const cpu = (c: PhaseCpu | undefined) => {
  if (!c) return "—";
  const others = c.machineBusy - c.instances.reduce((a, b) => a + b, 0) - c.generator - c.postgres;
  return `${c.instances.join(" + ")} s; PostgreSQL ${c.postgres} s; generator ${c.generator} s; machine ${(c.machineBusy / c.wallSeconds).toFixed(2)} of ${c.cores} cores busy, others ${(Math.max(0, others) / c.wallSeconds).toFixed(2)} (${c.wallSeconds} s)`;
};
const rows: Array<[string, (r: Run) => string]> = [
  ["report", (r) => `fleet-${r.at.replace(/[:.]/g, "-")}`],
  ["instances taking the phones", (r) => (r.twoInstances ? "two, half the fleet each" : "one")],
  ["dispatch's rounds", (r) => (r.noRounds ? "none (--no-rounds)" : r.splitRounds ? "in a second instance" : r.twoInstances ? "in the first instance" : "in the phones' instance")],
  ["load average before → after (1 min)", (r) => `${r.loadAverage.before[0]} → ${r.loadAverage.after[0]}`],
  [`positions at the fleet's rate`, (r) => paced(r.positions.app)],
  ["  by instance (--two-instances)", (r) => perInstance(r.positions.app)],
  ["the same, 20 consoles watching the live map", (r) => paced(r.consoles?.positions)],
  ["the limit (node:http + pg, one UPDATE), same rate", (r) => paced(r.positions.limit)],
  ["saturation, 64 concurrent: ours / the limit", sat],
  ["server CPU a report served (streams; rounds and offers when in the same instance)", (r) => (r.serverCpu ? `${r.serverCpu.app.msPerReport} ms` : "—")],
  ["the rounds' instance's CPU over the positions", (r) => (r.serverCpu && r.splitRounds ? `${r.serverCpu.rounds} s in ${r.positions.app.seconds} s` : "—")],
  ["the same with the consoles", (r) => (r.serverCpu ? `${r.serverCpu.consoles.msPerReport} ms` : "—")],
  ["database statements over the positions, a report served (positions, streams, rounds, offers, orders)", (r) => (r.statements ? `${r.statements.perReport} (${r.statements.positions}; the relay's NOTIFYs ${r.statements.relayNotifies})` : "—")],
  ["the application's CPU a report served, all its instances (rounds and offers included)", (r) =>
    r.cpu ? `${Math.round((r.cpu.positions.instances.reduce((a, b) => a + b, 0) * 100_000) / Math.max(1, r.positions.app.ok)) / 100} ms` : "—"],
  ["CPU over the positions: instance(s); PostgreSQL; generator; machine", (r) => cpu(r.cpu?.positions)],
  ["CPU over the positions with the consoles", (r) => cpu(r.cpu?.consoles)],
  ["CPU over the application's saturation (64 concurrent)", (r) => cpu(r.cpu?.saturation)],
  ["a console's live map", (r) => (r.consoles ? `${r.consoles.watch.messagesPerSecond} messages/s, ${r.consoles.watch.carsPerMessage} cars each, ${r.consoles.watch.kbPerSecond} KB/s` : "—")],
  ["offer: creation → the phone", (r) => `${r.offers.n} offers, p50 ${r.offers.latency.p50}, p99 ${r.offers.latency.p99} ms`],
  ["  of those, made during the positions' phase", (r) => (r.offers.duringPositions ? `${r.offers.duringPositions.n} offers, p50 ${r.offers.duringPositions.p50}, p90 ${r.offers.duringPositions.p90}, p99 ${r.offers.duringPositions.p99} ms` : "—")],
  ["  all, by the phase they were made in", (r) => (r.offers.byPhase ? offersByPhase(r.offers.byPhase) : "—")],
  ["  offers seen of those made, by the instance of the phone's stream (2: through the relay)", (r) =>
    r.offers.delivery
      ? r.offers.delivery
          .map((d, k) => {
            const unseen = d.unseen && d.seen < d.made ? ` (unseen now ${Object.entries(d.unseen.states).map(([state, n]) => `${state} ${n}`).join(", ")}; made p50 ${d.unseen.madeSecondsBeforeClose.p50} s before the close)` : "";
            return `${k + 1}: ${d.seen} of ${d.made}${unseen}, p50 ${d.latency.p50}, p99 ${d.latency.p99} ms`;
          })
          .join("; ")
      : "—"],
  ["dispatch rounds: whole round p50 / max; plan p50", (r) => `${r.rounds.seconds.p50} / ${r.rounds.seconds.max} ms; ${r.rounds.planSeconds.p50} ms (${r.rounds.n} rounds, last ${r.rounds.offers} offers)`],
  ["the rounds' phases p50 (ms): read / pool / arrival / assign / offers", (r) => {
    const p = r.rounds.phasesP50Ms;
    return p && Number.isFinite(p.offers) ? ["read", "pool", "arrival", "assign", "offers"].map((k) => p[k]).join(" / ") : "—";
  }],
  ["server memory per open stream; peak RSS", (r) => `${r.streams.kbPerStream} KB; ${r.memory.peakMb} MB${r.second ? ` (the second instance: ${r.second.streams.kbPerStream} KB; ${r.second.peakMb} MB)` : ""}`],
];
const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
console.log(line(["", ...runs.map((x) => x.label)]));
console.log(line(["---", ...runs.map(() => "---")]));
for (const [name, f] of rows) console.log(line([name, ...runs.map((x) => f(x.r))]));

if (groups) {
  const byGroup = byLabelGroup(runs);
  const figures: Array<[string, (r: Run) => number]> = [
    ["positions at the fleet's rate: served a second", (r) => r.positions.app.rps],
    ["  their p50 (ms)", (r) => r.positions.app.latency.p50],
    ["  their p99 (ms)", (r) => r.positions.app.latency.p99],
    ["saturation: ours / the limit (%)", (r) => {
      const s = r.positions.saturation as { app: { rps: number }; limit: { rps: number } };
      return (100 * s.app.rps) / s.limit.rps;
    }],
    ["saturation: ours (reports a second)", (r) => (r.positions.saturation as { app: { rps: number } }).app.rps],
    ["the application's CPU a report served, all its instances (ms)", (r) => (r.cpu ? (r.cpu.positions.instances.reduce((a, b) => a + b, 0) * 1000) / Math.max(1, r.positions.app.ok) : NaN)],
    ["PostgreSQL over the positions (cores)", (r) => (r.cpu ? r.cpu.positions.postgres / r.cpu.positions.wallSeconds : NaN)],
    ["the machine busy over the positions (cores)", (r) => (r.cpu ? r.cpu.positions.machineBusy / r.cpu.positions.wallSeconds : NaN)],
    ["the machine busy over the saturation (cores)", (r) => (r.cpu?.saturation ? r.cpu.saturation.machineBusy / r.cpu.saturation.wallSeconds : NaN)],
    ["offer → phone p50 (ms), the first instance's streams", (r) => r.offers.delivery?.[0]?.latency.p50 ?? r.offers.latency.p50],
    ["offer → phone p50 (ms), the second's (through the relay)", (r) => r.offers.delivery?.[1]?.latency.p50 ?? NaN],
    ["  the relay's part: the second's p50 − the first's, in the same run (ms)", (r) => (r.offers.delivery?.[1] ? r.offers.delivery[1].latency.p50 - r.offers.delivery[0]!.latency.p50 : NaN)],
    ["offers made during the positions' phase", (r) => r.offers.duringPositions?.n ?? NaN],
    ["  on the phone: p99 (ms)", (r) => r.offers.duringPositions?.p99 ?? NaN],
    ["dispatch rounds in the run", (r) => r.rounds.n],
    ["  a round, p50 (ms)", (r) => r.rounds.seconds.p50],
    ["  its offers, p50 (ms)", (r) => r.rounds.phasesP50Ms?.offers ?? NaN],
    ["  its plan, p50 (ms)", (r) => r.rounds.planSeconds.p50],
    ["offers seen of those made (%)", (r) => (r.offers.delivery ? (100 * r.offers.delivery.reduce((a, d) => a + d.seen, 0)) / Math.max(1, r.offers.delivery.reduce((a, d) => a + d.made, 0)) : NaN)],
  ];
  const names = [...byGroup.keys()];
  console.log("");
  console.log(line(["mean ± 95% CI", ...names]));
  console.log(line(["---", ...names.map(() => "---")]));
  for (const [name, f] of figures) console.log(line([name, ...names.map((g) => meanCi(byGroup.get(g)!.map(f)))]));
}
