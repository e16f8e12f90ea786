// Landmarks for A* (the ALT method): travel times from and to a few nodes
// far apart, computed once per load. By the triangle inequality,
//   time(v, t) >= time(L, t) - time(L, v)   and   time(v, t) >= time(v, L) - time(t, L),
// so the largest of these over the landmarks is a lower bound of the time
// left, far tighter on a street network than the straight line at top speed.
// The times use each class's fastest speed over the day, so they bound the
// times of every hour, and one set serves all of them.
import type { RoadGraph } from "./graph";
import { NodeHeap } from "./heap";

export interface Landmarks {
  count: number;
  nodes: Int32Array;
  /** from[k][v]: time from landmark k to v (Infinity: unreachable). */
  from: Float32Array[];
  /** to[k][v]: time from v to landmark k. */
  to: Float32Array[];
  /**
   * Float32 keeps half the memory of Float64 but rounds: the bounds are
   * lowered by this much so that they stay below the true times.
   */
  slack: number;
}

/** Shortest times from the sources to every node (or, reversed, from every node to them). */
export function allTimes(graph: RoadGraph, sources: readonly number[], pace: Float64Array, reverse: boolean): Float64Array {
  const dist = new Float64Array(graph.nodeCount).fill(Infinity);
  const heap = new NodeHeap(Math.max(16, graph.nodeCount));
  for (const s of sources) {
    dist[s] = 0;
    heap.push(0, s);
  }
  const start = reverse ? graph.inStart : graph.outStart;
  const list = reverse ? graph.inArcs : graph.outArcs;
  const other = reverse ? graph.arcTail : graph.arcHead;
  while (heap.size > 0) {
    const key = heap.peekKey();
    const v = heap.pop();
    if (key > dist[v]!) continue;
    for (let i = start[v]!; i < start[v + 1]!; i++) {
      const a = list[i]!;
      const w = other[a]!;
      const d = key + graph.arcLength[a]! * pace[graph.arcClass[a]!]!;
      if (d < dist[w]!) {
        dist[w] = d;
        heap.push(d, w);
      }
    }
  }
  return dist;
}

/**
 * Chooses `count` landmarks by farthest selection (each new one the node
 * farthest from those chosen, within the part of the network reachable from
 * the first) and computes their times.
 */
export function buildLandmarks(graph: RoadGraph, count: number): Landmarks {
  const pace = graph.fastest;
  const n = graph.nodeCount;
  const nodes: number[] = [];
  const from: Float32Array[] = [];
  const to: Float32Array[] = [];
  let maxTime = 0;
  if (n > 0 && count > 0) {
    // Start from the node farthest from one in the main part of the network
    // (a node of a small island, say a car park's lanes, would put every
    // landmark there): the first of a few tries that reaches half the nodes.
    let seed = allTimes(graph, [0], pace, false);
    for (let attempt = 1, reached = countFinite(seed); attempt < 6 && reached < n / 2; attempt++) {
      const other = allTimes(graph, [Math.floor((n * attempt) / 6)], pace, false);
      const count = countFinite(other);
      if (count > reached) [seed, reached] = [other, count];
    }
    let first = 0;
    for (let v = 0; v < n; v++) if (seed[v]! !== Infinity && seed[v]! > seed[first]!) first = v;
    const nearest = new Float64Array(n).fill(Infinity);
    let next = first;
    while (nodes.length < count) {
      nodes.push(next);
      const f = allTimes(graph, [next], pace, false);
      const t = allTimes(graph, [next], pace, true);
      from.push(Float32Array.from(f));
      to.push(Float32Array.from(t));
      for (let v = 0; v < n; v++) {
        if (f[v]! !== Infinity) maxTime = Math.max(maxTime, f[v]!);
        if (t[v]! !== Infinity) maxTime = Math.max(maxTime, t[v]!);
        nearest[v] = Math.min(nearest[v]!, f[v]! + t[v]!);
      }
      let far = -1;
      for (let v = 0; v < n; v++) {
        if (nearest[v]! === Infinity || nearest[v]! === 0) continue;
        if (far === -1 || nearest[v]! > nearest[far]!) far = v;
      }
      if (far === -1) break;
      next = far;
    }
  }
  // Float32 keeps 24 bits: each stored time is off by at most 2^-24 of the
  // largest; a difference of two by twice that.
  return { count: nodes.length, nodes: Int32Array.from(nodes), from, to, slack: maxTime * 2 ** -22 };
}

function countFinite(times: Float64Array): number {
  let count = 0;
  for (const t of times) if (t !== Infinity) count++;
  return count;
}
