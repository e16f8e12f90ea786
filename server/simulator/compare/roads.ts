// The comparison drives on the demo city's roads: the main city's road
// network as the demo seed builds it (server/seed/demo/roads.ts: the grid,
// avenues, rings, radials, the river and its bridges, one-way streets) with
// the server's default speeds by road class at one hour (server/routing/
// speeds.ts). The day happens in the central square of the city: a fixed set
// of "places" (junctions) there, every pickup, destination and car standing
// at one of them, and the travel times and metres between every two places
// computed once along the fastest routes (a one-to-all search from each
// place over the whole network, so a route may leave the square).
import { NodeHeap } from "../../routing/heap";
import { RoadGraph, type RoadNetworkData } from "../../routing/graph";
import { paceAt, speedTable } from "../../routing/speeds";
import { buildRoadPlan } from "../../seed/demo/roads";
import { DEMO_SEED, Rng } from "../../seed/demo/random";
import { MAIN_BOX, MAIN_ROAD_SPACING } from "../../seed/demo/plan";

export interface Place {
  lat: number;
  lon: number;
  /** Metres east and north of the square's south-west corner. */
  x: number;
  y: number;
}

export interface CityRoads {
  places: Place[];
  /** Side of the central square, metres. */
  sideMetres: number;
  /** seconds[a * n + b]: from place a to place b along the fastest route. */
  seconds: Float32Array;
  /** metres[a * n + b]: the length of that route. */
  metres: Float32Array;
  nodes: number;
}

const M_PER_DEG = 111_320;

/**
 * Times and lengths of the fastest routes from one node to all (Dijkstra on
 * time, the length carried along). Our own few lines rather than the
 * server's allTimes (landmarks.ts), which gives the times only: the
 * comparison counts empty and occupied kilometres too.
 */
function fromNode(graph: RoadGraph, source: number, pace: Float64Array, heap: NodeHeap): { time: Float64Array; length: Float64Array } {
  const time = new Float64Array(graph.nodeCount).fill(Infinity);
  const length = new Float64Array(graph.nodeCount);
  heap.clear();
  time[source] = 0;
  heap.push(0, source);
  while (heap.size > 0) {
    const key = heap.peekKey();
    const v = heap.pop();
    if (key > time[v]!) continue;
    for (let i = graph.outStart[v]!; i < graph.outStart[v + 1]!; i++) {
      const a = graph.outArcs[i]!;
      const w = graph.arcHead[a]!;
      const t = key + graph.arcLength[a]! * pace[graph.arcClass[a]!]!;
      if (t < time[w]!) {
        time[w] = t;
        length[w] = length[v]! + graph.arcLength[a]!;
        heap.push(t, w);
      }
    }
  }
  return { time, length };
}

let cached: { key: string; roads: CityRoads } | undefined;

/** The demo city's roads and `placeCount` places in its central `sideMetres` square (cached per process). */
export function demoCityRoads(options: { sideMetres: number; placeCount: number; hour: number }): CityRoads {
  const key = JSON.stringify(options);
  if (cached?.key === key) return cached.roads;
  const plan = buildRoadPlan(new Rng(DEMO_SEED).fork("main:roads"), MAIN_BOX, { spacing: MAIN_ROAD_SPACING });
  const data: RoadNetworkData = {
    nodes: plan.nodes.map(([lat, lon], i) => ({ id: i + 1, lat, lon })),
    segments: plan.segments.map((s, i) => ({ id: i + 1, from: s.from + 1, to: s.to + 1, length: s.length, roadClass: s.roadClass, oneway: s.oneway, name: "", streetId: null, shape: null })),
  };
  const graph = new RoadGraph(data);
  const pace = paceAt(speedTable(), options.hour);
  const centre = { lat: plan.centre[0], lon: plan.centre[1] };
  const cosLat = Math.cos((centre.lat * Math.PI) / 180);
  const half = options.sideMetres / 2;
  const inside: number[] = [];
  for (let v = 0; v < graph.nodeCount; v++) {
    const east = (graph.nodeLon[v]! - centre.lon) * M_PER_DEG * cosLat;
    const north = (graph.nodeLat[v]! - centre.lat) * M_PER_DEG;
    if (Math.abs(east) < half && Math.abs(north) < half) inside.push(v);
  }
  const pick = new Rng(DEMO_SEED).fork("compare:places").shuffle([...inside]).slice(0, options.placeCount);
  const n = pick.length;
  const seconds = new Float32Array(n * n);
  const metres = new Float32Array(n * n);
  const heap = new NodeHeap(Math.max(1024, graph.nodeCount));
  pick.forEach((v, a) => {
    const { time, length } = fromNode(graph, v, pace, heap);
    pick.forEach((w, b) => {
      seconds[a * n + b] = Number.isFinite(time[w]!) ? time[w]! : 1e6;
      metres[a * n + b] = length[w]!;
    });
  });
  const places = pick.map((v) => ({
    lat: graph.nodeLat[v]!,
    lon: graph.nodeLon[v]!,
    x: (graph.nodeLon[v]! - centre.lon) * M_PER_DEG * cosLat + half,
    y: (graph.nodeLat[v]! - centre.lat) * M_PER_DEG + half,
  }));
  const roads = { places, sideMetres: options.sideMetres, seconds, metres, nodes: graph.nodeCount };
  cached = { key, roads };
  return roads;
}

/** The place nearest to a point of the square (the day's plan draws points, the roads snap them). */
export function nearestPlace(roads: CityRoads, x: number, y: number): number {
  let best = 0;
  let bestD = Infinity;
  roads.places.forEach((p, i) => {
    const d = (p.x - x) ** 2 + (p.y - y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}
