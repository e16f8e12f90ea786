// Services with their cities, for the administrators' reference pages.
import type { Db } from "../../db";

export async function listServicesAdmin(db: Db) {
  return db.service.findMany({
    orderBy: [{ cityId: "asc" }, { sortOrder: "asc" }, { id: "asc" }],
    select: {
      id: true,
      cityId: true,
      name: true,
      nameEn: true,
      description: true,
      sortOrder: true,
      carClass: true,
      active: true,
      city: { select: { name: true, nameEn: true } },
      queues: { orderBy: { id: "asc" }, select: { id: true, name: true, isMain: true } },
      _count: { select: { rates: true, extras: true, drivers: true, regions: true } },
    },
  });
}
