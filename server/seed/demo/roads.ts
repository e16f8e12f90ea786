// The demo city's road network as plain data: a jittered grid of quarters
// (every fifth line an avenue, the residential lines one-way in the centre),
// an inner and an outer ring, radial roads from the centre, and a river that
// the grid crosses only on bridges. Kept to the part where every junction
// can reach every other (the largest strongly connected part), so that any
// two addresses have a route. The same rng and box give the same network.
import type { LatLon } from "../../geo/polygon";
import type { RoadClass } from "../../routing/speeds";
import type { Box } from "./geometry";
import type { Rng } from "./random";

export interface RoadPlanSegment {
  from: number;
  to: number;
  length: number;
  roadClass: RoadClass;
  oneway: boolean;
  /** The way (a named run of segments) it belongs to, or -1. */
  way: number;
}

export type WayKind = "radial" | "ring" | "avenue" | "street";

export interface RoadWay {
  kind: WayKind;
  /** Segments in order along the way. */
  segments: number[];
}

export interface RoadPlan {
  nodes: LatLon[];
  segments: RoadPlanSegment[];
  ways: RoadWay[];
  /** The river's centre line, west to east. */
  river: LatLon[];
  centre: LatLon;
}

export interface RoadPlanOptions {
  /** Metres between grid lines. */
  spacing: number;
  /** Lines between avenues. */
  avenueEvery?: number;
  /** Number of radial roads. */
  radials?: number;
}

const M_PER_DEG = 111_320;

export function buildRoadPlan(rng: Rng, box: Box, options: RoadPlanOptions): RoadPlan {
  const spacing = options.spacing;
  const avenueEvery = options.avenueEvery ?? 5;
  const centre: LatLon = [(box.minLat + box.maxLat) / 2, (box.minLon + box.maxLon) / 2];
  const eastPerDeg = M_PER_DEG * Math.cos((centre[0] * Math.PI) / 180);
  const toLatLon = (north: number, east: number): LatLon => [centre[0] + north / M_PER_DEG, centre[1] + east / eastPerDeg];
  const height = (box.maxLat - box.minLat) * M_PER_DEG;
  const width = (box.maxLon - box.minLon) * eastPerDeg;
  const margin = Math.min(400, spacing);
  const rows = Math.max(2, Math.floor((height - 2 * margin) / spacing) + 1);
  const cols = Math.max(2, Math.floor((width - 2 * margin) / spacing) + 1);
  const south = -((rows - 1) * spacing) / 2;
  const west = -((cols - 1) * spacing) / 2;

  // The river: a meander across the city a little south of the centre.
  const amplitude = Math.min(height / 10, 2_500);
  const period = width / rng.range(1.2, 1.8);
  const phase = rng.range(0, 2 * Math.PI);
  const riverOffset = -height * 0.12;
  const riverNorth = (east: number) => riverOffset + amplitude * Math.sin((2 * Math.PI * east) / period + phase);
  const river: LatLon[] = [];
  for (let east = -width / 2; east <= width / 2; east += spacing / 2) river.push(toLatLon(riverNorth(east), east));
  const side = (north: number, east: number) => (north > riverNorth(east) ? 1 : 0);

  const nodes: Array<{ north: number; east: number }> = [];
  const segments: RoadPlanSegment[] = [];
  const ways: RoadWay[] = [];
  const addNode = (north: number, east: number) => nodes.push({ north, east }) - 1;
  const distance = (a: number, b: number) => Math.hypot(nodes[a]!.north - nodes[b]!.north, nodes[a]!.east - nodes[b]!.east);
  const addSegment = (from: number, to: number, roadClass: RoadClass, oneway: boolean, way: number) =>
    segments.push({ from, to, length: Math.round(distance(from, to) * 10) / 10, roadClass, oneway, way }) - 1;
  const newWay = (kind: WayKind) => ways.push({ kind, segments: [] }) - 1;

  // The grid, its junctions moved a little so that quarters differ.
  const grid: number[][] = [];
  for (let i = 0; i < rows; i++) {
    const line: number[] = [];
    for (let j = 0; j < cols; j++) {
      line.push(addNode(south + i * spacing + rng.range(-0.15, 0.15) * spacing, west + j * spacing + rng.range(-0.15, 0.15) * spacing));
    }
    grid.push(line);
  }
  const centreRadius = Math.min(width, height) * 0.12;
  const bridgeEvery = 4;
  /** A grid line's run: consecutive edges between avenues; broken by a missing edge. */
  const gridLine = (count: number, at: (k: number) => number, avenue: boolean, lineIndex: number, vertical: boolean) => {
    let way = -1;
    let run = 0;
    for (let k = 0; k + 1 < count; k++) {
      const a = at(k);
      const b = at(k + 1);
      const na = nodes[a]!;
      const nb = nodes[b]!;
      const crosses = side(na.north, na.east) !== side(nb.north, nb.east);
      // Bridges: the avenues and every few lines across the river; elsewhere the river cuts the street.
      const bridge = vertical && (avenue || lineIndex % bridgeEvery === 2);
      const dropped = (crosses && !bridge) || (!avenue && !crosses && rng.chance(0.06));
      if (dropped) {
        way = -1;
        continue;
      }
      if (way === -1 || run >= (avenue ? 2 * avenueEvery : avenueEvery - 1)) {
        way = newWay(avenue ? "avenue" : "street");
        run = 0;
      }
      const midNorth = (na.north + nb.north) / 2;
      const midEast = (na.east + nb.east) / 2;
      const central = Math.hypot(midNorth, midEast) < centreRadius;
      // In the centre the residential lines are one-way, alternating direction line by line.
      const oneway = !avenue && !crosses && central;
      const forwards = lineIndex % 2 === 0;
      const roadClass: RoadClass = avenue ? "SECONDARY" : crosses ? "TERTIARY" : "RESIDENTIAL";
      const s = oneway && !forwards ? addSegment(b, a, roadClass, true, way) : addSegment(a, b, roadClass, oneway, way);
      ways[way]!.segments.push(s);
      run++;
    }
  };
  for (let i = 0; i < rows; i++) gridLine(cols, (k) => grid[i]![k]!, i % avenueEvery === 0, i, false);
  for (let j = 0; j < cols; j++) gridLine(rows, (k) => grid[k]![j]!, j % avenueEvery === 0, j, true);

  /** The grid junction nearest a point, on the same side of the river. */
  const nearestGrid = (north: number, east: number): number | undefined => {
    const i0 = Math.round((north - south) / spacing);
    const j0 = Math.round((east - west) / spacing);
    let best: number | undefined;
    let bestD = Infinity;
    for (let i = i0 - 1; i <= i0 + 1; i++) {
      for (let j = j0 - 1; j <= j0 + 1; j++) {
        const v = grid[i]?.[j];
        if (v === undefined) continue;
        const n = nodes[v]!;
        if (side(n.north, n.east) !== side(north, east)) continue;
        const d = Math.hypot(n.north - north, n.east - east);
        if (d < bestD) [best, bestD] = [v, d];
      }
    }
    return best;
  };
  /** A fast road through the points, tied to the grid at each junction by a short link. */
  const fastRoad = (points: Array<{ north: number; east: number }>, kind: WayKind, roadClass: RoadClass, closed: boolean) => {
    const way = newWay(kind);
    const ids = points.map((p) => addNode(p.north, p.east));
    for (let k = 0; k + 1 < ids.length; k++) ways[way]!.segments.push(addSegment(ids[k]!, ids[k + 1]!, roadClass, false, way));
    if (closed && ids.length > 2) ways[way]!.segments.push(addSegment(ids[ids.length - 1]!, ids[0]!, roadClass, false, way));
    ids.forEach((id, k) => {
      if (k % 2 === 1) return; // a link at every other junction: exits, not a crossing at every block
      const p = nodes[id]!;
      const g = nearestGrid(p.north, p.east);
      if (g !== undefined && distance(id, g) > 1) addSegment(id, g, "TERTIARY", false, -1);
    });
    return ids;
  };
  const circle = (radius: number) => {
    const count = Math.max(8, Math.round((2 * Math.PI * radius) / spacing));
    return Array.from({ length: count }, (_, k) => {
      const angle = (2 * Math.PI * k) / count;
      return { north: radius * Math.cos(angle), east: radius * Math.sin(angle) };
    });
  };
  const inner = Math.min(width, height) * 0.08;
  const outer = Math.min(width, height) * 0.38;
  fastRoad(circle(inner), "ring", "PRIMARY", true);
  fastRoad(circle(outer), "ring", "TRUNK", true);
  const radials = options.radials ?? 8;
  const turn = rng.range(0, Math.PI / radials);
  for (let r = 0; r < radials; r++) {
    const angle = turn + (2 * Math.PI * r) / radials;
    const points: Array<{ north: number; east: number }> = [];
    for (let d = inner / 2; ; d += spacing) {
      const north = d * Math.cos(angle);
      const east = d * Math.sin(angle);
      if (Math.abs(north) > height / 2 - margin || Math.abs(east) > width / 2 - margin) break;
      points.push({ north, east });
    }
    if (points.length >= 2) fastRoad(points, "radial", r % 2 === 0 ? "TRUNK" : "PRIMARY", false);
  }

  return keepConnected({ nodes: nodes.map((n) => toLatLon(n.north, n.east)), segments, ways, river, centre }, nearestGrid(0, 0) ?? 0);
}

/** The plan reduced to the junctions that `root` reaches and that reach it, renumbered. */
function keepConnected(plan: RoadPlan, root: number): RoadPlan {
  const n = plan.nodes.length;
  const reach = (forwards: boolean) => {
    const adjacent: number[][] = Array.from({ length: n }, () => []);
    for (const s of plan.segments) {
      adjacent[forwards ? s.from : s.to]!.push(forwards ? s.to : s.from);
      if (!s.oneway) adjacent[forwards ? s.to : s.from]!.push(forwards ? s.from : s.to);
    }
    const seen = new Uint8Array(n);
    const stack = [root];
    seen[root] = 1;
    while (stack.length > 0) {
      for (const w of adjacent[stack.pop()!]!) {
        if (!seen[w]) {
          seen[w] = 1;
          stack.push(w);
        }
      }
    }
    return seen;
  };
  const out = reach(true);
  const back = reach(false);
  const index = new Int32Array(n).fill(-1);
  const nodes: LatLon[] = [];
  plan.nodes.forEach((p, v) => {
    if (out[v] && back[v]) index[v] = nodes.push(p) - 1;
  });
  const segmentIndex = new Int32Array(plan.segments.length).fill(-1);
  const segments: RoadPlanSegment[] = [];
  plan.segments.forEach((s, k) => {
    if (index[s.from]! >= 0 && index[s.to]! >= 0) segmentIndex[k] = segments.push({ ...s, from: index[s.from]!, to: index[s.to]! }) - 1;
  });
  const ways = plan.ways
    .map((w) => ({ kind: w.kind, segments: w.segments.map((s) => segmentIndex[s]!).filter((s) => s >= 0) }))
    .filter((w) => w.segments.length > 0);
  segments.forEach((s) => (s.way = -1));
  ways.forEach((w, k) => w.segments.forEach((s) => (segments[s]!.way = k)));
  return { ...plan, nodes, segments, ways };
}

/** The way's polyline, junction by junction, in the order of its segments. */
export function wayLine(plan: RoadPlan, way: RoadWay): LatLon[] {
  const line: LatLon[] = [];
  let last = -1;
  for (const k of way.segments) {
    const s = plan.segments[k]!;
    // A one-way segment may run against the way's order: draw it the way's way.
    const [a, b] = last === -1 || last === s.from ? [s.from, s.to] : last === s.to ? [s.to, s.from] : [s.from, s.to];
    if (last !== a) line.push(plan.nodes[a]!);
    line.push(plan.nodes[b]!);
    last = b;
  }
  return line;
}

/** The point at share `t` (0..1) of a polyline's length, with the unit vector along it there (metres north, east). */
export function pointAlong(line: readonly LatLon[], t: number): { lat: number; lon: number; north: number; east: number } {
  const eastPerDeg = (lat: number) => M_PER_DEG * Math.cos((lat * Math.PI) / 180);
  const pieces: number[] = [];
  let total = 0;
  for (let k = 1; k < line.length; k++) {
    const [aLat, aLon] = line[k - 1]!;
    const [bLat, bLon] = line[k]!;
    const len = Math.hypot((bLat - aLat) * M_PER_DEG, (bLon - aLon) * eastPerDeg(aLat));
    pieces.push(len);
    total += len;
  }
  let left = Math.min(1, Math.max(0, t)) * total;
  for (let k = 1; k < line.length; k++) {
    const len = pieces[k - 1]!;
    if (left <= len || k === line.length - 1) {
      const [aLat, aLon] = line[k - 1]!;
      const [bLat, bLon] = line[k]!;
      const f = len > 0 ? Math.min(1, left / len) : 0;
      const north = (bLat - aLat) * M_PER_DEG;
      const east = (bLon - aLon) * eastPerDeg(aLat);
      const norm = Math.hypot(north, east) || 1;
      return { lat: aLat + (bLat - aLat) * f, lon: aLon + (bLon - aLon) * f, north: north / norm, east: east / norm };
    }
    left -= len;
  }
  const [lat, lon] = line[0]!;
  return { lat, lon, north: 1, east: 0 };
}

export type WaySize = "long" | "medium" | "short";

/**
 * Hands out the ways for the streets to be named: fast roads and avenues for
 * the long streets, residential runs for the others, one block of a run for
 * a lane or a square. Central ways first when asked (the best-known names
 * belong in the centre), otherwise in a shuffled order.
 */
export class WayPicker {
  private readonly pools: Record<WaySize, number[]>;
  private readonly used = new Set<number>();

  constructor(
    private readonly plan: RoadPlan,
    rng: Rng,
  ) {
    const kinds: Record<WaySize, readonly WayKind[]> = { long: ["radial", "ring", "avenue"], medium: ["street", "avenue"], short: ["street"] };
    const build = (size: WaySize) => rng.shuffle(plan.ways.flatMap((w, k) => (kinds[size].includes(w.kind) ? [k] : [])));
    this.pools = { long: build("long"), medium: build("medium"), short: build("short") };
  }

  private distanceToCentre(way: number): number {
    const [lat, lon] = this.plan.nodes[this.plan.segments[this.plan.ways[way]!.segments[0]!]!.from]!;
    const [cLat, cLon] = this.plan.centre;
    return Math.hypot(lat - cLat, (lon - cLon) * Math.cos((cLat * Math.PI) / 180));
  }

  /** The segments of a way not yet named, or undefined when none is left. */
  take(size: WaySize, central: boolean): number[] | undefined {
    let pool = this.pools[size].filter((w) => !this.used.has(w));
    if (pool.length === 0) pool = [...this.pools.long, ...this.pools.medium].filter((w) => !this.used.has(w));
    if (pool.length === 0) return undefined;
    let way = pool[0]!;
    if (central) for (const w of pool) if (this.distanceToCentre(w) < this.distanceToCentre(way)) way = w;
    this.used.add(way);
    const segments = this.plan.ways[way]!.segments;
    return size === "short" ? segments.slice(0, 1) : [...segments];
  }
}
