// A city's road network in memory: junctions and segments in typed arrays,
// the directed arcs in both adjacency orders (out of a node, into a node), and
// a spatial index of the segments' pieces to put a point on the nearest road.
// Built once per load (graph-cache.ts) and only read afterwards, so searches
// never touch the database.
import Flatbush from "flatbush";
import { CLASS_INDEX, fastestPace, speedTable, type RoadClass, type SpeedOverride } from "./speeds";

export interface RoadNodeRow {
  id: number;
  lat: number;
  lon: number;
}

export interface RoadSegmentRow {
  id: number;
  from: number;
  to: number;
  /** Metres. */
  length: number;
  roadClass: RoadClass;
  oneway: boolean;
  name: string;
  streetId: number | null;
  /** The points between the two junctions: lat, lon, lat, lon, ... */
  shape: readonly number[] | null;
}

export interface RoadNetworkData {
  nodes: readonly RoadNodeRow[];
  segments: readonly RoadSegmentRow[];
  speeds?: readonly SpeedOverride[];
}

/** A point put on a segment. */
export interface Snap {
  segment: number;
  /** Metres from the segment's first junction, along it (on its stored length). */
  along: number;
  /** Metres from the asked point to the road. */
  distance: number;
  lat: number;
  lon: number;
  /** The piece of the segment's shape the point fell on, and where on it (0..1). */
  piece: number;
  t: number;
}

const METRES_PER_DEGREE = 111_320;

export class RoadGraph {
  readonly nodeCount: number;
  readonly segmentCount: number;
  readonly arcCount: number;
  readonly nodeIds: Int32Array;
  readonly nodeLat: Float64Array;
  readonly nodeLon: Float64Array;
  readonly segmentIds: Int32Array;
  readonly segmentFrom: Int32Array;
  readonly segmentTo: Int32Array;
  readonly segmentLength: Float64Array;
  readonly segmentClass: Uint8Array;
  readonly segmentOneway: Uint8Array;
  readonly segmentNames: readonly string[];
  readonly segmentStreet: Int32Array;
  /** The whole polyline of segment s (its junctions included): points shapeStart[s] .. shapeStart[s + 1] - 1. */
  readonly shapeStart: Int32Array;
  readonly shapeLat: Float64Array;
  readonly shapeLon: Float64Array;
  /** Arc a runs from arcTail[a] to arcHead[a] along segment arcSegment[a] (forwards or backwards). */
  readonly arcTail: Int32Array;
  readonly arcHead: Int32Array;
  readonly arcSegment: Int32Array;
  readonly arcLength: Float64Array;
  readonly arcClass: Uint8Array;
  /** Arcs out of node v: outArcs[outStart[v] .. outStart[v + 1]). */
  readonly outStart: Int32Array;
  readonly outArcs: Int32Array;
  /** Arcs into node v: inArcs[inStart[v] .. inStart[v + 1]). */
  readonly inStart: Int32Array;
  readonly inArcs: Int32Array;
  /** Metres per second [class * 24 + hour]. */
  readonly speeds: Float64Array;
  /** Seconds per metre of each class at its fastest hour: the bound of the searches. */
  readonly fastest: Float64Array;
  private readonly nodeIndex: Map<number, number>;
  // The planar frame of the spatial index: metres east and north of (lat0, lon0).
  private readonly lat0: number;
  private readonly lon0: number;
  private readonly eastPerDegree: number;
  private readonly pieceSegment: Int32Array;
  /** Index of the piece's first point in the shape arrays. */
  private readonly piecePoint: Int32Array;
  private readonly pieces: Flatbush | undefined;

  constructor(data: RoadNetworkData) {
    const n = data.nodes.length;
    this.nodeCount = n;
    this.nodeIds = new Int32Array(n);
    this.nodeLat = new Float64Array(n);
    this.nodeLon = new Float64Array(n);
    this.nodeIndex = new Map();
    data.nodes.forEach((node, i) => {
      this.nodeIds[i] = node.id;
      this.nodeLat[i] = node.lat;
      this.nodeLon[i] = node.lon;
      this.nodeIndex.set(node.id, i);
    });

    // Segments whose junctions are both known (a row may point to a node of another city: skipped).
    const segments = data.segments.filter((s) => this.nodeIndex.has(s.from) && this.nodeIndex.has(s.to) && s.length >= 0);
    const m = segments.length;
    this.segmentCount = m;
    this.segmentIds = new Int32Array(m);
    this.segmentFrom = new Int32Array(m);
    this.segmentTo = new Int32Array(m);
    this.segmentLength = new Float64Array(m);
    this.segmentClass = new Uint8Array(m);
    this.segmentOneway = new Uint8Array(m);
    this.segmentStreet = new Int32Array(m);
    this.segmentNames = segments.map((s) => s.name);
    this.shapeStart = new Int32Array(m + 1);
    let points = 0;
    segments.forEach((s, i) => {
      this.shapeStart[i] = points;
      points += 2 + Math.floor((s.shape?.length ?? 0) / 2);
    });
    this.shapeStart[m] = points;
    this.shapeLat = new Float64Array(points);
    this.shapeLon = new Float64Array(points);
    let arcs = 0;
    segments.forEach((s, i) => {
      const from = this.nodeIndex.get(s.from)!;
      const to = this.nodeIndex.get(s.to)!;
      this.segmentIds[i] = s.id;
      this.segmentFrom[i] = from;
      this.segmentTo[i] = to;
      this.segmentLength[i] = s.length;
      this.segmentClass[i] = CLASS_INDEX[s.roadClass];
      this.segmentOneway[i] = s.oneway ? 1 : 0;
      this.segmentStreet[i] = s.streetId ?? 0;
      let p = this.shapeStart[i]!;
      this.shapeLat[p] = this.nodeLat[from]!;
      this.shapeLon[p++] = this.nodeLon[from]!;
      const shape = s.shape ?? [];
      for (let k = 0; k + 1 < shape.length; k += 2) {
        this.shapeLat[p] = shape[k]!;
        this.shapeLon[p++] = shape[k + 1]!;
      }
      this.shapeLat[p] = this.nodeLat[to]!;
      this.shapeLon[p] = this.nodeLon[to]!;
      arcs += s.oneway ? 1 : 2;
    });

    // Arcs: a one-way segment gives one, a two-way segment two.
    this.arcCount = arcs;
    this.arcTail = new Int32Array(arcs);
    this.arcHead = new Int32Array(arcs);
    this.arcSegment = new Int32Array(arcs);
    this.arcLength = new Float64Array(arcs);
    this.arcClass = new Uint8Array(arcs);
    let a = 0;
    for (let s = 0; s < m; s++) {
      const add = (tail: number, head: number) => {
        this.arcTail[a] = tail;
        this.arcHead[a] = head;
        this.arcSegment[a] = s;
        this.arcLength[a] = this.segmentLength[s]!;
        this.arcClass[a] = this.segmentClass[s]!;
        a++;
      };
      add(this.segmentFrom[s]!, this.segmentTo[s]!);
      if (!this.segmentOneway[s]) add(this.segmentTo[s]!, this.segmentFrom[s]!);
    }
    [this.outStart, this.outArcs] = adjacency(n, this.arcTail);
    [this.inStart, this.inArcs] = adjacency(n, this.arcHead);

    this.speeds = speedTable(data.speeds ?? []);
    this.fastest = fastestPace(this.speeds);

    // The spatial index of the pieces (consecutive shape points) in metres.
    let minLat = Infinity;
    let maxLat = -Infinity;
    let minLon = Infinity;
    let maxLon = -Infinity;
    for (let i = 0; i < n; i++) {
      minLat = Math.min(minLat, this.nodeLat[i]!);
      maxLat = Math.max(maxLat, this.nodeLat[i]!);
      minLon = Math.min(minLon, this.nodeLon[i]!);
      maxLon = Math.max(maxLon, this.nodeLon[i]!);
    }
    this.lat0 = n > 0 ? (minLat + maxLat) / 2 : 0;
    this.lon0 = n > 0 ? (minLon + maxLon) / 2 : 0;
    this.eastPerDegree = METRES_PER_DEGREE * Math.cos((this.lat0 * Math.PI) / 180);
    const pieceCount = points - m;
    this.pieceSegment = new Int32Array(pieceCount);
    this.piecePoint = new Int32Array(pieceCount);
    if (pieceCount > 0) {
      const index = new Flatbush(pieceCount);
      let k = 0;
      for (let s = 0; s < m; s++) {
        for (let p = this.shapeStart[s]!; p < this.shapeStart[s + 1]! - 1; p++) {
          const x1 = this.x(this.shapeLon[p]!);
          const y1 = this.y(this.shapeLat[p]!);
          const x2 = this.x(this.shapeLon[p + 1]!);
          const y2 = this.y(this.shapeLat[p + 1]!);
          index.add(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
          this.pieceSegment[k] = s;
          this.piecePoint[k] = p;
          k++;
        }
      }
      index.finish();
      this.pieces = index;
    }
  }

  /** The graph's index of a database node id. */
  nodeOf(id: number): number | undefined {
    return this.nodeIndex.get(id);
  }

  private x(lon: number): number {
    return (lon - this.lon0) * this.eastPerDegree;
  }

  private y(lat: number): number {
    return (lat - this.lat0) * METRES_PER_DEGREE;
  }

  /** The nearest point of the network within `maxMetres`, or undefined. */
  snap(lat: number, lon: number, maxMetres: number): Snap | undefined {
    const index = this.pieces;
    if (!index) return undefined;
    const px = this.x(lon);
    const py = this.y(lat);
    // Flatbush orders candidates by the distance to their boxes, a lower
    // bound of the distance to the piece: once the box of the last candidate
    // is farther than the best piece, no piece left out can be nearer.
    for (let k = 16; ; k *= 4) {
      const found = index.neighbors(px, py, k, maxMetres);
      let best: { piece: number; t: number; d2: number } | undefined;
      for (const piece of found) {
        const p = this.piecePoint[piece]!;
        const ax = this.x(this.shapeLon[p]!);
        const ay = this.y(this.shapeLat[p]!);
        const bx = this.x(this.shapeLon[p + 1]!);
        const by = this.y(this.shapeLat[p + 1]!);
        const dx = bx - ax;
        const dy = by - ay;
        const len2 = dx * dx + dy * dy;
        const t = len2 > 0 ? Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
        const ex = ax + t * dx - px;
        const ey = ay + t * dy - py;
        const d2 = ex * ex + ey * ey;
        if (!best || d2 < best.d2 || (d2 === best.d2 && piece < best.piece)) best = { piece, t, d2 };
      }
      if (!best) return undefined;
      const last = found[found.length - 1]!;
      if (found.length < k || this.boxDistance2(last, px, py) > best.d2) return this.snapOn(best.piece, best.t, Math.sqrt(best.d2));
    }
  }

  private boxDistance2(piece: number, px: number, py: number): number {
    const p = this.piecePoint[piece]!;
    const x1 = this.x(this.shapeLon[p]!);
    const x2 = this.x(this.shapeLon[p + 1]!);
    const y1 = this.y(this.shapeLat[p]!);
    const y2 = this.y(this.shapeLat[p + 1]!);
    const dx = Math.max(Math.min(x1, x2) - px, 0, px - Math.max(x1, x2));
    const dy = Math.max(Math.min(y1, y2) - py, 0, py - Math.max(y1, y2));
    return dx * dx + dy * dy;
  }

  private snapOn(piece: number, t: number, distance: number): Snap {
    const segment = this.pieceSegment[piece]!;
    const p = this.piecePoint[piece]!;
    // Where on the segment, as a share of its drawn length applied to its stored length.
    let before = 0;
    let total = 0;
    for (let q = this.shapeStart[segment]!; q < this.shapeStart[segment + 1]! - 1; q++) {
      const len = this.planarMetres(q);
      if (q < p) before += len;
      else if (q === p) before += len * t;
      total += len;
    }
    const share = total > 0 ? before / total : 0;
    return {
      segment,
      along: share * this.segmentLength[segment]!,
      distance,
      lat: this.shapeLat[p]! + (this.shapeLat[p + 1]! - this.shapeLat[p]!) * t,
      lon: this.shapeLon[p]! + (this.shapeLon[p + 1]! - this.shapeLon[p]!) * t,
      piece: p - this.shapeStart[segment]!,
      t,
    };
  }

  private planarMetres(p: number): number {
    return Math.hypot(this.x(this.shapeLon[p + 1]!) - this.x(this.shapeLon[p]!), this.y(this.shapeLat[p + 1]!) - this.y(this.shapeLat[p]!));
  }

  /** The snap of a junction itself (on one of its segments), for routes from node to node. */
  snapToNode(node: number): Snap | undefined {
    // Any arc at the junction: out of it, else into it.
    const arc = this.outStart[node]! < this.outStart[node + 1]! ? this.outArcs[this.outStart[node]!] : this.inStart[node]! < this.inStart[node + 1]! ? this.inArcs[this.inStart[node]!] : undefined;
    if (arc === undefined) return undefined;
    const segment = this.arcSegment[arc]!;
    const atStart = this.segmentFrom[segment] === node;
    const pieces = this.shapeStart[segment + 1]! - this.shapeStart[segment]! - 1;
    return {
      segment,
      along: atStart ? 0 : this.segmentLength[segment]!,
      distance: 0,
      lat: this.nodeLat[node]!,
      lon: this.nodeLon[node]!,
      piece: atStart ? 0 : pieces - 1,
      t: atStart ? 0 : 1,
    };
  }

  /** Memory held by the typed arrays, in bytes (an estimate of the graph's footprint). */
  byteSize(): number {
    const arrays = [
      this.nodeIds, this.nodeLat, this.nodeLon, this.segmentIds, this.segmentFrom, this.segmentTo, this.segmentLength, this.segmentClass,
      this.segmentOneway, this.segmentStreet, this.shapeStart, this.shapeLat, this.shapeLon, this.arcTail, this.arcHead, this.arcSegment,
      this.arcLength, this.arcClass, this.outStart, this.outArcs, this.inStart, this.inArcs, this.pieceSegment, this.piecePoint,
    ];
    return arrays.reduce((sum, a) => sum + a.byteLength, 0) + (this.pieces?.data.byteLength ?? 0);
  }
}

/** Compressed adjacency: the arcs grouped by `key` (their tail or head). */
function adjacency(n: number, key: Int32Array): [Int32Array, Int32Array] {
  const start = new Int32Array(n + 1);
  for (let a = 0; a < key.length; a++) start[key[a]! + 1]!++;
  for (let v = 0; v < n; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, n);
  const list = new Int32Array(key.length);
  for (let a = 0; a < key.length; a++) list[fill[key[a]!]!++] = a;
  return [start, list];
}
