// Reference data the console's forms and filters read: cities, services with
// their extras, regions.
import type { Db } from "../db";

export async function listCities(db: Db) {
  return db.city.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, nameEn: true, timezone: true, currency: true, lat: true, lon: true } });
}

export async function listServices(db: Db) {
  return db.service.findMany({
    where: { active: true },
    orderBy: [{ cityId: "asc" }, { sortOrder: "asc" }, { id: "asc" }],
    select: {
      id: true,
      cityId: true,
      name: true,
      nameEn: true,
      description: true,
      extras: {
        orderBy: { id: "asc" },
        select: { id: true, code: true, name: true, nameEn: true, shortName: true, price: true, allowMultiple: true, isDefault: true, queueId: true },
      },
    },
  });
}

export async function listRegions(db: Db) {
  return db.region.findMany({ orderBy: [{ cityId: "asc" }, { name: "asc" }], select: { id: true, cityId: true, name: true, nameEn: true } });
}
