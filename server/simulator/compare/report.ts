// The comparison's report: JSON (every figure), Markdown (the tables and the
// verdict) and an SVG bar chart of the mean and p90 wait per strategy and
// load. The chart is a few rectangles and labels: written here rather than
// pulling a charting library into the server's dependencies for one picture.
import type { DayFigures } from "./metrics";

export interface LoadReport {
  load: string;
  drivers: number;
  perMinute: number;
  minutes: number;
  days: DayFigures[];
}

export interface CompareReport {
  seed: number;
  short: boolean;
  wallSeconds: number;
  loads: LoadReport[];
  goal: { rushMeanWaitCutVsGreedy: number; batchedLostVsGreedy: number; met: boolean };
}

const minutes = (s: number) => `${(s / 60).toFixed(1)} min`;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function markdown(report: CompareReport): string {
  const out: string[] = [];
  out.push(`Seed ${report.seed}${report.short ? " (short mode)" : ""}, ${report.wallSeconds} s to compute.`, "");
  for (const load of report.loads) {
    out.push(`### ${load.load}: ${load.drivers} drivers, ${load.perMinute} orders/min for ${load.minutes} min`, "");
    out.push("| strategy | orders | served | lost | mean wait | p90 wait | assigned ≤ 60 s | utilisation | earnings Gini | earnings CV |");
    out.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const d of load.days) {
      out.push(
        `| ${d.strategy} | ${d.orders} | ${d.served} | ${d.lost} | ${minutes(d.meanWaitSeconds)} | ${minutes(d.p90WaitSeconds)} | ${pct(d.assignedWithin60Share)} | ${pct(d.utilisation)} | ${d.earningsGini.toFixed(3)} | ${d.earningsCv.toFixed(3)} |`,
      );
    }
    out.push("");
  }
  const g = report.goal;
  out.push(
    `Rush hour: batched assignment cuts the mean wait by ${pct(g.rushMeanWaitCutVsGreedy)} against greedy nearest-first, ` +
      `losing ${g.batchedLostVsGreedy >= 0 ? g.batchedLostVsGreedy : -g.batchedLostVsGreedy} ${g.batchedLostVsGreedy >= 0 ? "more" : "fewer"} orders — goal (≥ 20 %, no more lost) ${g.met ? "met" : "NOT met"}.`,
  );
  return out.join("\n") + "\n";
}

const COLOURS: Record<string, string> = { "pull-nearest": "#9e9e9e", greedy: "#ef6c00", queue: "#6a1b9a", batched: "#2e7d32" };

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

/** Grouped bars: for each load, each strategy's mean wait (solid) with its p90 (outline). */
export function svgChart(report: CompareReport): string {
  const width = 760;
  const height = 340;
  const left = 60;
  const bottom = 290;
  const top = 40;
  const max = Math.max(60, ...report.loads.flatMap((l) => l.days.map((d) => d.p90WaitSeconds)));
  const scale = (s: number) => ((bottom - top) * s) / max;
  const groupWidth = (width - left - 20) / report.loads.length;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${left}" y="22" font-size="14" font-weight="bold">Wait for a car by strategy (bars: mean, outline: p90), minutes</text>`);
  const step = max > 1800 ? 600 : 300;
  for (let s = 0; s <= max; s += step) {
    const y = bottom - scale(s);
    parts.push(`<line x1="${left}" y1="${y}" x2="${width - 10}" y2="${y}" stroke="#e0e0e0"/>`);
    parts.push(`<text x="${left - 8}" y="${y + 4}" text-anchor="end">${s / 60}</text>`);
  }
  report.loads.forEach((load, g) => {
    const x0 = left + g * groupWidth + 20;
    const bar = (groupWidth - 40) / load.days.length;
    load.days.forEach((d, i) => {
      const x = x0 + i * bar;
      const colour = COLOURS[d.strategy] ?? "#1565c0";
      parts.push(`<rect x="${x + 4}" y="${bottom - scale(d.p90WaitSeconds)}" width="${bar - 8}" height="${scale(d.p90WaitSeconds)}" fill="none" stroke="${colour}" stroke-width="2"/>`);
      parts.push(`<rect x="${x + 4}" y="${bottom - scale(d.meanWaitSeconds)}" width="${bar - 8}" height="${scale(d.meanWaitSeconds)}" fill="${colour}"/>`);
      parts.push(`<text x="${x + bar / 2}" y="${bottom - scale(d.meanWaitSeconds) - 4}" text-anchor="middle">${(d.meanWaitSeconds / 60).toFixed(1)}</text>`);
      parts.push(`<text x="${x + bar / 2}" y="${bottom + 14}" text-anchor="middle" font-size="11">${esc(d.strategy)}</text>`);
    });
    parts.push(`<text x="${x0 + (groupWidth - 40) / 2}" y="${bottom + 34}" text-anchor="middle" font-weight="bold">${esc(`${load.load} (${load.drivers} drivers, ${load.perMinute}/min)`)}</text>`);
  });
  parts.push(`<line x1="${left}" y1="${bottom}" x2="${width - 10}" y2="${bottom}" stroke="#424242"/>`);
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}
