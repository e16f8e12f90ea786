// The city map a driver app navigates by: the city's centre, its regions
// (parking areas) and its streets with the coordinates of their houses and
// public places. Reference data that changes rarely: kept in memory for
// CACHE_MS per city.
import type { Db } from "../db";
import { ValidationError } from "../errors";

const CACHE_MS = 5 * 60_000;

export interface CityMap {
  city: { id: number; name: string; name_en: string; lat: number; lon: number; timezone: string };
  bounds: { min_lat: number; max_lat: number; min_lon: number; max_lon: number } | null;
  regions: Array<{ id: number; name: string; polygon: Array<[number, number]> }>;
  /** houses: [number, lat, lon] */
  streets: Array<{ name: string; kind: "STREET" | "PUBLIC_PLACE"; lat: number; lon: number; houses: Array<[string, number, number]> }>;
}

const key = Symbol.for("taxi.driverAppMap");
type Holder = { [key]?: Map<number, { at: number; map: CityMap }> };

function cache(): Map<number, { at: number; map: CityMap }> {
  const holder = globalThis as Holder;
  holder[key] ??= new Map();
  return holder[key];
}

export async function cityMap(db: Db, cityId: number): Promise<CityMap> {
  const hit = cache().get(cityId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.map;
  const city = await db.city.findUnique({ where: { id: cityId }, select: { id: true, name: true, nameEn: true, lat: true, lon: true, timezone: true } });
  if (!city) throw new ValidationError("NOT_FOUND", { what: "City", id: cityId });
  const [regions, streets] = await Promise.all([
    db.region.findMany({
      where: { cityId },
      select: { id: true, name: true, polygon: true, minLat: true, maxLat: true, minLon: true, maxLon: true },
      orderBy: { id: "asc" },
    }),
    db.street.findMany({
      where: { cityId },
      select: { fullName: true, kind: true, lat: true, lon: true, houses: { select: { number: true, lat: true, lon: true }, orderBy: { id: "asc" } } },
      orderBy: { id: "asc" },
    }),
  ]);
  const bounds = regions.length
    ? {
        min_lat: Math.min(...regions.map((r) => r.minLat)),
        max_lat: Math.max(...regions.map((r) => r.maxLat)),
        min_lon: Math.min(...regions.map((r) => r.minLon)),
        max_lon: Math.max(...regions.map((r) => r.maxLon)),
      }
    : null;
  const map: CityMap = {
    city: { id: city.id, name: city.name, name_en: city.nameEn, lat: city.lat, lon: city.lon, timezone: city.timezone },
    bounds,
    regions: regions.map((r) => ({
      id: r.id,
      name: r.name,
      polygon: Array.isArray(r.polygon) ? (r.polygon as Array<[number, number]>) : [],
    })),
    streets: streets.map((s) => ({
      name: s.fullName,
      kind: s.kind,
      lat: s.lat,
      lon: s.lon,
      houses: s.houses.map((h) => [h.number, h.lat, h.lon] as [string, number, number]),
    })),
  };
  cache().set(cityId, { at: Date.now(), map });
  return map;
}
