// Street search for the administrators' street editor.
import type { Db } from "../../db";
import { searchStreets } from "../../geo/streets";

export async function searchStreetsAdmin(db: Db, input: { q: string; cityId?: number; limit: number }) {
  const found = await searchStreets(db, { pattern: input.q, cityId: input.cityId, limit: input.limit });
  if (found.length === 0) return [];
  const counts = await db.house.groupBy({ by: ["streetId"], where: { streetId: { in: found.map((s) => s.id) } }, _count: { _all: true } });
  return found.map((s) => ({ ...s, houses: counts.find((c) => c.streetId === s.id)?._count._all ?? 0 }));
}
