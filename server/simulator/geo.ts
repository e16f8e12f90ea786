// Movement of simulated cars: along the route the driver app's `route` gives
// (the city's roads, driver.ts), or, where there are none, "Manhattan" style:
// along a parallel and along a meridian, turning once (at a point chosen by
// the driver's seeded random stream), which makes the road about 1.3 times
// the straight line, as the dispatch's own ROAD_FACTOR assumes.
import { bearingDegrees, haversineMetres, type GeoPoint } from "../geo/distance";
import type { Rng } from "../seed/demo/random";

export type { GeoPoint };
export { haversineMetres };

const METRES_PER_DEGREE = 111_320;

export function offset(p: GeoPoint, northMetres: number, eastMetres: number): GeoPoint {
  return {
    lat: p.lat + northMetres / METRES_PER_DEGREE,
    lon: p.lon + eastMetres / (METRES_PER_DEGREE * Math.cos((p.lat * Math.PI) / 180)),
  };
}

/** A route from a to b with one turn (none when they are close). */
export function route(rng: Rng, a: GeoPoint, b: GeoPoint): GeoPoint[] {
  if (haversineMetres(a, b) < 150) return [a, b];
  const corner = rng.chance(0.5) ? { lat: a.lat, lon: b.lon } : { lat: b.lat, lon: a.lon };
  return [a, corner, b];
}

export function pathLength(points: GeoPoint[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += haversineMetres(points[i - 1]!, points[i]!);
  return total;
}

/** A car on a route: advances by time at its speed, knows its position and heading. */
export class Trip {
  private leg = 0;
  /** metres done on the current leg */
  private done = 0;
  position: GeoPoint;
  bearing: number;

  constructor(
    readonly points: GeoPoint[],
    /** km/h */
    readonly speed: number,
  ) {
    this.position = points[0] ?? { lat: 0, lon: 0 };
    this.bearing = points.length > 1 ? bearingDegrees(points[0]!, points[1]!) : 0;
  }

  /** Metres driven so far. */
  get metresDone(): number {
    let total = this.done;
    for (let i = 0; i < this.leg; i++) total += haversineMetres(this.points[i]!, this.points[i + 1]!);
    return total;
  }

  get arrived(): boolean {
    return this.leg >= this.points.length - 1;
  }

  /** Minutes to the end at the trip's speed. */
  minutesLeft(): number {
    if (this.arrived) return 0;
    const rest = pathLength([this.position, ...this.points.slice(this.leg + 1)]);
    return rest / 1000 / this.speed * 60;
  }

  advance(seconds: number): void {
    let budget = (this.speed / 3.6) * seconds;
    while (budget > 0 && !this.arrived) {
      const a = this.points[this.leg]!;
      const b = this.points[this.leg + 1]!;
      const length = haversineMetres(a, b);
      const left = length - this.done;
      if (length > 0) this.bearing = bearingDegrees(a, b);
      if (budget >= left) {
        budget -= left;
        this.leg += 1;
        this.done = 0;
        this.position = b;
      } else {
        this.done += budget;
        budget = 0;
        const t = length > 0 ? this.done / length : 1;
        this.position = { lat: a.lat + (b.lat - a.lat) * t, lon: a.lon + (b.lon - a.lon) * t };
      }
    }
  }
}
