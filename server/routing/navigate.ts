// A route for a driver's navigation (the driver app's `route`): along the
// roads when both ends are on them, else the straight line with the same
// fallback figures as the estimate, flagged as not on the roads.
import { config } from "../config";
import type { DbOrTx } from "../db";
import { haversineMetres, type GeoPoint } from "../geo/distance";
import { routeThrough } from "./routes";

export interface Navigation {
  onRoads: boolean;
  metres: number;
  seconds: number;
  points: Array<[number, number]>;
}

export async function navigate(db: DbOrTx, cityId: number, from: GeoPoint, to: GeoPoint, at = new Date()): Promise<Navigation> {
  const road = await routeThrough(db, cityId, [from, to], at);
  if (road) return { onRoads: true, ...road };
  const cfg = config();
  const metres = Math.round(haversineMetres(from, to) * cfg.ROAD_FACTOR);
  return {
    onRoads: false,
    metres,
    seconds: Math.round((metres / 1000 / cfg.AVERAGE_SPEED_KMH) * 3600),
    points: [
      [from.lat, from.lon],
      [to.lat, to.lon],
    ],
  };
}
