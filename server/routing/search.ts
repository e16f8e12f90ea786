// Shortest travel times on a road graph: A* with landmark bounds from point
// to point, and a backward Dijkstra from one point to many (the arrival
// times of many cars at one pickup). Points are snaps: places on a segment,
// so a route starts and ends mid-block and respects one-way segments there.
// One Router per graph; its scratch arrays make searches allocation-free and
// are safe because a search runs to the end synchronously.
import type { RoadGraph, Snap } from "./graph";
import { NodeHeap } from "./heap";
import { buildLandmarks, type Landmarks } from "./landmarks";

export interface Route {
  seconds: number;
  metres: number;
  /** The drawn route: [lat, lon] from the start snap to the end snap. */
  points: Array<[number, number]>;
  /** Settled nodes: the work the search did. */
  settled: number;
}

/** A place to enter or leave the graph at: a junction and the cost of reaching it. */
interface Gate {
  node: number;
  seconds: number;
  metres: number;
}

export class Router {
  readonly graph: RoadGraph;
  readonly landmarks: Landmarks;
  private readonly dist: Float64Array;
  private readonly bound: Float64Array;
  private readonly parent: Int32Array;
  private readonly stamp: Uint32Array;
  private readonly wanted: Uint32Array;
  private generation = 0;
  private readonly heap: NodeHeap;
  // The target's landmark times of the search in progress.
  private readonly targetFrom: Float64Array;
  private readonly targetTo: Float64Array;
  private readonly active: Int32Array;
  private activeCount = 0;
  private scale = 1;

  constructor(graph: RoadGraph, landmarks = buildLandmarks(graph, defaultLandmarkCount(graph.nodeCount))) {
    this.graph = graph;
    this.landmarks = landmarks;
    const n = graph.nodeCount;
    this.dist = new Float64Array(n);
    this.bound = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.wanted = new Uint32Array(n);
    this.heap = new NodeHeap(1024);
    this.targetFrom = new Float64Array(landmarks.count * 2);
    this.targetTo = new Float64Array(landmarks.count * 2);
    this.active = new Int32Array(landmarks.count);
  }

  private nextGeneration(): number {
    if (++this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.wanted.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }

  /** Where a trip from the snap enters the graph: the segment's ends it may drive to. */
  private exits(from: Snap, pace: Float64Array): Gate[] {
    const g = this.graph;
    const s = from.segment;
    const p = pace[g.segmentClass[s]!]!;
    const length = g.segmentLength[s]!;
    const gates: Gate[] = [{ node: g.segmentTo[s]!, seconds: (length - from.along) * p, metres: length - from.along }];
    if (!g.segmentOneway[s]) gates.push({ node: g.segmentFrom[s]!, seconds: from.along * p, metres: from.along });
    return gates;
  }

  /** Where a trip to the snap leaves the graph: the segment's ends it may come from. */
  private entries(to: Snap, pace: Float64Array): Gate[] {
    const g = this.graph;
    const s = to.segment;
    const p = pace[g.segmentClass[s]!]!;
    const length = g.segmentLength[s]!;
    const gates: Gate[] = [{ node: g.segmentFrom[s]!, seconds: to.along * p, metres: to.along }];
    if (!g.segmentOneway[s]) gates.push({ node: g.segmentTo[s]!, seconds: (length - to.along) * p, metres: length - to.along });
    return gates;
  }

  /** Along one segment without a junction, when both snaps are on it and its direction allows. */
  private direct(from: Snap, to: Snap, pace: Float64Array): { seconds: number; metres: number } | undefined {
    if (from.segment !== to.segment) return undefined;
    const g = this.graph;
    const metres = to.along - from.along;
    if (metres < 0 && g.segmentOneway[from.segment]) return undefined;
    return { seconds: Math.abs(metres) * pace[g.segmentClass[from.segment]!]!, metres: Math.abs(metres) };
  }

  /**
   * A lower bound of the time from v to the nearest of the search's targets:
   * the landmark bound (free-flow times) times the search's scale, using the
   * active landmarks only.
   */
  private lowerBound(v: number, targets: number): number {
    const lm = this.landmarks;
    const count = this.activeCount;
    let best = Infinity;
    for (let t = 0; t < targets; t++) {
      let h = 0;
      for (let i = 0; i < count; i++) {
        const k = this.active[i]!;
        const a = this.targetFrom[t * lm.count + k]! - lm.from[k]![v]!;
        const b = lm.to[k]![v]! - this.targetTo[t * lm.count + k]!;
        // Infinity - Infinity (neither reachable) is NaN: no bound from this landmark.
        if (a > h) h = a;
        if (b > h && b !== Infinity) h = b;
      }
      if (h < best) best = h;
    }
    return best === Infinity ? Infinity : Math.max(0, (best - lm.slack) * this.scale);
  }

  /**
   * Prepares the bound of one search: the scale and the active landmarks.
   * Times at the search's pace are at least `scale` times the free-flow
   * times (the smallest ratio of the two paces over the classes), so the
   * scaled bound stays below the truth and consistent; at rush hour it is
   * far tighter than the free-flow bound. Of the landmarks, the few that
   * bound best between the start and the targets serve the whole search
   * (fewer to read per junction, little lost in tightness).
   */
  private prepareBound(starts: readonly Gate[], targets: number, pace: Float64Array): void {
    const lm = this.landmarks;
    const fastest = this.graph.fastest;
    let scale = Infinity;
    for (let c = 0; c < fastest.length; c++) scale = Math.min(scale, pace[c]! / fastest[c]!);
    this.scale = scale;
    const quality: Array<{ k: number; q: number }> = [];
    for (let k = 0; k < lm.count; k++) {
      let q = 0;
      for (const gate of starts) {
        for (let t = 0; t < targets; t++) {
          const a = this.targetFrom[t * lm.count + k]! - lm.from[k]![gate.node]!;
          const b = lm.to[k]![gate.node]! - this.targetTo[t * lm.count + k]!;
          if (Number.isFinite(a)) q = Math.max(q, a);
          if (Number.isFinite(b)) q = Math.max(q, b);
        }
      }
      quality.push({ k, q });
    }
    quality.sort((x, y) => y.q - x.q || x.k - y.k);
    this.activeCount = Math.min(ACTIVE_LANDMARKS, quality.length);
    for (let i = 0; i < this.activeCount; i++) this.active[i] = quality[i]!.k;
  }

  /** The fastest route between two snaps at the given pace (seconds per metre by class), or undefined when there is none. */
  route(from: Snap, to: Snap, pace: Float64Array): Route | undefined {
    const g = this.graph;
    const lm = this.landmarks;
    const gen = this.nextGeneration();
    const heap = this.heap;
    heap.clear();
    const { dist, bound, parent, stamp } = this;

    const entries = this.entries(to, pace);
    entries.forEach((gate, t) => {
      this.wanted[gate.node] = gen;
      for (let k = 0; k < lm.count; k++) {
        this.targetFrom[t * lm.count + k] = lm.from[k]![gate.node]!;
        this.targetTo[t * lm.count + k] = lm.to[k]![gate.node]!;
      }
    });

    const straight = this.direct(from, to, pace);
    let best = straight?.seconds ?? Infinity;
    let bestEntry = -1;
    const exits = this.exits(from, pace);
    this.prepareBound(exits, entries.length, pace);
    for (const gate of exits) {
      const v = gate.node;
      if (stamp[v] === gen && dist[v]! <= gate.seconds) continue;
      if (stamp[v] !== gen) bound[v] = this.lowerBound(v, entries.length);
      stamp[v] = gen;
      dist[v] = gate.seconds;
      parent[v] = -1;
      if (bound[v] !== Infinity) heap.push(gate.seconds + bound[v]!, v);
    }

    let settled = 0;
    while (heap.size > 0) {
      const key = heap.peekKey();
      if (key >= best) break;
      const v = heap.pop();
      const d = dist[v]!;
      // A stale entry: the node was reached faster since it was pushed.
      if (key > d + bound[v]!) continue;
      settled++;
      if (this.wanted[v] === gen) {
        for (let t = 0; t < entries.length; t++) {
          const gate = entries[t]!;
          if (gate.node === v && d + gate.seconds < best) {
            best = d + gate.seconds;
            bestEntry = t;
          }
        }
      }
      for (let i = g.outStart[v]!; i < g.outStart[v + 1]!; i++) {
        const a = g.outArcs[i]!;
        const w = g.arcHead[a]!;
        const nd = d + g.arcLength[a]! * pace[g.arcClass[a]!]!;
        if (stamp[w] !== gen) {
          stamp[w] = gen;
          bound[w] = this.lowerBound(w, entries.length);
        } else if (nd >= dist[w]!) continue;
        dist[w] = nd;
        parent[w] = a;
        if (bound[w] !== Infinity) heap.push(nd + bound[w]!, w);
      }
    }
    if (best === Infinity) return undefined;
    if (bestEntry === -1) {
      return { seconds: best, metres: straight!.metres, points: this.drawDirect(from, to), settled };
    }
    // Back from the entry to the exit it came from.
    const entry = entries[bestEntry]!;
    const arcs: number[] = [];
    let v = entry.node;
    while (parent[v] !== -1) {
      const a = parent[v]!;
      arcs.push(a);
      v = g.arcTail[a]!;
    }
    arcs.reverse();
    const exit = exits.find((gate) => gate.node === v)!;
    let metres = exit.metres + entry.metres;
    for (const a of arcs) metres += g.arcLength[a]!;
    return { seconds: best, metres, points: this.draw(from, exit.node, arcs, entry.node, to), settled };
  }

  /**
   * The fastest times from each of the snaps `from` to the snap `to`
   * (Infinity: no route, or longer than `maxSeconds`): one backward search
   * from the destination that stops once every start is settled.
   */
  timesTo(to: Snap, from: readonly Snap[], pace: Float64Array, maxSeconds = Infinity): Float64Array {
    const g = this.graph;
    const gen = this.nextGeneration();
    const heap = this.heap;
    heap.clear();
    const { dist, stamp, wanted } = this;
    const result = new Float64Array(from.length).fill(Infinity);
    const exits = from.map((snap) => this.exits(snap, pace));
    let remaining = 0;
    from.forEach((snap, i) => {
      const straight = this.direct(snap, to, pace);
      if (straight) result[i] = straight.seconds;
      for (const gate of exits[i]!) {
        if (wanted[gate.node] !== gen) {
          wanted[gate.node] = gen;
          remaining++;
        }
      }
    });
    for (const gate of this.entries(to, pace)) {
      const v = gate.node;
      if (stamp[v] === gen && dist[v]! <= gate.seconds) continue;
      stamp[v] = gen;
      dist[v] = gate.seconds;
      heap.push(gate.seconds, v);
    }
    while (heap.size > 0 && remaining > 0) {
      const key = heap.peekKey();
      if (key > maxSeconds) break;
      const v = heap.pop();
      if (key > dist[v]!) continue;
      if (wanted[v] === gen) {
        wanted[v] = 0;
        remaining--;
      }
      for (let i = g.inStart[v]!; i < g.inStart[v + 1]!; i++) {
        const a = g.inArcs[i]!;
        const u = g.arcTail[a]!;
        const nd = key + g.arcLength[a]! * pace[g.arcClass[a]!]!;
        if (stamp[u] === gen && nd >= dist[u]!) continue;
        stamp[u] = gen;
        dist[u] = nd;
        heap.push(nd, u);
      }
    }
    from.forEach((_, i) => {
      for (const gate of exits[i]!) {
        const v = gate.node;
        if (stamp[v] !== gen) continue;
        // Settled nodes are final; a node still waiting in the heap is past the limit.
        const total = gate.seconds + dist[v]!;
        if (total < result[i]! && total <= maxSeconds) result[i] = total;
      }
      if (result[i]! > maxSeconds) result[i] = Infinity;
    });
    return result;
  }

  // ---------------------------------------------------------------- drawing

  /** The shape points of segment s strictly after piece index `piece` (towards its end) or up to it (towards its start). */
  private shapeFrom(s: number, piece: number, forwards: boolean): Array<[number, number]> {
    const g = this.graph;
    const first = g.shapeStart[s]!;
    const last = g.shapeStart[s + 1]! - 1;
    const out: Array<[number, number]> = [];
    if (forwards) for (let p = first + piece + 1; p <= last; p++) out.push([g.shapeLat[p]!, g.shapeLon[p]!]);
    else for (let p = first + piece; p >= first; p--) out.push([g.shapeLat[p]!, g.shapeLon[p]!]);
    return out;
  }

  private drawDirect(from: Snap, to: Snap): Array<[number, number]> {
    const g = this.graph;
    const points: Array<[number, number]> = [[from.lat, from.lon]];
    const first = g.shapeStart[from.segment]!;
    if (to.along >= from.along) for (let p = from.piece + 1; p <= to.piece; p++) points.push([g.shapeLat[first + p]!, g.shapeLon[first + p]!]);
    else for (let p = from.piece; p > to.piece; p--) points.push([g.shapeLat[first + p]!, g.shapeLon[first + p]!]);
    points.push([to.lat, to.lon]);
    return points;
  }

  private draw(from: Snap, exit: number, arcs: readonly number[], entry: number, to: Snap): Array<[number, number]> {
    const g = this.graph;
    const points: Array<[number, number]> = [[from.lat, from.lon]];
    points.push(...this.shapeFrom(from.segment, from.piece, g.segmentTo[from.segment] === exit));
    for (const a of arcs) {
      const s = g.arcSegment[a]!;
      const first = g.shapeStart[s]!;
      const last = g.shapeStart[s + 1]! - 1;
      if (g.arcTail[a] === g.segmentFrom[s]) for (let p = first + 1; p <= last; p++) points.push([g.shapeLat[p]!, g.shapeLon[p]!]);
      else for (let p = last - 1; p >= first; p--) points.push([g.shapeLat[p]!, g.shapeLon[p]!]);
    }
    const s = to.segment;
    const first = g.shapeStart[s]!;
    const last = g.shapeStart[s + 1]! - 1;
    if (g.segmentFrom[s] === entry) for (let p = first + 1; p <= first + to.piece; p++) points.push([g.shapeLat[p]!, g.shapeLon[p]!]);
    else for (let p = last - 1; p > first + to.piece; p--) points.push([g.shapeLat[p]!, g.shapeLon[p]!]);
    points.push([to.lat, to.lon]);
    return points;
  }
}

/** Landmarks read per junction in one search. */
const ACTIVE_LANDMARKS = 4;

/** More landmarks tighten the bound but cost memory (8 bytes per node each) and load time. */
export function defaultLandmarkCount(nodes: number): number {
  if (nodes < 50) return Math.min(nodes, 2);
  return nodes < 5_000 ? 8 : 12;
}
