// The router against an independent reference: plain Dijkstra (an O(n²)
// scan, no heap, no landmarks) on the same graph with the two points
// inserted as nodes, on random graphs with one-way segments, several road
// classes and islands.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RoadGraph, type RoadNetworkData, type RoadSegmentRow, type Snap } from "../../server/routing/graph";
import { buildLandmarks } from "../../server/routing/landmarks";
import { Router } from "../../server/routing/search";
import { ROAD_CLASSES, paceAt } from "../../server/routing/speeds";
import { buildRoadPlan } from "../../server/seed/demo/roads";
import { Rng } from "../../server/seed/demo/random";

interface Edge {
  from: number;
  to: number;
  seconds: number;
  metres: number;
}

/** Plain Dijkstra over an edge list: times and distances of the fastest route. */
function reference(nodeCount: number, edges: readonly Edge[], source: number, target: number): { seconds: number; metres: number } {
  const dist = new Array<number>(nodeCount).fill(Infinity);
  const metres = new Array<number>(nodeCount).fill(Infinity);
  const done = new Array<boolean>(nodeCount).fill(false);
  dist[source] = 0;
  metres[source] = 0;
  for (;;) {
    let v = -1;
    for (let i = 0; i < nodeCount; i++) if (!done[i] && dist[i]! < Infinity && (v === -1 || dist[i]! < dist[v]!)) v = i;
    if (v === -1) break;
    done[v] = true;
    for (const e of edges) {
      if (e.from !== v) continue;
      if (dist[v]! + e.seconds < dist[e.to]!) {
        dist[e.to] = dist[v]! + e.seconds;
        metres[e.to] = metres[v]! + e.metres;
      }
    }
  }
  return { seconds: dist[target]!, metres: metres[target]! };
}

/** The graph as an edge list with the snaps as extra nodes splitting their segments. */
function referenceEdges(graph: RoadGraph, pace: Float64Array, snaps: readonly Snap[]): { nodeCount: number; edges: Edge[]; snapNodes: number[] } {
  const edges: Edge[] = [];
  let nodeCount = graph.nodeCount;
  const snapNodes = snaps.map(() => nodeCount++);
  for (let s = 0; s < graph.segmentCount; s++) {
    const p = pace[graph.segmentClass[s]!]!;
    // Cut points along the segment: its ends and the snaps on it, in order.
    const cuts = [{ node: graph.segmentFrom[s]!, along: 0 }];
    snaps.forEach((snap, i) => {
      if (snap.segment === s) cuts.push({ node: snapNodes[i]!, along: snap.along });
    });
    cuts.push({ node: graph.segmentTo[s]!, along: graph.segmentLength[s]! });
    cuts.sort((a, b) => a.along - b.along);
    for (let k = 1; k < cuts.length; k++) {
      const metres = cuts[k]!.along - cuts[k - 1]!.along;
      edges.push({ from: cuts[k - 1]!.node, to: cuts[k]!.node, seconds: metres * p, metres });
      if (!graph.segmentOneway[s]) edges.push({ from: cuts[k]!.node, to: cuts[k - 1]!.node, seconds: metres * p, metres });
    }
  }
  return { nodeCount, edges, snapNodes };
}

const BOX = { lat: 55.7, lon: 37.6, size: 0.02 };

// Uniform in the box and a little around it (fc.double favours the extremes,
// which would put most points on the same corner).
const unit = fc.integer({ min: 0, max: 1_000_000 }).map((k) => k / 1_000_000);
const networkOf = (maxNodes: number, maxSegments: number) => fc
  .record({
    nodes: fc.array(fc.tuple(unit, unit), { minLength: 2, maxLength: maxNodes }),
    segments: fc.array(
      fc.record({
        a: fc.nat(),
        b: fc.nat(),
        stretch: fc.double({ min: 1, max: 1.6, noNaN: true }),
        roadClass: fc.constantFrom(...ROAD_CLASSES),
        oneway: fc.boolean(),
        bend: fc.option(fc.tuple(unit, unit)),
      }),
      { minLength: 1, maxLength: maxSegments },
    ),
    hour: fc.integer({ min: 0, max: 23 }),
  })
  .map(({ nodes, segments, hour }): { data: RoadNetworkData; hour: number } => {
    const nodeRows = nodes.map(([y, x], i) => ({ id: 100 + i, lat: BOX.lat + y * BOX.size, lon: BOX.lon + x * BOX.size }));
    const rows: RoadSegmentRow[] = segments.map((s, i) => {
      const a = nodeRows[s.a % nodeRows.length]!;
      const b = nodeRows[s.b % nodeRows.length]!;
      const shape = s.bend ? [BOX.lat + s.bend[0] * BOX.size, BOX.lon + s.bend[1] * BOX.size] : [];
      const metres = Math.hypot((a.lat - b.lat) * 111_320, (a.lon - b.lon) * 62_700) * s.stretch;
      return { id: 1 + i, from: a.id, to: b.id, length: metres, roadClass: s.roadClass, oneway: s.oneway, name: "", streetId: null, shape };
    });
    return { data: { nodes: nodeRows, segments: rows }, hour };
  });
const networkArb = networkOf(40, 90);

const pointArb = fc.tuple(unit, unit).map(([y, x]) => [y * 1.2 - 0.1, x * 1.2 - 0.1] as const);

describe("routing on random graphs", () => {
  it.each([
    ["small graphs, default landmarks", networkOf(40, 90), 0, 400],
    ["larger graphs, 6 landmarks", networkOf(150, 450), 6, 150],
  ] as const)("route() finds the times of plain Dijkstra: %s", (_, arb, landmarks, runs) => {
    fc.assert(
      fc.property(arb, pointArb, pointArb, ({ data, hour }, [y1, x1], [y2, x2]) => {
        const graph = new RoadGraph(data);
        const router = landmarks > 0 ? new Router(graph, buildLandmarks(graph, landmarks)) : new Router(graph);
        const pace = paceAt(graph.speeds, hour);
        const from = graph.snap(BOX.lat + y1 * BOX.size, BOX.lon + x1 * BOX.size, 10_000);
        const to = graph.snap(BOX.lat + y2 * BOX.size, BOX.lon + x2 * BOX.size, 10_000);
        if (!from || !to) return;
        const ref = referenceEdges(graph, pace, [from, to]);
        const expected = reference(ref.nodeCount, ref.edges, ref.snapNodes[0]!, ref.snapNodes[1]!);
        const got = router.route(from, to, pace);
        if (expected.seconds === Infinity) {
          expect(got).toBeUndefined();
          return;
        }
        expect(got).toBeDefined();
        expect(got!.seconds).toBeCloseTo(expected.seconds, 6);
        // Equal times may come by routes of different lengths: the length is checked on its own below.
        expect(got!.points[0]).toEqual([from.lat, from.lon]);
        expect(got!.points.at(-1)).toEqual([to.lat, to.lon]);
      }),
      { numRuns: runs },
    );
  });

  it("timesTo() gives every start the time route() gives it", () => {
    fc.assert(
      fc.property(networkArb, fc.array(pointArb, { minLength: 1, maxLength: 8 }), pointArb, ({ data, hour }, starts, [y2, x2]) => {
        const graph = new RoadGraph(data);
        const router = new Router(graph);
        const pace = paceAt(graph.speeds, hour);
        const to = graph.snap(BOX.lat + y2 * BOX.size, BOX.lon + x2 * BOX.size, 10_000);
        if (!to) return;
        const froms = starts.map(([y, x]) => graph.snap(BOX.lat + y * BOX.size, BOX.lon + x * BOX.size, 10_000)!);
        const times = router.timesTo(to, froms, pace);
        froms.forEach((from, i) => {
          const ref = referenceEdges(graph, pace, [from, to]);
          const expected = reference(ref.nodeCount, ref.edges, ref.snapNodes[0]!, ref.snapNodes[1]!).seconds;
          if (expected === Infinity) expect(times[i]).toBe(Infinity);
          else expect(times[i]).toBeCloseTo(expected, 6);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("the length of the route is the length of its drawn path on straight segments", () => {
    // On a graph whose stored lengths are the drawn lengths, the reported
    // metres must equal the polyline's length (the path and the sum agree).
    fc.assert(
      fc.property(networkArb, pointArb, pointArb, ({ data }, [y1, x1], [y2, x2]) => {
        const exact = {
          nodes: data.nodes,
          segments: data.segments.map((s) => {
            const a = data.nodes.find((n) => n.id === s.from)!;
            const b = data.nodes.find((n) => n.id === s.to)!;
            return { ...s, shape: [], length: Math.hypot((a.lat - b.lat) * 111_320, (a.lon - b.lon) * 111_320 * Math.cos((55.71 * Math.PI) / 180)) };
          }),
        };
        const graph = new RoadGraph(exact);
        const router = new Router(graph);
        const from = graph.snap(BOX.lat + y1 * BOX.size, BOX.lon + x1 * BOX.size, 10_000);
        const to = graph.snap(BOX.lat + y2 * BOX.size, BOX.lon + x2 * BOX.size, 10_000);
        if (!from || !to) return;
        const got = router.route(from, to, paceAt(graph.speeds, 12));
        if (!got) return;
        let drawn = 0;
        for (let i = 1; i < got.points.length; i++) {
          const [aLat, aLon] = got.points[i - 1]!;
          const [bLat, bLon] = got.points[i]!;
          drawn += Math.hypot((aLat - bLat) * 111_320, (aLon - bLon) * 111_320 * Math.cos((55.71 * Math.PI) / 180));
        }
        expect(got.metres).toBeCloseTo(drawn, 0);
      }),
      { numRuns: 200 },
    );
  });
});

describe("routing on the demo generator's network", () => {
  // A small town from the seed's road generator: grid, rings, radials, river, one-way centre.
  const plan = buildRoadPlan(new Rng(7).fork("town"), { minLat: 56.8, maxLat: 56.86, minLon: 35.8, maxLon: 35.9 }, { spacing: 400 });
  const data: RoadNetworkData = {
    nodes: plan.nodes.map(([lat, lon], i) => ({ id: i + 1, lat, lon })),
    segments: plan.segments.map((seg, i) => ({ id: i + 1, from: seg.from + 1, to: seg.to + 1, length: seg.length, roadClass: seg.roadClass, oneway: seg.oneway, name: "", streetId: null, shape: null })),
  };
  const graph = new RoadGraph(data);
  const router = new Router(graph);

  it("is one connected network with one-way streets", () => {
    expect(graph.segmentCount).toBeGreaterThan(300);
    expect(plan.segments.some((seg) => seg.oneway)).toBe(true);
    const times = router.timesTo(graph.snapToNode(0)!, Array.from({ length: graph.nodeCount }, (_, v) => graph.snapToNode(v)!), paceAt(graph.speeds, 3));
    expect(times.every((t) => Number.isFinite(t))).toBe(true);
  });

  it("finds the times of plain Dijkstra at every hour", () => {
    fc.assert(
      fc.property(pointArb, pointArb, fc.integer({ min: 0, max: 23 }), ([y1, x1], [y2, x2], hour) => {
        const pace = paceAt(graph.speeds, hour);
        const from = graph.snap(56.8 + y1 * 0.06, 35.8 + x1 * 0.1, 5_000)!;
        const to = graph.snap(56.8 + y2 * 0.06, 35.8 + x2 * 0.1, 5_000)!;
        const ref = referenceEdges(graph, pace, [from, to]);
        const expected = reference(ref.nodeCount, ref.edges, ref.snapNodes[0]!, ref.snapNodes[1]!);
        expect(router.route(from, to, pace)!.seconds).toBeCloseTo(expected.seconds, 6);
      }),
      { numRuns: 60 },
    );
  });
});

describe("snapping", () => {
  it("puts a point on the nearest piece of road (brute force agrees)", () => {
    fc.assert(
      fc.property(networkArb, pointArb, ({ data }, [y, x]) => {
        const graph = new RoadGraph(data);
        const lat = BOX.lat + y * BOX.size;
        const lon = BOX.lon + x * BOX.size;
        const snap = graph.snap(lat, lon, 100_000);
        expect(snap).toBeDefined();
        // Brute force over every piece in the same planar frame.
        let best = Infinity;
        const k = 111_320 * Math.cos((((Math.min(...graph.nodeLat) + Math.max(...graph.nodeLat)) / 2) * Math.PI) / 180);
        for (let s = 0; s < graph.segmentCount; s++) {
          for (let p = graph.shapeStart[s]!; p < graph.shapeStart[s + 1]! - 1; p++) {
            const ax = graph.shapeLon[p]! * k;
            const ay = graph.shapeLat[p]! * 111_320;
            const dx = graph.shapeLon[p + 1]! * k - ax;
            const dy = graph.shapeLat[p + 1]! * 111_320 - ay;
            const len2 = dx * dx + dy * dy;
            const t = len2 > 0 ? Math.min(1, Math.max(0, ((lon * k - ax) * dx + (lat * 111_320 - ay) * dy) / len2)) : 0;
            best = Math.min(best, Math.hypot(ax + t * dx - lon * k, ay + t * dy - lat * 111_320));
          }
        }
        expect(snap!.distance).toBeCloseTo(best, 3);
        expect(snap!.along).toBeGreaterThanOrEqual(0);
        expect(snap!.along).toBeLessThanOrEqual(graph.segmentLength[snap!.segment]! + 1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it("finds nothing beyond the distance asked", () => {
    const graph = new RoadGraph({
      nodes: [
        { id: 1, lat: 55.7, lon: 37.6 },
        { id: 2, lat: 55.701, lon: 37.6 },
      ],
      segments: [{ id: 1, from: 1, to: 2, length: 111, roadClass: "PRIMARY", oneway: false, name: "", streetId: null, shape: [] }],
    });
    expect(graph.snap(55.7005, 37.601, 50)).toBeUndefined();
    expect(graph.snap(55.7005, 37.601, 100)?.distance).toBeCloseTo(62.6, 0);
  });
});

describe("one-way streets", () => {
  // 1 -> 2 one way (100 m), 2 - 3 - 1 two way around (300 m each).
  const graph = new RoadGraph({
    nodes: [
      { id: 1, lat: 55.7, lon: 37.6 },
      { id: 2, lat: 55.7009, lon: 37.6 },
      { id: 3, lat: 55.70045, lon: 37.603 },
    ],
    segments: [
      { id: 1, from: 1, to: 2, length: 100, roadClass: "RESIDENTIAL", oneway: true, name: "", streetId: null, shape: [] },
      { id: 2, from: 2, to: 3, length: 300, roadClass: "RESIDENTIAL", oneway: false, name: "", streetId: null, shape: [] },
      { id: 3, from: 3, to: 1, length: 300, roadClass: "RESIDENTIAL", oneway: false, name: "", streetId: null, shape: [] },
    ],
  });
  const router = new Router(graph);
  const pace = paceAt(graph.speeds, 3);

  it("drives along a one-way street the right way", () => {
    const route = router.route(graph.snapToNode(0)!, graph.snapToNode(1)!, pace)!;
    expect(route.metres).toBeCloseTo(100);
  });

  it("goes round the block against it", () => {
    const route = router.route(graph.snapToNode(1)!, graph.snapToNode(0)!, pace)!;
    expect(route.metres).toBeCloseTo(600);
  });
});
