// Speeds of the road classes by hour of the day. The defaults are plain
// urban figures (free flow at night, about 60% of it in the rush hours); a
// city's own figures, when it has any, come from road_speed and replace the
// defaults class by class and hour by hour.

export const ROAD_CLASSES = ["MOTORWAY", "TRUNK", "PRIMARY", "SECONDARY", "TERTIARY", "RESIDENTIAL", "SERVICE"] as const;
export type RoadClass = (typeof ROAD_CLASSES)[number];

export const CLASS_INDEX: Readonly<Record<RoadClass, number>> = Object.fromEntries(ROAD_CLASSES.map((c, i) => [c, i])) as Record<RoadClass, number>;

/** Free-flow speed of each class, km/h. */
const FREE_FLOW_KMH: Readonly<Record<RoadClass, number>> = {
  MOTORWAY: 90,
  TRUNK: 70,
  PRIMARY: 55,
  SECONDARY: 45,
  TERTIARY: 40,
  RESIDENTIAL: 25,
  SERVICE: 15,
};

/** Share of the free-flow speed by local hour: congestion in the morning and evening rush. */
const HOUR_FACTOR: readonly number[] = [
  1, 1, 1, 1, 1, 1, // 0-5: night
  0.9, 0.7, 0.6, 0.6, 0.75, 0.8, // 6-11: the morning rush
  0.8, 0.8, 0.8, 0.8, 0.75, 0.6, // 12-17
  0.6, 0.65, 0.8, 0.9, 0.95, 1, // 18-23: the evening rush, then free flow
];

export interface SpeedOverride {
  roadClass: RoadClass;
  hour: number;
  kmh: number;
}

/**
 * Speeds in metres per second, indexed [class * 24 + hour]: the defaults with
 * the city's overrides applied.
 */
export function speedTable(overrides: readonly SpeedOverride[] = []): Float64Array {
  const table = new Float64Array(ROAD_CLASSES.length * 24);
  ROAD_CLASSES.forEach((cls, c) => {
    for (let h = 0; h < 24; h++) table[c * 24 + h] = (FREE_FLOW_KMH[cls] * HOUR_FACTOR[h]!) / 3.6;
  });
  for (const o of overrides) {
    if (o.hour >= 0 && o.hour < 24 && o.kmh > 0) table[CLASS_INDEX[o.roadClass] * 24 + o.hour] = o.kmh / 3.6;
  }
  return table;
}

/** Seconds per metre of each class at one hour. */
export function paceAt(table: Float64Array, hour: number): Float64Array {
  const pace = new Float64Array(ROAD_CLASSES.length);
  for (let c = 0; c < ROAD_CLASSES.length; c++) pace[c] = 1 / table[c * 24 + hour]!;
  return pace;
}

/**
 * The fastest pace of each class over the day: travel times with it are a
 * lower bound of the times at any hour, so one set of landmark distances
 * serves every hour.
 */
export function fastestPace(table: Float64Array): Float64Array {
  const pace = new Float64Array(ROAD_CLASSES.length);
  for (let c = 0; c < ROAD_CLASSES.length; c++) {
    let max = 0;
    for (let h = 0; h < 24; h++) max = Math.max(max, table[c * 24 + h]!);
    pace[c] = 1 / max;
  }
  return pace;
}
