// Reference data for administrators: services, regions (polygons), rates,
// extras, streets with houses, drivers with cars, the phone blacklist. Each
// change forgets the caches that hold the data (reference, regions, base
// maps, driver keys) so that prices, addresses and the map follow at once;
// the tRPC layer audits every call. Edits reply the names of the fields they
// changed (`changes`), which the audit row keeps.
import type { Db, DbOrTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { ValidationError, isUniqueViolation } from "../errors";
import { publish } from "../events/bus";
import { forgetReference } from "../reference/cache";
import { allRegions, forgetRegions, regionAt } from "../geo/regions";
import { pointInPolygon, polygonBounds, parsePolygon } from "../geo/polygon";
import { normalizeForSearch, normalizeHouse, searchWords } from "../geo/normalize";
import { searchStreets } from "../geo/streets";
import { forgetStreets } from "../geo/street-index";
import { normalizePhone } from "../orders/phone";
import { DRIVER_HOLDING_STATES } from "../orders/states";
import { forgetDriverKeys, issueDriverAppKey } from "../driver-app/keys";
import { forgetBasemaps } from "./map";
import { polygonProblem } from "../../shared/geometry/polygon";
import { rateSelect } from "../pricing/rates";
import { escapeLike } from "../db/like";

/** The names of the fields whose values differ (for the audit row). */
function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): string[] {
  return Object.keys(after).filter((k) => {
    const a = before[k];
    const b = after[k];
    if (b === undefined) return false;
    return JSON.stringify(a, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) !== JSON.stringify(b);
  });
}

function conflict(reasonKey: string, details: Record<string, string | number>): ValidationError {
  return new ValidationError("CONFLICT", { reason: reasonKey, reasonKey, ...details });
}

async function requireCity(db: DbOrTx, cityId: number): Promise<void> {
  const city = await db.city.findUnique({ where: { id: cityId }, select: { id: true } });
  if (!city) throw new ValidationError("NOT_FOUND", { what: "City", id: cityId });
}

// ---------------------------------------------------------------- services

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

export interface ServiceInput {
  id?: number;
  cityId: number;
  name: string;
  nameEn: string;
  description: string;
  sortOrder: number;
  carClass: number;
  active: boolean;
}

export async function saveService(db: Db, input: ServiceInput) {
  await requireCity(db, input.cityId);
  const data = {
    cityId: input.cityId,
    name: input.name.trim(),
    nameEn: input.nameEn.trim(),
    description: input.description.trim(),
    sortOrder: input.sortOrder,
    carClass: input.carClass,
    active: input.active,
  };
  let result: { id: number; changes: string[] };
  if (input.id) {
    const before = await db.service.findUnique({ where: { id: input.id }, select: { cityId: true, name: true, nameEn: true, description: true, sortOrder: true, carClass: true, active: true } });
    if (!before) throw new ValidationError("NOT_FOUND", { what: "Service", id: input.id });
    if (before.cityId !== data.cityId) throw new ValidationError("BAD_PARAMETER", { parameter: "cityId", expected: "the service's own city (a service does not move between cities)" });
    await db.service.update({ where: { id: input.id }, data, select: { id: true } });
    result = { id: input.id, changes: changedFields(before, data) };
  } else {
    const created = await db.$transaction(async (tx) => {
      const service = await tx.service.create({ data, select: { id: true } });
      // Every service has a main queue (orders without one go there).
      await tx.queue.create({ data: { serviceId: service.id, name: "Основная", isMain: true }, select: { id: true } });
      // A new service serves the whole city until told otherwise.
      const regions = await tx.region.findMany({ where: { cityId: data.cityId }, select: { id: true } });
      if (regions.length) await tx.serviceRegion.createMany({ data: regions.map((r) => ({ serviceId: service.id, regionId: r.id })), skipDuplicates: true });
      return service;
    });
    result = { id: created.id, changes: Object.keys(data) };
  }
  forgetReference();
  return result;
}

// ---------------------------------------------------------------- regions

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

// ---------------------------------------------------------------- rates

/** The console edits every field the pricing engine reads. */
export const rateAdminSelect = rateSelect satisfies Prisma.RateSelect;

export async function listRatesAdmin(db: Db, input: { serviceId?: number }) {
  return db.rate.findMany({
    where: input.serviceId ? { serviceId: input.serviceId } : {},
    orderBy: [{ serviceId: "asc" }, { isBasic: "desc" }, { id: "asc" }],
    select: { ...rateAdminSelect, service: { select: { name: true, nameEn: true } }, queue: { select: { name: true } } },
  });
}

export interface RateInput {
  id?: number;
  serviceId: number;
  queueId: number | null;
  name: string;
  isBasic: boolean;
  pickUp: number;
  minFare: number;
  kmCost: number;
  kmStart: number;
  minuteCost: number;
  standCost: number;
  freeStandTime: number;
  waitCost: number;
  freeWaitTime: number;
  roundTo: number;
  startHour: number | null;
  endHour: number | null;
}

async function serviceOf(db: DbOrTx, serviceId: number, queueId: number | null) {
  const service = await db.service.findUnique({ where: { id: serviceId }, select: { id: true, cityId: true, queues: { select: { id: true } } } });
  if (!service) throw new ValidationError("NOT_FOUND", { what: "Service", id: serviceId });
  if (queueId !== null && !service.queues.some((q) => q.id === queueId)) throw new ValidationError("BAD_PARAMETER", { parameter: "queueId", expected: "a queue of the service" });
  return service;
}

export async function saveRate(db: Db, input: RateInput) {
  const service = await serviceOf(db, input.serviceId, input.queueId);
  if ((input.startHour === null) !== (input.endHour === null)) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "endHour", expected: "both hours, or neither (all day)", reasonKey: "hoursPair" });
  }
  const { id, ...fields } = input;
  const data = { ...fields, name: input.name.trim(), cityId: service.cityId };
  let result: { id: number; changes: string[] };
  if (id) {
    const before = await db.rate.findUnique({ where: { id }, select: rateAdminSelect });
    if (!before) throw new ValidationError("NOT_FOUND", { what: "Rate", id });
    await db.rate.update({ where: { id }, data, select: { id: true } });
    result = { id, changes: changedFields(before, data) };
  } else {
    const created = await db.rate.create({ data, select: { id: true } });
    result = { id: created.id, changes: Object.keys(data) };
  }
  forgetReference();
  return result;
}

// ---------------------------------------------------------------- extras

export async function listExtrasAdmin(db: Db, input: { serviceId?: number }) {
  return db.extra.findMany({
    where: input.serviceId ? { serviceId: input.serviceId } : {},
    orderBy: [{ serviceId: "asc" }, { id: "asc" }],
    select: {
      id: true,
      serviceId: true,
      queueId: true,
      code: true,
      name: true,
      nameEn: true,
      shortName: true,
      price: true,
      allowMultiple: true,
      isDefault: true,
      service: { select: { name: true, nameEn: true } },
      queue: { select: { name: true } },
    },
  });
}

export interface ExtraInput {
  id?: number;
  serviceId: number;
  queueId: number | null;
  code: string;
  name: string;
  nameEn: string;
  shortName: string;
  price: number;
  allowMultiple: boolean;
  isDefault: boolean;
}

export async function saveExtra(db: Db, input: ExtraInput) {
  await serviceOf(db, input.serviceId, input.queueId);
  const code = input.code.trim().toUpperCase();
  const twin = await db.extra.findFirst({ where: { serviceId: input.serviceId, code, ...(input.id ? { id: { not: input.id } } : {}) }, select: { id: true } });
  if (twin) throw conflict("extraCodeTaken", { code });
  const { id, ...fields } = input;
  const data = { ...fields, code, name: input.name.trim(), nameEn: input.nameEn.trim(), shortName: input.shortName.trim() };
  let result: { id: number; changes: string[] };
  if (id) {
    const before = await db.extra.findUnique({
      where: { id },
      select: { serviceId: true, queueId: true, code: true, name: true, nameEn: true, shortName: true, price: true, allowMultiple: true, isDefault: true },
    });
    if (!before) throw new ValidationError("NOT_FOUND", { what: "Extra", id });
    await db.extra.update({ where: { id }, data, select: { id: true } });
    result = { id, changes: changedFields(before, data) };
  } else {
    const created = await db.extra.create({ data, select: { id: true } });
    result = { id: created.id, changes: Object.keys(data) };
  }
  forgetReference();
  return result;
}

// ---------------------------------------------------------------- streets

export async function searchStreetsAdmin(db: Db, input: { q: string; cityId?: number; limit: number }) {
  const found = await searchStreets(db, { pattern: input.q, cityId: input.cityId, limit: input.limit });
  if (found.length === 0) return [];
  const counts = await db.house.groupBy({ by: ["streetId"], where: { streetId: { in: found.map((s) => s.id) } }, _count: { _all: true } });
  return found.map((s) => ({ ...s, houses: counts.find((c) => c.streetId === s.id)?._count._all ?? 0 }));
}

export async function streetDetails(db: Db, streetId: number) {
  const street = await db.street.findUnique({
    where: { id: streetId },
    select: {
      id: true,
      cityId: true,
      kind: true,
      prefix: true,
      name: true,
      fullName: true,
      lat: true,
      lon: true,
      city: { select: { name: true, nameEn: true } },
      houses: { select: { id: true, number: true, lat: true, lon: true, region: { select: { id: true, name: true, nameEn: true } } } },
    },
  });
  if (!street) throw new ValidationError("NOT_FOUND", { what: "Street", id: streetId });
  const collator = new Intl.Collator("ru", { numeric: true });
  return { ...street, houses: street.houses.sort((a, b) => collator.compare(a.number, b.number)) };
}

export interface HouseInput {
  number: string;
  lat?: number;
  lon?: number;
}

async function houseRows(db: Db, cityId: number, street: { lat: number; lon: number }, houses: HouseInput[]) {
  const seen = new Set<string>();
  const rows: Array<{ number: string; numberKey: string; lat: number; lon: number; regionId: number | null }> = [];
  for (const h of houses) {
    const number = h.number.trim();
    const numberKey = normalizeHouse(number);
    if (!numberKey) continue;
    if (seen.has(numberKey)) throw conflict("houseTwice", { house: number });
    seen.add(numberKey);
    const lat = h.lat ?? street.lat;
    const lon = h.lon ?? street.lon;
    const region = await regionAt(db, lat, lon, cityId);
    rows.push({ number, numberKey, lat, lon, regionId: region?.id ?? null });
  }
  return rows;
}

export interface StreetInput {
  cityId: number;
  kind: "STREET" | "PUBLIC_PLACE";
  prefix: string;
  name: string;
  lat: number;
  lon: number;
  houses: HouseInput[];
}

export async function addStreet(db: Db, input: StreetInput) {
  await requireCity(db, input.cityId);
  const prefix = input.kind === "PUBLIC_PLACE" ? "" : input.prefix.trim();
  const name = input.name.trim();
  const fullName = prefix ? `${prefix} ${name}` : name;
  const searchKey = normalizeForSearch(fullName);
  const exists = await db.street.findUnique({ where: { cityId_searchKey: { cityId: input.cityId, searchKey } }, select: { id: true } });
  if (exists) throw conflict("streetExists", { street: fullName });
  const houses = await houseRows(db, input.cityId, input, input.houses);
  try {
    const street = await db.$transaction(async (tx) => {
      const created = await tx.street.create({
        data: { cityId: input.cityId, kind: input.kind, prefix, name, fullName, searchKey, lat: input.lat, lon: input.lon },
        select: { id: true },
      });
      const words = searchWords(fullName);
      if (words.length) await tx.streetWord.createMany({ data: words.map((word, position) => ({ streetId: created.id, position, word })) });
      if (houses.length) await tx.house.createMany({ data: houses.map((h) => ({ ...h, streetId: created.id })) });
      return created;
    });
    forgetBasemaps();
    // The database notifies every instance too; this one need not wait for it.
    forgetStreets();
    return { id: street.id, fullName, houses: houses.length };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("streetExists", { street: fullName });
    throw error;
  }
}

export async function addHouses(db: Db, input: { streetId: number; houses: HouseInput[] }) {
  const street = await db.street.findUnique({ where: { id: input.streetId }, select: { id: true, cityId: true, lat: true, lon: true, houses: { select: { numberKey: true } } } });
  if (!street) throw new ValidationError("NOT_FOUND", { what: "Street", id: input.streetId });
  const rows = await houseRows(db, street.cityId, street, input.houses);
  const taken = rows.find((r) => street.houses.some((h) => h.numberKey === r.numberKey));
  if (taken) throw conflict("houseExists", { house: taken.number });
  await db.house.createMany({ data: rows.map((h) => ({ ...h, streetId: street.id })) });
  forgetBasemaps();
  return { id: street.id, houses: rows.length };
}

// ---------------------------------------------------------------- drivers

export async function listDriversAdmin(db: Db, input: { q?: string; active?: boolean; cursor?: number | null; limit: number }) {
  const q = input.q?.trim();
  const where: Prisma.DriverWhereInput = {
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(q
      ? {
          OR: [
            { callSign: { startsWith: escapeLike(q), mode: "insensitive" } },
            { lastName: { contains: escapeLike(q), mode: "insensitive" } },
            { firstName: { contains: escapeLike(q), mode: "insensitive" } },
            ...(q.replace(/\D/g, "").length >= 3 ? [{ phone: { contains: escapeLike(q.replace(/\D/g, "")) } }] : []),
            { car: { regNumber: { contains: escapeLike(q), mode: "insensitive" } } },
          ],
        }
      : {}),
  };
  const rows = await db.driver.findMany({
    where: input.cursor ? { AND: [where, { id: { gt: input.cursor } }] } : where,
    orderBy: { id: "asc" },
    take: input.limit + 1,
    select: {
      id: true,
      cityId: true,
      callSign: true,
      firstName: true,
      lastName: true,
      middleName: true,
      phone: true,
      permitNumber: true,
      state: true,
      active: true,
      city: { select: { name: true, nameEn: true } },
      car: { select: { brand: true, model: true, color: true, regNumber: true, year: true, carClass: true } },
      services: { select: { serviceId: true } },
    },
  });
  const items = rows.slice(0, input.limit);
  return { items, nextCursor: rows.length > input.limit ? (items.at(-1)?.id ?? null) : null };
}

export interface CarInput {
  brand: string;
  model: string;
  color: string;
  regNumber: string;
  year: number | null;
  carClass: number;
}

export interface DriverInput {
  id?: number;
  cityId: number;
  callSign: string;
  firstName: string;
  lastName: string;
  middleName: string;
  phone: string;
  permitNumber: string;
  serviceIds: number[];
  car: CarInput | null;
}

export async function saveDriver(db: Db, input: DriverInput) {
  await requireCity(db, input.cityId);
  const phone = normalizePhone(input.phone);
  if (!phone) throw new ValidationError("BAD_PARAMETER", { parameter: "phone", expected: "a phone number of 10 to 15 digits" });
  const services = await db.service.findMany({ where: { id: { in: input.serviceIds } }, select: { id: true, cityId: true } });
  if (services.length !== new Set(input.serviceIds).size || services.some((s) => s.cityId !== input.cityId)) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "serviceIds", expected: "services of the driver's city" });
  }
  const callSign = input.callSign.trim();
  const twin = await db.driver.findFirst({ where: { callSign, ...(input.id ? { id: { not: input.id } } : {}) }, select: { id: true } });
  if (twin) throw conflict("callSignTaken", { callSign });
  const data = {
    cityId: input.cityId,
    callSign,
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    middleName: input.middleName.trim(),
    phone,
    permitNumber: input.permitNumber.trim() || null,
  };
  const car = input.car ? { ...input.car, brand: input.car.brand.trim(), model: input.car.model.trim(), color: input.car.color.trim(), regNumber: input.car.regNumber.trim().toUpperCase() } : null;
  try {
    const result = await db.$transaction(async (tx) => {
      let id: number;
      let changes: string[];
      if (input.id) {
        const before = await tx.driver.findUnique({
          where: { id: input.id },
          select: {
            cityId: true,
            callSign: true,
            firstName: true,
            lastName: true,
            middleName: true,
            phone: true,
            permitNumber: true,
            services: { select: { serviceId: true } },
            car: { select: { brand: true, model: true, color: true, regNumber: true, year: true, carClass: true } },
          },
        });
        if (!before) throw new ValidationError("NOT_FOUND", { what: "Driver", id: input.id });
        id = input.id;
        const { services: beforeServices, car: beforeCar, ...beforeFields } = before;
        changes = changedFields(beforeFields, data);
        const oldIds = beforeServices.map((s) => s.serviceId).sort((a, b) => a - b);
        const newIds = [...new Set(input.serviceIds)].sort((a, b) => a - b);
        if (JSON.stringify(oldIds) !== JSON.stringify(newIds)) changes.push("services");
        if (JSON.stringify(beforeCar) !== JSON.stringify(car)) changes.push("car");
        await tx.driver.update({ where: { id }, data, select: { id: true } });
        await tx.driverService.deleteMany({ where: { driverId: id } });
      } else {
        const created = await tx.driver.create({ data, select: { id: true } });
        id = created.id;
        changes = [...Object.keys(data), "services", ...(car ? ["car"] : [])];
      }
      if (input.serviceIds.length) await tx.driverService.createMany({ data: [...new Set(input.serviceIds)].map((serviceId) => ({ driverId: id, serviceId })) });
      if (car) await tx.car.upsert({ where: { driverId: id }, create: { driverId: id, ...car }, update: car, select: { id: true } });
      else await tx.car.deleteMany({ where: { driverId: id } });
      return { id, changes };
    });
    return { ...result, driverId: result.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("callSignTaken", { callSign });
    throw error;
  }
}

/** Deactivating takes the driver off the line (shift closed, app key refused); refused while the driver holds an order. */
export async function setDriverActive(db: Db, input: { driverId: number; active: boolean }) {
  const result = await db.$transaction(async (tx) => {
    const driver = await tx.driver.findUnique({ where: { id: input.driverId }, select: { id: true, active: true, callSign: true } });
    if (!driver) throw new ValidationError("NOT_FOUND", { what: "Driver", id: input.driverId });
    if (driver.active === input.active) return { id: driver.id, callSign: driver.callSign, changes: [] as string[] };
    if (!input.active) {
      const holding = await tx.order.count({ where: { driverId: driver.id, state: { in: DRIVER_HOLDING_STATES } } });
      if (holding > 0) throw conflict("driverHasOrder", { callSign: driver.callSign });
      await tx.shift.updateMany({ where: { driverId: driver.id, endedAt: null }, data: { endedAt: new Date() } });
      await tx.driver.update({ where: { id: driver.id }, data: { active: false, state: "OFFLINE", speed: 0 }, select: { id: true } });
    } else {
      await tx.driver.update({ where: { id: driver.id }, data: { active: true }, select: { id: true } });
    }
    return { id: driver.id, callSign: driver.callSign, changes: ["active"] };
  });
  forgetDriverKeys();
  const d = await db.driver.findUnique({ where: { id: result.id }, select: { id: true, callSign: true, state: true, lat: true, lon: true, speed: true, bearing: true, regionId: true } });
  if (d) publish({ type: "driver.changed", driverId: d.id, callSign: d.callSign, state: d.state, lat: d.lat, lon: d.lon, speed: d.speed, bearing: d.bearing, regionId: d.regionId });
  return { id: result.id, driverId: result.id, active: input.active, changes: result.changes };
}

/** A new app key for the driver (the old one stops working); the key is in the reply once and stored nowhere. */
export async function issueDriverKey(db: Db, input: { driverId: number }) {
  const driver = await db.driver.findUnique({ where: { id: input.driverId }, select: { callSign: true } });
  if (!driver) throw new ValidationError("NOT_FOUND", { what: "Driver", id: input.driverId });
  const issued = await issueDriverAppKey(db, driver.callSign);
  return { id: issued.driverId, driverId: issued.driverId, callSign: issued.callSign, key: issued.key };
}

// ---------------------------------------------------------------- blacklist

export async function listBlacklist(db: Db, input: { q?: string }) {
  const digits = input.q?.replace(/\D/g, "") ?? "";
  return db.blacklistedPhone.findMany({
    where: digits ? { phone: { contains: escapeLike(digits) } } : {},
    orderBy: { createdAt: "desc" },
    take: 500,
    select: { phone: true, reason: true, createdAt: true },
  });
}

export async function addToBlacklist(db: Db, input: { phone: string; reason: string }) {
  const phone = normalizePhone(input.phone);
  if (!phone) throw new ValidationError("BAD_PARAMETER", { parameter: "phone", expected: "a phone number of 10 to 15 digits" });
  const exists = await db.blacklistedPhone.findUnique({ where: { phone }, select: { phone: true } });
  if (exists) throw conflict("phoneListed", { phone });
  await db.blacklistedPhone.create({ data: { phone, reason: input.reason.trim() }, select: { phone: true } });
  return { id: phone, phone };
}

export async function removeFromBlacklist(db: Db, input: { phone: string }) {
  const phone = normalizePhone(input.phone) ?? input.phone;
  const removed = await db.blacklistedPhone.deleteMany({ where: { phone } });
  if (removed.count === 0) throw new ValidationError("NOT_FOUND", { what: "Blacklisted phone", id: phone });
  return { id: phone, phone };
}
