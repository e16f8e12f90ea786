// Creating or editing a region: the polygon is checked, houses inside it are moved to it.
import type { Db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { ValidationError } from "../../errors";
import { allRegions, forgetRegions } from "../../geo/regions";
import { pointInPolygon, polygonBounds } from "../../geo/polygon";
import { polygonProblem } from "../../../shared/geometry/polygon";
import { changedFields, requireCity } from "./common";

export interface RegionInput {
  id?: number;
  cityId: number;
  name: string;
  nameEn: string;
  polygon: Array<[number, number]>;
}

function checkPolygon(points: Array<[number, number]>): Array<[number, number]> {
  const problem = polygonProblem(points);
  if (problem) {
    const where = problem.code === "crossing" ? `edges ${problem.a + 1} and ${problem.b + 1} cross` : problem.code === "badPoint" || problem.code === "duplicate" ? `point ${problem.index + 1}` : problem.code;
    throw new ValidationError("BAD_PARAMETER", { parameter: "polygon", expected: "a simple polygon of 3 to 200 distinct points", reason: where, reasonKey: `polygon.${problem.code}`, ...("index" in problem ? { index: problem.index + 1 } : {}), ...("a" in problem ? { a: problem.a + 1, b: problem.b + 1 } : {}) });
  }
  return points.map(([lat, lon]): [number, number] => [Number(lat.toFixed(6)), Number(lon.toFixed(6))]);
}

/** Houses inside `box` get the region they now lie in (after a polygon changed). */
async function reassignHouses(db: Db, cityId: number, box: { minLat: number; maxLat: number; minLon: number; maxLon: number }): Promise<number> {
  forgetRegions();
  const regions = (await allRegions(db)).filter((r) => r.cityId === cityId);
  const houses = await db.house.findMany({
    where: { lat: { gte: box.minLat, lte: box.maxLat }, lon: { gte: box.minLon, lte: box.maxLon }, street: { cityId } },
    select: { id: true, lat: true, lon: true, regionId: true },
  });
  const moves = new Map<number | null, number[]>();
  for (const h of houses) {
    const region = regions.find((r) => h.lat >= r.minLat && h.lat <= r.maxLat && h.lon >= r.minLon && h.lon <= r.maxLon && pointInPolygon(h.lat, h.lon, r.polygon));
    const target = region?.id ?? null;
    if (target === h.regionId) continue;
    const list = moves.get(target) ?? [];
    list.push(h.id);
    moves.set(target, list);
  }
  let moved = 0;
  for (const [regionId, ids] of moves) {
    for (let i = 0; i < ids.length; i += 5000) {
      const r = await db.house.updateMany({ where: { id: { in: ids.slice(i, i + 5000) } }, data: { regionId } });
      moved += r.count;
    }
  }
  return moved;
}

export async function saveRegion(db: Db, input: RegionInput) {
  await requireCity(db, input.cityId);
  const polygon = checkPolygon(input.polygon);
  const bounds = polygonBounds(polygon);
  const data = {
    cityId: input.cityId,
    name: input.name.trim(),
    nameEn: input.nameEn.trim(),
    polygon: polygon as unknown as Prisma.InputJsonArray,
    ...bounds,
  };
  let id: number;
  let changes: string[];
  let box = bounds;
  if (input.id) {
    const before = await db.region.findUnique({ where: { id: input.id }, select: { cityId: true, name: true, nameEn: true, polygon: true, minLat: true, maxLat: true, minLon: true, maxLon: true } });
    if (!before) throw new ValidationError("NOT_FOUND", { what: "Region", id: input.id });
    if (before.cityId !== data.cityId) throw new ValidationError("BAD_PARAMETER", { parameter: "cityId", expected: "the region's own city" });
    changes = changedFields({ name: before.name, nameEn: before.nameEn, polygon: before.polygon }, { name: data.name, nameEn: data.nameEn, polygon: polygon });
    await db.region.update({ where: { id: input.id }, data, select: { id: true } });
    id = input.id;
    box = {
      minLat: Math.min(before.minLat, bounds.minLat),
      maxLat: Math.max(before.maxLat, bounds.maxLat),
      minLon: Math.min(before.minLon, bounds.minLon),
      maxLon: Math.max(before.maxLon, bounds.maxLon),
    };
  } else {
    const created = await db.$transaction(async (tx) => {
      const region = await tx.region.create({ data, select: { id: true } });
      const services = await tx.service.findMany({ where: { cityId: data.cityId }, select: { id: true } });
      if (services.length) await tx.serviceRegion.createMany({ data: services.map((s) => ({ serviceId: s.id, regionId: region.id })), skipDuplicates: true });
      return region;
    });
    id = created.id;
    changes = ["name", "nameEn", "polygon"];
  }
  forgetRegions();
  const housesMoved = changes.includes("polygon") ? await reassignHouses(db, input.cityId, box) : 0;
  return { id, changes, housesMoved, polygon };
}
