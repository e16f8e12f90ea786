// The comparison's day: the central square of the demo city (roads.ts),
// parking regions on a 3 × 3 grid of it, and a seeded day of passengers (the
// same for every policy): half around three hot spots, half anywhere.
import { Rng } from "../../seed/demo/random";
import { nearestPlace, type CityRoads } from "./roads";
import type { DayPlan, Passenger } from "./world";

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

export function regionOf(city: CityShape, p: Point): number {
  const cell = city.sideMetres / city.regionsPerSide;
  const cx = Math.min(city.regionsPerSide - 1, Math.max(0, Math.floor(p.x / cell)));
  const cy = Math.min(city.regionsPerSide - 1, Math.max(0, Math.floor(p.y / cell)));
  return 1 + cy * city.regionsPerSide + cx;
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
 * The seeded day on the roads: passengers arriving at `perMinute` (a
 * Poisson process) for `minutes`, each point put on the nearest place, and
 * the drivers' starting places. The same seed and load give the same day to
 * every policy.
 */
export function planDay(seed: number, roads: CityRoads, city: CityShape, load: { drivers: number; perMinute: number; minutes: number }): DayPlan {
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
    const from = nearestPlace(roads, pickup.x, pickup.y);
    let to = nearestPlace(roads, destination.x, destination.y);
    if (to === from) to = nearestPlace(roads, s - pickup.x, s - pickup.y);
    passengers.push({
      id,
      at: Math.round(t),
      pickup: from,
      destination: to,
      patience: Math.round(rng.range(8, 20) * 60),
      assignedPatience: Math.round(rng.range(10, 20) * 60),
      boarding: Math.round(rng.range(20, 120)),
    });
  }
  const driverStarts = Array.from({ length: load.drivers }, () => nearestPlace(roads, rng.range(0, s), rng.range(0, s)));
  const regionOfPlace = roads.places.map((p) => regionOf(city, p));
  return { passengers, driverStarts, regionOfPlace, minutes: load.minutes };
}
