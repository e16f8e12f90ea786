// Checks of a region's polygon before it is saved, shared by the console's
// editor (it shows the problem while the operator drags) and the server
// (which refuses the same polygons): at least three distinct points, every
// one a real coordinate, no edge crossing or touching a non-adjacent edge
// (a simple polygon), and an area that is not zero.

export type PolygonProblem =
  | { code: "tooFew" }
  | { code: "tooMany"; max: number }
  | { code: "badPoint"; index: number }
  | { code: "duplicate"; index: number }
  | { code: "crossing"; a: number; b: number }
  | { code: "flat" };

export const MAX_POLYGON_POINTS = 200;

type Pt = readonly [number, number];

function orientation(p: Pt, q: Pt, r: Pt): number {
  // longitude is x, latitude is y
  const v = (q[1] - p[1]) * (r[0] - q[0]) - (q[0] - p[0]) * (r[1] - q[1]);
  if (Math.abs(v) < 1e-14) return 0;
  return v > 0 ? 1 : 2;
}

function onSegment(p: Pt, q: Pt, r: Pt): boolean {
  return (
    Math.min(p[0], r[0]) - 1e-12 <= q[0] && q[0] <= Math.max(p[0], r[0]) + 1e-12 && Math.min(p[1], r[1]) - 1e-12 <= q[1] && q[1] <= Math.max(p[1], r[1]) + 1e-12
  );
}

/** Whether segments p1q1 and p2q2 meet (crossing or touching). */
export function segmentsMeet(p1: Pt, q1: Pt, p2: Pt, q2: Pt): boolean {
  const o1 = orientation(p1, q1, p2);
  const o2 = orientation(p1, q1, q2);
  const o3 = orientation(p2, q2, p1);
  const o4 = orientation(p2, q2, q1);
  if (o1 !== o2 && o3 !== o4) return true;
  if (o1 === 0 && onSegment(p1, p2, q1)) return true;
  if (o2 === 0 && onSegment(p1, q2, q1)) return true;
  if (o3 === 0 && onSegment(p2, p1, q2)) return true;
  if (o4 === 0 && onSegment(p2, q1, q2)) return true;
  return false;
}

/** The first problem of a polygon of [lat, lon] points (not closed), or null when it is a simple polygon. */
export function polygonProblem(points: ReadonlyArray<readonly [number, number]>): PolygonProblem | null {
  const n = points.length;
  if (n < 3) return { code: "tooFew" };
  if (n > MAX_POLYGON_POINTS) return { code: "tooMany", max: MAX_POLYGON_POINTS };
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1]) || Math.abs(p[0]) > 90 || Math.abs(p[1]) > 180) return { code: "badPoint", index: i };
  }
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    for (let j = i + 1; j < n; j++) {
      const q = points[j]!;
      if (Math.abs(p[0] - q[0]) < 1e-9 && Math.abs(p[1] - q[1]) < 1e-9) return { code: "duplicate", index: j };
    }
  }
  for (let i = 0; i < n; i++) {
    const a1 = points[i]!;
    const a2 = points[(i + 1) % n]!;
    for (let j = i + 1; j < n; j++) {
      // adjacent edges share a vertex by construction
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      const b1 = points[j]!;
      const b2 = points[(j + 1) % n]!;
      if (segmentsMeet(a1, a2, b1, b2)) return { code: "crossing", a: i, b: j };
    }
  }
  let area = 0;
  for (let i = 0; i < n; i++) {
    const [latA, lonA] = points[i]!;
    const [latB, lonB] = points[(i + 1) % n]!;
    area += lonA * latB - lonB * latA;
  }
  if (Math.abs(area) / 2 < 1e-9) return { code: "flat" };
  return null;
}

/** A polygon read as the operator typed it: "lat, lon" per line (or ";"), or null when a line is not a pair of numbers. */
export function parsePolygonText(text: string): Array<[number, number]> | null {
  const lines = text
    .split(/[\n;]+/)
    .map((l) => l.trim())
    .filter(Boolean);
  const out: Array<[number, number]> = [];
  for (const line of lines) {
    // "55.7, 37.6" or "55.7 37.6": two numbers, one separator (split, not one pattern: linear on any input).
    const parts = line.split(/[\s,]+/);
    const number = /^-?\d+(?:\.\d+)?$/;
    if (parts.length !== 2 || line.split(",").length > 2 || !number.test(parts[0]!) || !number.test(parts[1]!)) return null;
    out.push([Number(parts[0]), Number(parts[1])]);
  }
  return out;
}
