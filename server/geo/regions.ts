// Regions (parking areas): which region a point lies in. The polygons of a
// city are kept in memory (they change rarely) and reloaded after a change
// here, or after CACHE_MS when another instance changed them.
import type { DbOrTx } from "../db";
import { pointInPolygon, type Polygon } from "./polygon";

const CACHE_MS = 60_000;

export interface RegionShape {
  id: number;
  cityId: number;
  name: string;
  nameEn: string;
  polygon: Polygon;
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

const key = Symbol.for("taxi.regionCache");
type Holder = { [key]?: { at: number; regions: RegionShape[] } };

export function forgetRegions(): void {
  (globalThis as Holder)[key] = undefined;
}

export async function allRegions(db: DbOrTx): Promise<RegionShape[]> {
  const holder = globalThis as Holder;
  const cached = holder[key];
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.regions;
  const rows = await db.region.findMany({
    select: { id: true, cityId: true, name: true, nameEn: true, polygon: true, minLat: true, maxLat: true, minLon: true, maxLon: true },
    orderBy: { id: "asc" },
  });
  const regions = rows.map((r) => ({ ...r, polygon: r.polygon as unknown as Polygon }));
  holder[key] = { at: Date.now(), regions };
  return regions;
}

/** The region containing the point, within a city when given. */
export async function regionAt(db: DbOrTx, lat: number, lon: number, cityId?: number): Promise<RegionShape | undefined> {
  for (const region of await allRegions(db)) {
    if (cityId !== undefined && region.cityId !== cityId) continue;
    if (lat < region.minLat || lat > region.maxLat || lon < region.minLon || lon > region.maxLon) continue;
    if (pointInPolygon(lat, lon, region.polygon)) return region;
  }
  return undefined;
}

/** The city whose regions contain the point. */
export async function cityAt(db: DbOrTx, lat: number, lon: number): Promise<number | undefined> {
  return (await regionAt(db, lat, lon))?.cityId;
}
