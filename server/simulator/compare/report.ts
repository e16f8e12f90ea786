// The comparison's report: JSON (every estimate), Markdown (a summary table
// per load, then every policy's figures with 95 % confidence intervals) and
// an SVG chart of the mean wait of all orders across the loads with its
// intervals. The chart is a few lines and labels: written here rather than
// pulling a charting library into the server's dependencies for one picture.
// `summaryTable` is what scripts/simulate.ts writes into docs/dispatch.md
// between its markers, so the doc's figures are never copied by hand.
import type { Estimate } from "./metrics";
import type { CompareReport, LoadReport, PolicyEstimate } from "./run";

const min = (s: number) => (s / 60).toFixed(1);
const withCi = (e: Estimate, f: (x: number) => string) => (e.half > 0 ? `${f(e.mean)} ± ${f(e.half)}` : f(e.mean));
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const share = (part: Estimate, whole: Estimate) => pct(part.mean / Math.max(1, whole.mean));

function verdict(l: LoadReport): string {
  if (l.clearlyBetter) return "better than every baseline, intervals apart";
  if (l.behind) return `**behind ${l.bestBaseline}**`;
  const d = l.defaultVsBest;
  if (d.mean + d.half < 0) return `better than ${l.bestBaseline} (paired)`;
  return `no significant difference from ${l.bestBaseline}`;
}

/** One row per load: the best fair baseline, the production default, the paired difference. */
export function summaryTable(report: CompareReport): string {
  const out: string[] = [];
  out.push(
    `${report.seeds.length} seeds (${report.seeds[0]}–${report.seeds.at(-1)}), ${report.loads[0]?.minutes ?? 0} simulated minutes of orders per day, 95 % confidence intervals; wait = from the order to the car at the pickup, a lost order counting its passenger's patience and a cancelled one the time to the cancellation.`,
    "",
    "| load | drivers | orders/min | best fair baseline | its mean wait, all orders | production default | default's mean wait | default − baseline (paired) | verdict |",
    "|---|---:|---:|---|---:|---|---:|---:|---|",
  );
  for (const l of report.loads) {
    const best = l.policies.find((p) => p.policy === l.bestBaseline)!;
    const def = l.policies.find((p) => p.policy === "default")!;
    out.push(
      `| ${l.load} | ${l.drivers} | ${l.perMinute} | ${l.bestBaseline} | ${withCi(best.metrics.meanWaitAll, min)} min | default | ${withCi(def.metrics.meanWaitAll, min)} min | ${withCi(l.defaultVsBest, min)} min | ${verdict(l)} |`,
    );
  }
  return out.join("\n") + "\n";
}

/** Each candidate built on the default against it, per load: the paired difference of the mean wait of all orders. */
export function candidatesTable(report: CompareReport): string {
  const names = report.loads[0]?.candidates.map((c) => c.policy) ?? [];
  const out = [
    `${report.seeds.length} seeds (${report.seeds[0]}–${report.seeds.at(-1)}), ${report.loads[0]?.minutes ?? 0} simulated minutes of orders per day; the candidate's mean wait of all orders minus the production default's, paired by seed, 95 % intervals (negative: shorter waits).`,
    "",
    `| load | default's mean wait | ${names.map((n) => `${n} − default`).join(" | ")} |`,
    `|---|---:|${names.map(() => "---:|").join("")}`,
  ];
  for (const l of report.loads) {
    const def = l.policies.find((p) => p.policy === "default")!.metrics.meanWaitAll;
    const cells = l.candidates.map((c) => {
      const significant = c.vsDefault.mean + c.vsDefault.half < 0 ? "shorter" : c.vsDefault.mean - c.vsDefault.half > 0 ? "longer" : "no significant difference";
      return `${withCi(c.vsDefault, (x) => (x / 60).toFixed(2))} min (${((100 * c.vsDefault.mean) / def.mean).toFixed(1)} %; ${significant})`;
    });
    out.push(`| ${l.load} | ${withCi(def, (x) => (x / 60).toFixed(2))} min | ${cells.join(" | ")} |`);
  }
  return out.join("\n") + "\n";
}

function policyRows(l: LoadReport): string[] {
  const rows = [
    "| policy | mean wait, all | mean wait, served | p90 wait, all | lost | cancelled (long assigned wait) | empty km share | empty km | steering km | offers timed out | ₽/h per driver | earnings CV | Gini |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const sorted = [...l.policies].sort((a, b) => a.metrics.meanWaitAll.mean - b.metrics.meanWaitAll.mean);
  for (const p of sorted) {
    const m = p.metrics;
    const name = `${p.policy}${p.fair ? " (baseline)" : ""}`;
    rows.push(
      `| ${name} | ${withCi(m.meanWaitAll, min)} | ${withCi(m.meanWaitServed, min)} | ${min(m.p90WaitAll.mean)} | ${share(m.lost, m.orders)} | ${share(m.cancelled, m.orders)} | ${pct(m.emptyShare.mean)} | ${m.emptyKm.mean.toFixed(0)} | ${m.steeringKm.mean.toFixed(0)} | ${pct(m.timeoutShare.mean)} | ${withCi(m.earningsPerHour, (x) => x.toFixed(0))} | ${m.earningsCv.mean.toFixed(3)} | ${m.earningsGini.mean.toFixed(3)} |`,
    );
  }
  return rows;
}

export function markdown(report: CompareReport): string {
  const out: string[] = [];
  out.push("# Dispatch policies compared", "");
  out.push(
    `Generated by \`npm run simulate -- --compare${report.short ? " --short" : ""}\` in ${report.wallSeconds} s: the demo city's roads (${report.city.roadNodes} junctions; the central ${report.city.sideKm} × ${report.city.sideKm} km, ${report.city.places} places; speeds of ${report.city.hour}:00), deadline ${report.settings.acceptSeconds} s, ${report.settings.attempts} attempts, radius ${report.settings.radiusKm} km, chains ${report.settings.chainSeconds / 60} min, batches every ${report.settings.batchSeconds} s. Production default: ${JSON.stringify(report.defaultPolicy)}.`,
    "",
    "## Summary",
    "",
    summaryTable(report),
    "## Candidates on the default",
    "",
    candidatesTable(report),
  );
  for (const l of report.loads) {
    out.push(`## ${l.load}: ${l.drivers} drivers, ${l.perMinute} orders/min for ${l.minutes} min`, "", ...policyRows(l), "");
  }
  out.push(report.goal.met ? "The production default is nowhere significantly behind the best fair baseline." : `The production default is significantly behind the best fair baseline at: ${report.goal.behindAt.join(", ")}.`);
  return out.join("\n") + "\n";
}

const SHOWN = ["pull", "fcfs-nearest", "nearest-pair", "queue", "greedy", "batched (age 0.1)", "default"];
const COLOURS: Record<string, string> = {
  pull: "#9e9e9e",
  "fcfs-nearest": "#ef6c00",
  "nearest-pair": "#1565c0",
  queue: "#6a1b9a",
  greedy: "#c62828",
  "batched (age 0.1)": "#8d6e63",
  default: "#2e7d32",
};

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

/** The mean wait of all orders per load, one line per policy, with the 95 % intervals as whiskers. */
export function svgChart(report: CompareReport): string {
  const width = 820;
  const height = 420;
  const left = 60;
  const right = 170;
  const top = 50;
  const bottom = 350;
  const loads = report.loads;
  const series = SHOWN.map((name) => ({ name, points: loads.map((l) => l.policies.find((p: PolicyEstimate) => p.policy === name)?.metrics.meanWaitAll) }));
  const values = series.flatMap((s) => s.points.flatMap((e) => (e ? [e.mean + e.half] : [])));
  const maxMin = Math.max(5, Math.ceil(Math.max(...values) / 60 / 5) * 5);
  const y = (seconds: number) => bottom - ((bottom - top) * seconds) / 60 / maxMin;
  const step = (width - left - right) / Math.max(1, loads.length - 1);
  const x = (i: number) => left + 20 + i * (step - 40 / Math.max(1, loads.length - 1));
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${left}" y="22" font-size="14" font-weight="bold">Mean wait of all orders (lost ones at their patience), minutes, 95 % intervals over ${report.seeds.length} seeds</text>`);
  for (let m = 0; m <= maxMin; m += 5) {
    parts.push(`<line x1="${left}" y1="${y(m * 60)}" x2="${width - right}" y2="${y(m * 60)}" stroke="#e0e0e0"/>`);
    parts.push(`<text x="${left - 8}" y="${y(m * 60) + 4}" text-anchor="end">${m}</text>`);
  }
  loads.forEach((l, i) => {
    parts.push(`<text x="${x(i)}" y="${bottom + 18}" text-anchor="middle" font-weight="bold">${esc(l.load)}</text>`);
    parts.push(`<text x="${x(i)}" y="${bottom + 34}" text-anchor="middle" font-size="11">${l.drivers} cars, ${l.perMinute}/min</text>`);
  });
  series.forEach((s, k) => {
    const colour = COLOURS[s.name] ?? "#000000";
    const dx = (k - (series.length - 1) / 2) * 3;
    const pts = s.points.flatMap((e, i) => (e ? [`${(x(i) + dx).toFixed(1)},${y(e.mean).toFixed(1)}`] : []));
    parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="${s.name === "default" ? 3 : 1.5}" points="${pts.join(" ")}"/>`);
    s.points.forEach((e, i) => {
      if (!e) return;
      const cx = x(i) + dx;
      parts.push(`<line x1="${cx}" y1="${y(e.mean - e.half)}" x2="${cx}" y2="${y(e.mean + e.half)}" stroke="${colour}"/>`);
      parts.push(`<circle cx="${cx}" cy="${y(e.mean)}" r="2.5" fill="${colour}"/>`);
    });
    const ly = top + 10 + k * 18;
    parts.push(`<line x1="${width - right + 15}" y1="${ly - 4}" x2="${width - right + 35}" y2="${ly - 4}" stroke="${colour}" stroke-width="3"/>`);
    parts.push(`<text x="${width - right + 40}" y="${ly}">${esc(s.name)}</text>`);
  });
  parts.push(`<line x1="${left}" y1="${bottom}" x2="${width - right}" y2="${bottom}" stroke="#424242"/>`);
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}
