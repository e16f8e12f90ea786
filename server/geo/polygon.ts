// Polygons of regions: arrays of [lat, lon] points, not closed (the last
// point joins the first).

export type LatLon = readonly [lat: number, lon: number];
export type Polygon = ReadonlyArray<LatLon>;

export interface Bounds {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

/**
 * Whether (lat, lon) lies inside the polygon (even-odd ray casting; longitude
 * is x, latitude is y). Each edge is half-open in latitude, so a point on an
 * edge two polygons share belongs to one of them, not to both and not to neither.
 */
export function pointInPolygon(lat: number, lon: number, polygon: Polygon): boolean {
  let inside = false;
  const n = polygon.length;
  if (n < 3) return false;
  let prev = polygon[n - 1]!;
  for (let i = 0; i < n; i++) {
    const cur = polygon[i]!;
    const [latI, lonI] = cur;
    const [latJ, lonJ] = prev;
    if (latI > lat !== latJ > lat) {
      const crossLon = ((lonJ - lonI) * (lat - latI)) / (latJ - latI) + lonI;
      if (lon < crossLon) inside = !inside;
    }
    prev = cur;
  }
  return inside;
}

/** The bounding box of a polygon. */
export function polygonBounds(polygon: Polygon): Bounds {
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLon = Infinity;
  let maxLon = -Infinity;
  for (const [lat, lon] of polygon) {
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
  }
  return { minLat, maxLat, minLon, maxLon };
}

/** Whether a point lies inside bounds (edges included): the cheap pre-check. */
export function inBounds(lat: number, lon: number, b: Bounds): boolean {
  return lat >= b.minLat && lat <= b.maxLat && lon >= b.minLon && lon <= b.maxLon;
}

/**
 * A polygon read from JSON (Region.polygon), or null when it is not an array
 * of at least three [lat, lon] pairs of finite numbers.
 */
export function parsePolygon(value: unknown): LatLon[] | null {
  if (!Array.isArray(value) || value.length < 3) return null;
  const points: LatLon[] = [];
  for (const item of value as unknown[]) {
    if (!Array.isArray(item) || item.length < 2) return null;
    const [lat, lon] = item as unknown[];
    if (typeof lat !== "number" || typeof lon !== "number" || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
    points.push([lat, lon]);
  }
  return points;
}

/** Area in square degrees (shoelace formula); for comparisons only. */
export function polygonArea(polygon: Polygon): number {
  let sum = 0;
  const n = polygon.length;
  for (let i = 0; i < n; i++) {
    const [latA, lonA] = polygon[i]!;
    const [latB, lonB] = polygon[(i + 1) % n]!;
    sum += lonA * latB - lonB * latA;
  }
  return Math.abs(sum) / 2;
}
