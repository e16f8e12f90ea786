// Geometry of the demo city: the region grid, streets as line segments,
// distances. Coordinates are degrees; [lat, lon] pairs as in Region.polygon.
import { pointInPolygon, polygonBounds, type Bounds, type LatLon } from "../../geo/polygon";
import type { Rng } from "./random";

export type Box = Bounds;

const METRES_PER_DEGREE = 111_320;

/** Great-circle distance in metres. */
export function haversineMetres(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const r = 6_371_000;
  const toRad = Math.PI / 180;
  const dLat = (bLat - aLat) * toRad;
  const dLon = (bLon - aLon) * toRad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * toRad) * Math.cos(bLat * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point `north` metres north and `east` metres east of (lat, lon). */
export function offsetMetres(lat: number, lon: number, north: number, east: number): LatLon {
  return [lat + north / METRES_PER_DEGREE, lon + east / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180))];
}

/** Bearing from a to b in degrees, 0 = north, clockwise. */
export function bearingDegrees(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const north = (bLat - aLat) * METRES_PER_DEGREE;
  const east = (bLon - aLon) * METRES_PER_DEGREE * Math.cos((aLat * Math.PI) / 180);
  const deg = (Math.atan2(east, north) * 180) / Math.PI;
  return (deg + 360) % 360;
}

/** Rounds a coordinate to 6 decimals (about 10 cm): stable, readable numbers. */
export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function clampToBox(lat: number, lon: number, box: Box, marginDeg: number): LatLon {
  return [
    Math.min(box.maxLat - marginDeg, Math.max(box.minLat + marginDeg, lat)),
    Math.min(box.maxLon - marginDeg, Math.max(box.minLon + marginDeg, lon)),
  ];
}

/**
 * Polygons that tile `box` exactly: a rows x cols grid whose inner corners
 * are moved a little and whose inner edges bend at a moved midpoint. Two
 * neighbouring cells share the very same points along their common edge, so
 * there are neither gaps nor overlaps; the outer edges stay on the box.
 * Returned row by row from the south-west cell, each polygon counter-clockwise.
 */
export function regionGrid(rng: Rng, box: Box, rows: number, cols: number): LatLon[][] {
  const cellLat = (box.maxLat - box.minLat) / rows;
  const cellLon = (box.maxLon - box.minLon) / cols;
  const corner: LatLon[][] = [];
  for (let i = 0; i <= rows; i++) {
    const line: LatLon[] = [];
    for (let j = 0; j <= cols; j++) {
      let lat = box.minLat + i * cellLat;
      let lon = box.minLon + j * cellLon;
      if (i > 0 && i < rows) lat += rng.range(-0.15, 0.15) * cellLat;
      if (j > 0 && j < cols) lon += rng.range(-0.15, 0.15) * cellLon;
      if (i === rows) lat = box.maxLat;
      if (j === cols) lon = box.maxLon;
      line.push([round6(lat), round6(lon)]);
    }
    corner.push(line);
  }
  const at = (i: number, j: number): LatLon => corner[i]![j]!;
  // Bends of the inner edges: along a parallel (between (i,j) and (i,j+1)) and along a meridian.
  const alongParallel = new Map<string, LatLon>();
  const alongMeridian = new Map<string, LatLon>();
  for (let i = 1; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const [aLat, aLon] = at(i, j);
      const [bLat, bLon] = at(i, j + 1);
      const t = rng.range(0.35, 0.65);
      alongParallel.set(`${i}:${j}`, [
        round6(aLat + (bLat - aLat) * t + rng.range(-0.1, 0.1) * cellLat),
        round6(aLon + (bLon - aLon) * t),
      ]);
    }
  }
  for (let i = 0; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const [aLat, aLon] = at(i, j);
      const [bLat, bLon] = at(i + 1, j);
      const t = rng.range(0.35, 0.65);
      alongMeridian.set(`${i}:${j}`, [
        round6(aLat + (bLat - aLat) * t),
        round6(aLon + (bLon - aLon) * t + rng.range(-0.1, 0.1) * cellLon),
      ]);
    }
  }
  const polygons: LatLon[][] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const points: LatLon[] = [];
      const push = (point: LatLon | undefined) => {
        if (point) points.push(point);
      };
      push(at(i, j)); // south-west
      push(alongParallel.get(`${i}:${j}`)); // south edge
      push(at(i, j + 1)); // south-east
      push(alongMeridian.get(`${i}:${j + 1}`)); // east edge
      push(at(i + 1, j + 1)); // north-east
      push(alongParallel.get(`${i + 1}:${j}`)); // north edge
      push(at(i + 1, j)); // north-west
      push(alongMeridian.get(`${i}:${j}`)); // west edge
      polygons.push(points);
    }
  }
  return polygons;
}

export interface RegionShape {
  name: string;
  polygon: LatLon[];
  bounds: Bounds;
}

export function regionShapes(names: readonly string[], polygons: LatLon[][]): RegionShape[] {
  return polygons.map((polygon, index) => ({
    name: names[index] ?? `Район ${index + 1}`,
    polygon,
    bounds: polygonBounds(polygon),
  }));
}

/** The region containing the point, by name, or null. */
export function regionOf(lat: number, lon: number, regions: readonly RegionShape[]): string | null {
  for (const region of regions) {
    const b = region.bounds;
    if (lat < b.minLat || lat > b.maxLat || lon < b.minLon || lon > b.maxLon) continue;
    if (pointInPolygon(lat, lon, region.polygon)) return region.name;
  }
  return null;
}

export interface Segment {
  a: LatLon;
  b: LatLon;
}

/**
 * A straight street of about `lengthM` metres through a random point of the
 * box, shortened if needed so that both ends stay `marginDeg` inside it.
 */
export function streetSegment(rng: Rng, box: Box, lengthM: number, marginDeg: number): Segment {
  const inner: Box = {
    minLat: box.minLat + marginDeg,
    maxLat: box.maxLat - marginDeg,
    minLon: box.minLon + marginDeg,
    maxLon: box.maxLon - marginDeg,
  };
  const midLat = rng.range(inner.minLat, inner.maxLat);
  const midLon = rng.range(inner.minLon, inner.maxLon);
  // Most streets run roughly along the grid, some at any angle.
  const angle = rng.chance(0.6)
    ? rng.pick([0, 90]) + rng.range(-12, 12)
    : rng.range(0, 180);
  const rad = (angle * Math.PI) / 180;
  const half = lengthM / 2;
  let [aLat, aLon] = offsetMetres(midLat, midLon, -Math.cos(rad) * half, -Math.sin(rad) * half);
  let [bLat, bLon] = offsetMetres(midLat, midLon, Math.cos(rad) * half, Math.sin(rad) * half);
  // Shrink towards the middle until both ends are inside.
  const inside = (lat: number, lon: number) =>
    lat >= inner.minLat && lat <= inner.maxLat && lon >= inner.minLon && lon <= inner.maxLon;
  let scale = 1;
  while ((!inside(aLat, aLon) || !inside(bLat, bLon)) && scale > 0.01) {
    scale *= 0.8;
    aLat = midLat + (aLat - midLat) * 0.8;
    aLon = midLon + (aLon - midLon) * 0.8;
    bLat = midLat + (bLat - midLat) * 0.8;
    bLon = midLon + (bLon - midLon) * 0.8;
  }
  return { a: [aLat, aLon], b: [bLat, bLon] };
}
