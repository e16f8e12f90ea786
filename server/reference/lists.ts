// Reference lists as the dispatch API serves them (services, regions, rates,
// extras, a city by name): the queries behind its reference operations.
import type { DbOrTx } from "../db";

export function listActiveServices(db: DbOrTx, cityId: number | undefined) {
  return db.service.findMany({
    where: { active: true, ...(cityId !== undefined ? { cityId } : {}) },
    select: { id: true, name: true, cityId: true },
    orderBy: [{ cityId: "asc" }, { sortOrder: "asc" }, { id: "asc" }],
  });
}

export function listRegions(db: DbOrTx, filter: { cityId?: number; serviceId?: number }) {
  return db.region.findMany({
    where: {
      ...(filter.cityId !== undefined ? { cityId: filter.cityId } : {}),
      ...(filter.serviceId !== undefined ? { services: { some: { serviceId: filter.serviceId } } } : {}),
    },
    select: { id: true, name: true },
    orderBy: { id: "asc" },
  });
}

/** A region known to exist (an address's region): its id and name. */
export function regionById(db: DbOrTx, id: number) {
  return db.region.findUniqueOrThrow({ where: { id }, select: { id: true, name: true } });
}

export function listRates(db: DbOrTx, filter: { cityId?: number; serviceId?: number }) {
  return db.rate.findMany({
    where: { ...(filter.cityId !== undefined ? { cityId: filter.cityId } : {}), ...(filter.serviceId !== undefined ? { serviceId: filter.serviceId } : {}) },
    orderBy: { id: "asc" },
    select: { id: true, name: true, serviceId: true, cityId: true, kmCost: true, kmStart: true, standCost: true, freeWaitTime: true, freeStandTime: true, startHour: true, endHour: true, minFare: true, pickUp: true },
  });
}

/** A city by its Russian or English name, whatever the letter case. */
export function cityByName(db: DbOrTx, name: string) {
  return db.city.findFirst({
    where: { OR: [{ name: { equals: name, mode: "insensitive" } }, { nameEn: { equals: name, mode: "insensitive" } }] },
    select: { id: true },
  });
}

/** Extras of a service, and of a queue (with those of no queue). */
export function listExtras(db: DbOrTx, filter: { serviceId?: number; queueId?: number }) {
  return db.extra.findMany({
    where: {
      ...(filter.serviceId !== undefined ? { serviceId: filter.serviceId } : {}),
      ...(filter.queueId !== undefined ? { OR: [{ queueId: null }, { queueId: filter.queueId }] } : {}),
    },
    select: { id: true, name: true, price: true, allowMultiple: true, isDefault: true, serviceId: true, shortName: true },
    orderBy: { id: "asc" },
  });
}

/** The time zone of a service's city, else of the first city (the dispatch API's `time` field). */
export async function cityTimeZone(db: DbOrTx, serviceId: number | undefined): Promise<string> {
  const service = serviceId !== undefined ? await db.service.findUnique({ where: { id: serviceId }, select: { city: { select: { timezone: true } } } }) : null;
  if (service) return service.city.timezone;
  return (await db.city.findFirst({ orderBy: { id: "asc" }, select: { timezone: true } }))?.timezone ?? "Europe/Moscow";
}
