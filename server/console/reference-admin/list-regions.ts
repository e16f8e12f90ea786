// Regions with their polygons, for the administrators' reference pages.
import type { Db } from "../../db";
import { parsePolygon } from "../../geo/polygon";

export async function listRegionsAdmin(db: Db, input: { cityId?: number }) {
  const regions = await db.region.findMany({
    where: input.cityId ? { cityId: input.cityId } : {},
    orderBy: [{ cityId: "asc" }, { name: "asc" }],
    select: {
      id: true,
      cityId: true,
      name: true,
      nameEn: true,
      polygon: true,
      city: { select: { name: true, nameEn: true, lat: true, lon: true } },
      _count: { select: { houses: true, services: true } },
    },
  });
  return regions.map((r) => ({ ...r, polygon: parsePolygon(r.polygon) ?? [] }));
}
