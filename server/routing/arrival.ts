// How long a car takes to reach a place: along the roads when both ends are
// on them, else the straight line times ROAD_FACTOR at AVERAGE_SPEED_KMH.
// Used for a driver's arrival time (arrival_at, remaining_time, %remaining%
// in the SMS) when the driver names none.
import { config } from "../config";
import type { DbOrTx } from "../db";
import { haversineMetres } from "../geo/distance";
import { arrivalSeconds } from "./routes";

interface MaybePoint {
  lat: number | null;
  lon: number | null;
}

/** Whole minutes, at least 1 and at most `maxMinutes`; `unknown` when a position is missing. */
export async function driveMinutes(
  db: DbOrTx,
  cityId: number,
  from: MaybePoint,
  to: MaybePoint,
  options: { unknown: number; maxMinutes?: number; at?: Date },
): Promise<number> {
  if (from.lat === null || from.lon === null || to.lat === null || to.lon === null) return options.unknown;
  const a = { lat: from.lat, lon: from.lon };
  const b = { lat: to.lat, lon: to.lon };
  const [seconds] = await arrivalSeconds(db, cityId, b, [a], { at: options.at });
  const cfg = config();
  const minutes = seconds !== undefined ? seconds / 60 : ((haversineMetres(a, b) * cfg.ROAD_FACTOR) / 1000 / cfg.AVERAGE_SPEED_KMH) * 60;
  return Math.max(1, Math.min(options.maxMinutes ?? Infinity, Math.round(minutes)));
}
