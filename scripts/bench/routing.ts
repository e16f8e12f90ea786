// The routing benchmark (no server, no database): the demo city's road
// generator at a finer spacing makes a one-city graph of tens of thousands
// of segments; random addresses in it are snapped and routed.
//   - route: one trip (snap both ends + A* with landmarks), as an estimate asks
//   - dijkstra: the same trips with no landmarks (the bound is 0), for comparison
//   - 50 cars -> 1 pickup: one backward search, as a dispatch decision asks
import { buildRoadPlan } from "../../server/seed/demo/roads";
import { DEMO_SEED, Rng } from "../../server/seed/demo/random";
import { RoadGraph, type RoadNetworkData } from "../../server/routing/graph";
import { buildLandmarks } from "../../server/routing/landmarks";
import { Router } from "../../server/routing/search";
import { paceAt } from "../../server/routing/speeds";
import type { Sample } from "./report";

export interface RoutingTarget {
  name: string;
  /** Queries per second on one core. */
  perSecond: number;
  latencyMs: Sample;
  /** Mean junctions settled per query. */
  settled?: number;
}

export interface RoutingResult {
  nodes: number;
  segments: number;
  buildMs: number;
  landmarks: number;
  landmarksMs: number;
  graphMb: number;
  targets: RoutingTarget[];
}

const BOX = { minLat: 55.56, maxLat: 55.98, minLon: 37.26, maxLon: 37.96 };

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function sample(times: number[]): Sample {
  const sorted = [...times].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? NaN) };
}

/** The demo city's network at `spacing` metres, as the router reads it from the database. */
export function syntheticCity(spacing: number): RoadNetworkData {
  const plan = buildRoadPlan(new Rng(DEMO_SEED).fork("bench:roads"), BOX, { spacing });
  return {
    nodes: plan.nodes.map(([lat, lon], i) => ({ id: i + 1, lat, lon })),
    segments: plan.segments.map((s, i) => ({ id: i + 1, from: s.from + 1, to: s.to + 1, length: s.length, roadClass: s.roadClass, oneway: s.oneway, name: "", streetId: null, shape: null })),
  };
}

export function benchRouting(options: { short: boolean; log: (message: string) => void }): RoutingResult {
  const spacing = 300;
  const data = syntheticCity(spacing);
  let t0 = performance.now();
  const graph = new RoadGraph(data);
  const buildMs = performance.now() - t0;
  t0 = performance.now();
  const landmarks = buildLandmarks(graph, 12);
  const landmarksMs = performance.now() - t0;
  const router = new Router(graph, landmarks);
  const plain = new Router(graph, buildLandmarks(graph, 0));
  const graphMb = (graph.byteSize() + landmarks.count * 2 * graph.nodeCount * 4) / 2 ** 20;
  options.log(
    `routing: ${graph.nodeCount} junctions, ${graph.segmentCount} segments (grid every ${spacing} m); graph ${buildMs.toFixed(0)} ms, ` +
      `${landmarks.count} landmarks ${landmarksMs.toFixed(0)} ms, ${graphMb.toFixed(1)} MB`,
  );

  const rng = new Rng(DEMO_SEED).fork("bench:points");
  const point = () => ({ lat: rng.range(BOX.minLat + 0.01, BOX.maxLat - 0.01), lon: rng.range(BOX.minLon + 0.01, BOX.maxLon - 0.01) });
  const pace = paceAt(graph.speeds, 18);
  const trips = options.short ? 500 : 3_000;
  const targets: RoutingTarget[] = [];

  const measure = (name: string, count: number, run: (i: number) => number) => {
    const inputs = Array.from({ length: count }, (_, i) => i);
    for (const i of inputs.slice(0, Math.min(50, count))) run(i); // warm up the JIT
    const times: number[] = [];
    let settled = 0;
    const start = performance.now();
    for (const i of inputs) {
      const q0 = performance.now();
      settled += run(i);
      times.push(performance.now() - q0);
    }
    const seconds = (performance.now() - start) / 1000;
    const target: RoutingTarget = { name, perSecond: Math.round(count / seconds), latencyMs: sample(times), ...(settled > 0 ? { settled: Math.round(settled / count) } : {}) };
    options.log(`  ${name}: ${target.perSecond}/s, p50 ${target.latencyMs.p50} ms, p99 ${target.latencyMs.p99} ms${target.settled ? `, ${target.settled} junctions settled` : ""}`);
    targets.push(target);
  };

  const pairs = Array.from({ length: trips }, () => [point(), point()] as const);
  measure("route: snap 2 points + A* with landmarks", trips, (i) => {
    const [a, b] = pairs[i]!;
    const from = graph.snap(a.lat, a.lon, 1_000);
    const to = graph.snap(b.lat, b.lon, 1_000);
    if (!from || !to) throw new Error("a bench point off the roads");
    return router.route(from, to, pace)?.settled ?? 0;
  });
  const plainTrips = Math.min(trips, options.short ? 100 : 500);
  measure("route: the same with plain Dijkstra (no landmarks)", plainTrips, (i) => {
    const [a, b] = pairs[i]!;
    return plain.route(graph.snap(a.lat, a.lon, 1_000)!, graph.snap(b.lat, b.lon, 1_000)!, pace)?.settled ?? 0;
  });
  const cars = 50;
  const asks = options.short ? 200 : 1_000;
  const pickups = Array.from({ length: asks }, () => {
    const pickup = point();
    // Cars within about 5 km of the pickup, as a dispatch's candidates are.
    const around = Array.from({ length: cars }, () => ({ lat: pickup.lat + rng.range(-0.045, 0.045), lon: pickup.lon + rng.range(-0.07, 0.07) }));
    return { pickup, around };
  });
  measure(`arrival times: ${cars} cars -> 1 pickup (one backward search, 15 min limit)`, asks, (i) => {
    const { pickup, around } = pickups[i]!;
    const to = graph.snap(pickup.lat, pickup.lon, 1_000)!;
    const from = around.flatMap((p) => graph.snap(p.lat, p.lon, 1_000) ?? []);
    router.timesTo(to, from, pace, 900);
    return 0;
  });
  return { nodes: graph.nodeCount, segments: graph.segmentCount, buildMs: Math.round(buildMs), landmarks: landmarks.count, landmarksMs: Math.round(landmarksMs), graphMb: Math.round(graphMb * 10) / 10, targets };
}
