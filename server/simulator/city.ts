// The simulated part of the city: the houses (addresses with coordinates)
// within the chosen radius of the centre, read from the driver app's map.
// Passengers order from and to these addresses; free cars cruise among them.
import type { Rng } from "../seed/demo/random";
import { haversineMetres, type GeoPoint } from "./geo";

export interface Address extends GeoPoint {
  street: string;
  house: string;
}

export interface MapReply {
  city: { id: number; name: string; lat: number; lon: number; timezone: string };
  streets: Array<{ name: string; kind: string; houses: Array<[string, number, number]> }>;
}

export class SimCity {
  readonly addresses: Address[];

  constructor(
    readonly id: number,
    readonly name: string,
    readonly centre: GeoPoint,
    readonly radiusKm: number,
    map: MapReply,
  ) {
    const all: Address[] = [];
    for (const street of map.streets) {
      if (street.kind !== "STREET") continue;
      for (const [house, lat, lon] of street.houses) all.push({ street: street.name, house, lat, lon });
    }
    const inside = all.filter((a) => haversineMetres(centre, a) <= radiusKm * 1000);
    // A tiny radius must not leave the passengers without addresses.
    this.addresses = inside.length >= 20 ? inside : all.sort((a, b) => haversineMetres(centre, a) - haversineMetres(centre, b)).slice(0, 200);
    if (this.addresses.length === 0) throw new Error(`the city ${name} has no houses to simulate`);
  }

  static fromMap(map: MapReply, radiusKm: number): SimCity {
    return new SimCity(map.city.id, map.city.name, { lat: map.city.lat, lon: map.city.lon }, radiusKm, map);
  }

  contains(p: GeoPoint): boolean {
    return haversineMetres(this.centre, p) <= this.radiusKm * 1000;
  }

  any(rng: Rng): Address {
    return rng.pick(this.addresses);
  }

  /** A random address within `metres` of a point (or any address when none is that close). */
  near(rng: Rng, from: GeoPoint, metres: number): Address | undefined {
    const close = this.addresses.filter((a) => haversineMetres(from, a) <= metres);
    return close.length ? rng.pick(close) : this.any(rng);
  }

  /** An address about `metres` away from a point: the best of a few random tries, never the same house. */
  around(rng: Rng, from: GeoPoint, metres: number): Address {
    let best = this.any(rng);
    let bestMiss = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 12; i++) {
      const candidate = this.any(rng);
      const d = haversineMetres(from, candidate);
      if (d < 300) continue;
      const miss = Math.abs(d - metres);
      if (miss < bestMiss) {
        best = candidate;
        bestMiss = miss;
      }
    }
    return best;
  }
}
