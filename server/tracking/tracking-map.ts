// The plain base map around a tracked order (no tile server is reachable
// here, as on the console's map): the city's streets (the console's cached
// base map, server/console/map.ts) that pass within a box around the pickup
// and the destination, so a phone loads a neighbourhood, not the city.
import type { Db } from "../db";
import { cityBasemap } from "../console/map";
import type { TrackedOrder } from "./find-tracked-order";

/** Degrees around the pickup and destination: about 4 km north-south. */
const MARGIN = 0.035;
const MAX_LINES = 4000;

export interface TrackingMap {
  streets: Array<{ major: boolean; line: Array<[number, number]> }>;
}

export async function trackingMap(db: Db, order: TrackedOrder): Promise<TrackingMap> {
  const points = [
    [order.lat, order.lon],
    [order.dstLat, order.dstLon],
  ].filter((p): p is [number, number] => p[0] !== null && p[1] !== null);
  if (points.length === 0) return { streets: [] };
  const minLat = Math.min(...points.map((p) => p[0])) - MARGIN;
  const maxLat = Math.max(...points.map((p) => p[0])) + MARGIN;
  const minLon = Math.min(...points.map((p) => p[1])) - MARGIN * 1.8;
  const maxLon = Math.max(...points.map((p) => p[1])) + MARGIN * 1.8;
  const inside = (p: readonly [number, number]) => p[0] >= minLat && p[0] <= maxLat && p[1] >= minLon && p[1] <= maxLon;
  const basemap = await cityBasemap(db, order.cityId);
  const streets: TrackingMap["streets"] = [];
  for (const s of basemap.streets) {
    if (!s.line.some(inside)) continue;
    streets.push({ major: s.major, line: s.line.map((p) => [Math.round(p[0] * 1e5) / 1e5, Math.round(p[1] * 1e5) / 1e5]) });
    if (streets.length >= MAX_LINES) break;
  }
  return { streets };
}
