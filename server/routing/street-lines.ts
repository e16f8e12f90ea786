// The streets as drawn lines, from the road segments named after them: each
// street's segments chained end to end into as few polylines as the network
// allows (a street broken by a river or a square gives two). For the
// console's plain base map, which must show the city with no tile server.
import type { RoadGraph } from "./graph";

export type LinePoint = [number, number];

/** streetId -> polylines of [lat, lon]. */
export function streetPolylines(graph: RoadGraph): Map<number, LinePoint[][]> {
  const byStreet = new Map<number, number[]>();
  for (let s = 0; s < graph.segmentCount; s++) {
    const street = graph.segmentStreet[s]!;
    if (street === 0) continue;
    let list = byStreet.get(street);
    if (!list) byStreet.set(street, (list = []));
    list.push(s);
  }
  const out = new Map<number, LinePoint[][]>();
  for (const [street, segments] of byStreet) out.set(street, chain(graph, segments));
  return out;
}

/** The shape of segment s from `node` to its other end. */
function shapeFrom(graph: RoadGraph, s: number, node: number): LinePoint[] {
  const first = graph.shapeStart[s]!;
  const last = graph.shapeStart[s + 1]! - 1;
  const points: LinePoint[] = [];
  if (graph.segmentFrom[s] === node) for (let p = first; p <= last; p++) points.push([graph.shapeLat[p]!, graph.shapeLon[p]!]);
  else for (let p = last; p >= first; p--) points.push([graph.shapeLat[p]!, graph.shapeLon[p]!]);
  return points;
}

function chain(graph: RoadGraph, segments: readonly number[]): LinePoint[][] {
  const at = new Map<number, number[]>();
  const touch = (node: number, s: number) => {
    let list = at.get(node);
    if (!list) at.set(node, (list = []));
    list.push(s);
  };
  for (const s of segments) {
    touch(graph.segmentFrom[s]!, s);
    touch(graph.segmentTo[s]!, s);
  }
  const used = new Set<number>();
  const lines: LinePoint[][] = [];
  // Start at the ends (a junction with one segment of the street) first, so that a line is not cut in its middle.
  const starts = [...segments].sort((a, b) => endRank(at, graph, a) - endRank(at, graph, b));
  for (const start of starts) {
    if (used.has(start)) continue;
    used.add(start);
    const from = (at.get(graph.segmentFrom[start]!)?.length ?? 0) === 1 ? graph.segmentFrom[start]! : graph.segmentTo[start]!;
    let node = graph.segmentFrom[start] === from ? graph.segmentTo[start]! : graph.segmentFrom[start]!;
    const line = shapeFrom(graph, start, from);
    for (;;) {
      const next = at.get(node)?.find((s) => !used.has(s));
      if (next === undefined) break;
      used.add(next);
      line.push(...shapeFrom(graph, next, node).slice(1));
      node = graph.segmentFrom[next] === node ? graph.segmentTo[next]! : graph.segmentFrom[next]!;
    }
    lines.push(line);
  }
  return lines;
}

/** 0 for a segment at an end of its street, 1 otherwise. */
function endRank(at: Map<number, number[]>, graph: RoadGraph, s: number): number {
  return (at.get(graph.segmentFrom[s]!)?.length ?? 0) === 1 || (at.get(graph.segmentTo[s]!)?.length ?? 0) === 1 ? 0 : 1;
}
