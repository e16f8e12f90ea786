// `npm run simulate -- --compare`: the same seeded day under each strategy at
// two loads, and the report (server/simulator/compare/report.ts).
import { planDay, type CityShape } from "./city";
import { figuresOf } from "./metrics";
import type { CompareReport, LoadReport } from "./report";
import { playDay, type StrategyName } from "./world";

export const STRATEGIES: StrategyName[] = ["pull-nearest", "greedy", "queue", "batched"];

export const CITY: CityShape = { sideMetres: 12_000, regionsPerSide: 3 };

export const LOADS = [
  { load: "normal", drivers: 60, perMinute: 2.5 },
  { load: "rush hour", drivers: 60, perMinute: 6 },
];

export function compareStrategies(options: { seed: number; short: boolean }): CompareReport {
  const started = Date.now();
  const minutes = options.short ? 60 : 180;
  const loads: LoadReport[] = LOADS.map((l) => {
    const plan = planDay(options.seed, CITY, { drivers: l.drivers, perMinute: l.perMinute, minutes });
    return { ...l, minutes, days: STRATEGIES.map((s) => figuresOf(playDay(plan, CITY, s, options.seed))) };
  });
  const rush = loads[1]!;
  const greedy = rush.days.find((d) => d.strategy === "greedy")!;
  const batched = rush.days.find((d) => d.strategy === "batched")!;
  const cut = greedy.meanWaitSeconds > 0 ? 1 - batched.meanWaitSeconds / greedy.meanWaitSeconds : 0;
  const lostDiff = batched.lost - greedy.lost;
  return {
    seed: options.seed,
    short: options.short,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
    loads,
    goal: { rushMeanWaitCutVsGreedy: Math.round(cut * 1000) / 1000, batchedLostVsGreedy: lostDiff, met: cut >= 0.2 && lostDiff <= 0 },
  };
}
