// The comparison's city: a square of streets, parking regions on a grid, a
// seeded day of passengers (the same for every strategy), and travel times
// as the server assumes them off the roads (the straight line times
// ROAD_FACTOR 1.3 at 30 km/h), so no database and no road graph are needed.
import { Rng } from "../../seed/demo/random";

export interface Point {
  x: number;
  y: number;
}

export interface CityShape {
  /** Side of the square, metres. */
  sideMetres: number;
  /** Parking regions per side (a grid). */
  regionsPerSide: number;
}

export const ROAD_FACTOR = 1.3;
export const SPEED_MPS = 30 / 3.6;

export function travelSeconds(a: Point, b: Point): number {
  return (Math.hypot(a.x - b.x, a.y - b.y) * ROAD_FACTOR) / SPEED_MPS;
}

export function regionOf(city: CityShape, p: Point): number {
  const cell = city.sideMetres / city.regionsPerSide;
  const cx = Math.min(city.regionsPerSide - 1, Math.max(0, Math.floor(p.x / cell)));
  const cy = Math.min(city.regionsPerSide - 1, Math.max(0, Math.floor(p.y / cell)));
  return 1 + cy * city.regionsPerSide + cx;
}

export interface Passenger {
  id: number;
  at: number;
  pickup: Point;
  destination: Point;
  /** Seconds the passenger waits for a driver to accept before cancelling. */
  patience: number;
  /** Seconds from the car's arrival to the passenger aboard. */
  boarding: number;
}

export interface DayPlan {
  passengers: Passenger[];
  driverStarts: Point[];
}

function clamp(v: number, side: number): number {
  return Math.min(side - 1, Math.max(1, v));
}

/** A point: half the demand around a few hot spots (stations, centre), half anywhere. */
function pickupPoint(rng: Rng, city: CityShape, spots: Point[]): Point {
  const s = city.sideMetres;
  if (rng.chance(0.5)) {
    const spot = rng.pick(spots);
    return { x: clamp(spot.x + rng.range(-900, 900), s), y: clamp(spot.y + rng.range(-900, 900), s) };
  }
  return { x: rng.range(0, s), y: rng.range(0, s) };
}

/**
 * The seeded day: passengers arriving at `perMinute` (a Poisson process) for
 * `minutes`, and the drivers' starting points. The same seed and load give
 * the same day to every strategy.
 */
export function planDay(seed: number, city: CityShape, load: { drivers: number; perMinute: number; minutes: number }): DayPlan {
  const root = new Rng(seed);
  const rng = root.fork(`day:${load.perMinute}:${load.drivers}`);
  const s = city.sideMetres;
  const spots = [
    { x: s * 0.5, y: s * 0.5 },
    { x: s * 0.2, y: s * 0.75 },
    { x: s * 0.8, y: s * 0.3 },
  ];
  const passengers: Passenger[] = [];
  let t = 0;
  for (let id = 1; ; id++) {
    t += (-Math.log(1 - rng.float()) / load.perMinute) * 60;
    if (t >= load.minutes * 60) break;
    const pickup = pickupPoint(rng, city, spots);
    let destination = pickupPoint(rng, city, spots);
    if (Math.hypot(destination.x - pickup.x, destination.y - pickup.y) < 1000) destination = { x: s - pickup.x, y: s - pickup.y };
    passengers.push({ id, at: Math.round(t), pickup, destination, patience: rng.range(8, 20) * 60, boarding: rng.range(20, 120) });
  }
  const driverStarts = Array.from({ length: load.drivers }, () => ({ x: rng.range(0, s), y: rng.range(0, s) }));
  return { passengers, driverStarts };
}
