// `npm run simulate -- --compare`: the same seeded days under every policy,
// a sweep of loads and fleet sizes, on the demo city's roads, over many
// seeds; the report (report.ts) with 95 % confidence intervals and the
// paired difference between the production default and the best fair
// baseline at each load.
import { planDay, type CityShape } from "./city";
import { estimate, figuresOf, type DayFigures, type Estimate, type MetricName } from "./metrics";
import { demoCityRoads } from "./roads";
import { playDay, WORLD_DEFAULTS, type Policy } from "./world";
import { PRODUCTION_DEFAULT } from "../../dispatch/core/defaults";

/** Policies compared; `fair`: a baseline the product must beat. */
export const POLICIES: Array<Policy & { fair?: boolean }> = [
  // Fair baselines: the same drivers, offers, refusals and timeouts; production's radius and deadline.
  { name: "pull", kind: "pull", fairnessWeight: 0, chains: false, fair: true },
  { name: "fcfs-nearest", kind: "offers", rule: "FCFS", fairnessWeight: 0, chains: false, fair: true },
  { name: "nearest-pair", kind: "offers", rule: "PAIR", fairnessWeight: 0, chains: false, fair: true },
  { name: "queue", kind: "offers", rule: "GREEDY", queue: true, fairnessWeight: 2, chains: true, fair: true },
  // The product's strategies and the candidate improvements, with production's settings (chains on).
  { name: "greedy", kind: "offers", rule: "GREEDY", fairnessWeight: 2, chains: true },
  { name: "batched (age 0.1)", kind: "offers", rule: "BATCHED", ageWeight: 0.1, fairnessWeight: 2, chains: true },
  { name: "batched", kind: "offers", rule: "BATCHED", ageWeight: 0, fairnessWeight: 2, chains: true },
  { name: "batched+radius", kind: "offers", rule: "BATCHED", ageWeight: 0, fairnessWeight: 2, chains: true, radiusGrowth: true },
  { name: "batched+accept", kind: "offers", rule: "BATCHED", ageWeight: 0, fairnessWeight: 2, chains: true, acceptanceWeight: 60 },
  { name: "batched+steer", kind: "offers", rule: "BATCHED", ageWeight: 0, fairnessWeight: 2, chains: true, steer: 0.6 },
  { name: "batched+scarcity", kind: "offers", rule: "BATCHED", ageWeight: 0, fairnessWeight: 2, chains: true, scarceRadiusKm: 3 },
];

/** Candidates built on the production default, measured against it (`candidates` of each load). */
export function candidatePolicies(): Policy[] {
  // What the hint adds: the default with no hint followed (its dispatch alone), and with twice the
  // assumed share followed; and the shortage rule (suggestShortRegion), the hint served before, at the default's share.
  return [
    { ...dispatchOnlyPolicy(), name: "default, no hint followed" },
    { ...defaultPolicy(), name: "default, hints followed 0.6", steer: 0.6 },
    { ...defaultPolicy(), name: "default, shortage hints", steerRule: "shortage" },
  ];
}

/** The production default as the server's code sets it (server/dispatch/core/defaults.ts). */
export function defaultPolicy(): Policy {
  return {
    name: "default",
    kind: "offers",
    rule: "BATCHED",
    ageWeight: PRODUCTION_DEFAULT.ageWeight,
    fairnessWeight: 2,
    chains: true,
    radiusGrowth: PRODUCTION_DEFAULT.radiusGrowth,
    ...(PRODUCTION_DEFAULT.acceptanceWeight ? { acceptanceWeight: PRODUCTION_DEFAULT.acceptanceWeight } : {}),
    ...(PRODUCTION_DEFAULT.steerShare ? { steer: PRODUCTION_DEFAULT.steerShare, steerRule: "coverage" as const } : {}),
    scarceRadiusKm: PRODUCTION_DEFAULT.scarceRadiusKm,
    deepScarceRadiusKm: PRODUCTION_DEFAULT.deepScarceRadiusKm,
  };
}

/** The production default's dispatch without its hints: what a fleet whose drivers never follow one gets (and the live arm's phones, which do not ask). */
export function dispatchOnlyPolicy(): Policy {
  const { steer: _steer, steerRule: _rule, ...dispatchOnly } = defaultPolicy();
  return dispatchOnly;
}

export const CITY: CityShape = { sideMetres: 14_000, regionsPerSide: 3 };

/** From comfortable to about twice over capacity (the capacity measured: the nearest-pair baseline's served orders per minute). */
export const LOADS = [
  { load: "comfortable", drivers: 60, perMinute: 1.2 },
  { load: "normal", drivers: 60, perMinute: 1.8 },
  { load: "at capacity", drivers: 60, perMinute: 2.5 },
  { load: "rush hour", drivers: 45, perMinute: 2.8 },
  { load: "twice over", drivers: 40, perMinute: 3.6 },
];

export interface PolicyEstimate {
  policy: string;
  fair: boolean;
  metrics: Record<MetricName, Estimate>;
}

export interface LoadReport {
  load: string;
  drivers: number;
  perMinute: number;
  minutes: number;
  policies: PolicyEstimate[];
  bestBaseline: string;
  /** default minus the best fair baseline, the mean wait of all orders, paired by seed (seconds). */
  defaultVsBest: Estimate;
  /** The default is significantly worse than the best baseline (the paired interval lies above 0). */
  behind: boolean;
  /** The default beats every fair baseline with non-overlapping intervals. */
  clearlyBetter: boolean;
  /** Each candidate on the default (candidatePolicies) minus the default, the mean wait of all orders, paired by seed (seconds). */
  candidates: Array<{ policy: string; vsDefault: Estimate }>;
}

export interface CompareReport {
  seeds: number[];
  short: boolean;
  wallSeconds: number;
  city: { roadNodes: number; places: number; sideKm: number; hour: number };
  settings: typeof WORLD_DEFAULTS;
  defaultPolicy: Policy;
  loads: LoadReport[];
  goal: { met: boolean; behindAt: string[] };
}

const METRICS: MetricName[] = ["orders", "served", "lost", "cancelled", "meanWaitAll", "meanWaitServed", "p90WaitAll", "emptyKm", "occupiedKm", "emptyShare", "steeringKm", "timeoutShare", "utilisation", "earningsPerHour", "earningsCv", "earningsGini", "servedRating"];

export function compareStrategies(options: { seeds: number[]; short: boolean; minutes?: number; loads?: typeof LOADS; progress?: (line: string) => void }): CompareReport {
  const started = Date.now();
  const minutes = options.minutes ?? (options.short ? 60 : 150);
  const hour = 12;
  const roads = demoCityRoads({ sideMetres: CITY.sideMetres, placeCount: 500, hour });
  const candidates = candidatePolicies();
  const policies = [...POLICIES, { ...defaultPolicy(), fair: false }, ...candidates.map((c) => ({ ...c, fair: false }))];
  const loads: LoadReport[] = (options.loads ?? LOADS).map((l) => {
    const days = new Map<string, DayFigures[]>(policies.map((p) => [p.name, []]));
    for (const seed of options.seeds) {
      const plan = planDay(seed, roads, CITY, { drivers: l.drivers, perMinute: l.perMinute, minutes });
      for (const p of policies) days.get(p.name)!.push(figuresOf(playDay(plan, roads, p, seed)));
    }
    options.progress?.(`${l.load}: ${options.seeds.length} seeds done, ${Math.round((Date.now() - started) / 1000)} s`);
    const estimates: PolicyEstimate[] = policies.map((p) => ({
      policy: p.name,
      fair: p.fair === true,
      metrics: Object.fromEntries(METRICS.map((m) => [m, estimate(days.get(p.name)!.map((d) => d[m]))])) as Record<MetricName, Estimate>,
    }));
    const fair = estimates.filter((e) => e.fair);
    const best = fair.reduce((a, b) => (b.metrics.meanWaitAll.mean < a.metrics.meanWaitAll.mean ? b : a));
    const def = estimates.find((e) => e.policy === "default")!;
    const diffs = days.get("default")!.map((d, i) => d.meanWaitAll - days.get(best.policy)!.at(i)!.meanWaitAll);
    const paired = estimate(diffs);
    const behind = options.seeds.length > 1 ? paired.mean - paired.half > 0 : paired.mean > 0;
    const clearlyBetter = fair.every((b) => def.metrics.meanWaitAll.mean + def.metrics.meanWaitAll.half < b.metrics.meanWaitAll.mean - b.metrics.meanWaitAll.half);
    const vsDefault = (name: string) => estimate(days.get(name)!.map((d, i) => d.meanWaitAll - days.get("default")!.at(i)!.meanWaitAll));
    return { ...l, minutes, policies: estimates, bestBaseline: best.policy, defaultVsBest: paired, behind, clearlyBetter, candidates: candidates.map((c) => ({ policy: c.name, vsDefault: vsDefault(c.name) })) };
  });
  const behindAt = loads.filter((l) => l.behind).map((l) => l.load);
  return {
    seeds: options.seeds,
    short: options.short,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
    city: { roadNodes: roads.nodes, places: roads.places.length, sideKm: CITY.sideMetres / 1000, hour },
    settings: WORLD_DEFAULTS,
    defaultPolicy: defaultPolicy(),
    loads,
    goal: { met: behindAt.length === 0, behindAt },
  };
}

/** The rating weights measured against the production default (seconds of cost for 1 star against 5). */
export const RATING_WEIGHTS = [60, 180];

export interface RatingReport {
  seeds: number[];
  minutes: number;
  weights: number[];
  loads: Array<{
    load: string;
    drivers: number;
    perMinute: number;
    default: { meanWaitAll: Estimate; lost: Estimate; servedRating: Estimate };
    weighted: Array<{ weight: number; meanWaitAll: Estimate; lost: Estimate; servedRating: Estimate; waitDiff: Estimate; ratingDiff: Estimate }>;
  }>;
}

/**
 * The passengers' ratings as a weight of the candidate cost, measured: the
 * production default against the same with each rating weight, over the
 * loads and seeds, paired by seed: the mean wait of all orders and the true
 * mean stars of the drivers who served them (what a passenger would get).
 */
export function compareRatingWeight(options: { seeds: number[]; minutes?: number; weights?: number[]; progress?: (line: string) => void }): RatingReport {
  const minutes = options.minutes ?? 150;
  const weights = options.weights ?? RATING_WEIGHTS;
  const roads = demoCityRoads({ sideMetres: CITY.sideMetres, placeCount: 500, hour: 12 });
  const base = defaultPolicy();
  const loads = LOADS.map((l) => {
    const days: DayFigures[][] = [[], ...weights.map(() => [])];
    for (const seed of options.seeds) {
      const plan = planDay(seed, roads, CITY, { drivers: l.drivers, perMinute: l.perMinute, minutes });
      days[0]!.push(figuresOf(playDay(plan, roads, base, seed)));
      weights.forEach((w, k) => days[k + 1]!.push(figuresOf(playDay(plan, roads, { ...base, name: `default+rating ${w}`, ratingWeight: w }, seed))));
    }
    options.progress?.(`rating: ${l.load} done`);
    const of = (d: DayFigures[]) => ({ meanWaitAll: estimate(d.map((x) => x.meanWaitAll)), lost: estimate(d.map((x) => x.lost / Math.max(1, x.orders))), servedRating: estimate(d.map((x) => x.servedRating)) });
    return {
      load: l.load,
      drivers: l.drivers,
      perMinute: l.perMinute,
      default: of(days[0]!),
      weighted: weights.map((weight, k) => ({
        weight,
        ...of(days[k + 1]!),
        waitDiff: estimate(days[k + 1]!.map((d, i) => d.meanWaitAll - days[0]![i]!.meanWaitAll)),
        ratingDiff: estimate(days[k + 1]!.map((d, i) => d.servedRating - days[0]![i]!.servedRating)),
      })),
    };
  });
  return { seeds: options.seeds, minutes, weights, loads };
}

export function ratingTable(r: RatingReport): string {
  const m = (e: Estimate) => `${(e.mean / 60).toFixed(2)} ± ${(e.half / 60).toFixed(2)}`;
  const st = (e: Estimate) => `${e.mean.toFixed(3)} ± ${e.half.toFixed(3)}`;
  const lines = [
    `${r.seeds.length} seeds (${r.seeds[0]}–${r.seeds.at(-1)}), ${r.minutes} simulated minutes of orders; the production default against the same with the rating weight (seconds of cost for 1 star against 5), paired by seed, 95 % intervals. "Stars" is the true mean rating of the drivers who served the orders.`,
    "",
    "| load | weight (s) | mean wait, all orders: default | with the weight | difference (min) | stars: default | with the weight | difference |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const l of r.loads) {
    for (const w of l.weighted) {
      lines.push(`| ${l.load} | ${w.weight} | ${m(l.default.meanWaitAll)} | ${m(w.meanWaitAll)} | ${m(w.waitDiff)} | ${st(l.default.servedRating)} | ${st(w.servedRating)} | ${st(w.ratingDiff)} |`);
    }
  }
  return lines.join("\n") + "\n";
}
