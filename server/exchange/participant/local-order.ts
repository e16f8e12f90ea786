// Between our orders and the exchange's resources: the attributes we sell a
// local order with, the local copy of an order the exchange offers us
// (source EXCHANGE, among the free orders), our drivers as the reference's
// Driver and Executor, our services.
import { normalizePhone } from "../../orders/phone";
import { randomUUID } from "node:crypto";
import type { DbOrTx, Tx } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { codeOf } from "../../orders/states";

type Json = Prisma.InputJsonObject;

function strip<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== "")) as T;
}

const roubles = (kopecks: number) => (kopecks / 100).toFixed(2);

export const SELL_SELECT = {
  id: true,
  phone: true,
  clientName: true,
  street: true,
  house: true,
  entrance: true,
  lat: true,
  lon: true,
  dst: true,
  dstStreet: true,
  dstHouse: true,
  dstLat: true,
  dstLon: true,
  wayPoints: true,
  comment: true,
  amount: true,
  createdAt: true,
  serviceId: true,
  service: { select: { carClass: true, name: true } },
  rate: {
    select: {
      name: true,
      minFare: true,
      kmCost: true,
      minuteCost: true,
      standCost: true,
      freeStandTime: true,
      waitCost: true,
      freeWaitTime: true,
      roundTo: true,
      pickUp: true,
      kmStart: true,
    },
  },
} as const satisfies Prisma.OrderSelect;

export type SellableOrder = Prisma.OrderGetPayload<{ select: typeof SELL_SELECT }>;

/** The order attributes we register a local order with (POST /order). */
export function attributesOfLocal(order: SellableOrder): Json {
  const points = Array.isArray(order.wayPoints) ? (order.wayPoints as Array<Record<string, unknown>>) : [];
  const stops = points.length > 2 ? points.slice(1, -1) : [];
  const rate = order.rate;
  return strip({
    client: strip({ phone: order.phone, name: order.clientName }),
    from: strip({ street: order.street, house: order.house, porch: order.entrance, latitude: order.lat, longitude: order.lon }),
    to: strip({
      street: order.dstStreet || order.dst,
      house: order.dstHouse,
      latitude: order.dstLat ?? undefined,
      longitude: order.dstLon ?? undefined,
    }),
    time: { registered: order.createdAt.toISOString() },
    carClass: order.service.carClass,
    fare: (order.amount ?? 0) / 100,
    note: order.comment,
    service: { id: order.serviceId },
    waypoints: stops.length
      ? stops.map((p) => strip({ street: p.street === undefined ? undefined : String(p.street), house: p.house === undefined ? undefined : String(p.house), lat: p.lat === undefined ? undefined : String(p.lat), lon: p.lon === undefined ? undefined : String(p.lon) }))
      : undefined,
    tariff: rate
      ? strip({
          name: rate.name,
          minFare: roubles(rate.minFare),
          farePerKm: roubles(rate.kmCost),
          skipFirstKm: String(rate.kmStart),
          timeUnitSize: "1",
          timeUnitFare: roubles(rate.minuteCost),
          stationaryFare: roubles(rate.standCost),
          freeStationaryTime: String(rate.freeStandTime),
          freeWaitingTime: String(rate.freeWaitTime),
          waitingRate: roubles(rate.waitCost),
          roundTo: roubles(rate.roundTo),
          roundType: 0,
          pickUp: roubles(rate.pickUp),
        })
      : undefined,
  });
}

// ---------------------------------------------------------------- offers we receive

interface Point {
  street?: unknown;
  house?: unknown;
  porch?: unknown;
  latitude?: unknown;
  longitude?: unknown;
}

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : null);

/** The fields of a local order that follow the exchange's attributes. */
export function localFields(attributes: Record<string, unknown>) {
  const client = (attributes.client ?? {}) as { phone?: unknown; name?: unknown };
  const from = (attributes.from ?? {}) as Point;
  const to = (attributes.to ?? {}) as Point;
  const stops = Array.isArray(attributes.waypoints) ? (attributes.waypoints as Array<Record<string, unknown>>) : [];
  const toLine = [str(to.street), str(to.house)].filter(Boolean).join(", ");
  const wayPoints = [
    { street: str(from.street), house: str(from.house), lat: num(from.latitude), lon: num(from.longitude) },
    ...stops.map((p) => ({ street: str(p.street ?? p.publicPlace), house: str(p.house), lat: num(p.lat), lon: num(p.lon) })),
    ...(toLine || num(to.latitude) !== null ? [{ street: str(to.street), house: str(to.house), lat: num(to.latitude), lon: num(to.longitude) }] : []),
  ];
  const fare = num(attributes.fare);
  return {
    // stored like every passenger's phone (E.164), so the blacklist and history match it
    phone: normalizePhone(str(client.phone)) ?? str(client.phone).slice(0, 32),
    clientName: str(client.name).slice(0, 200),
    street: str(from.street).slice(0, 300),
    house: str(from.house).slice(0, 50),
    entrance: str(from.porch).slice(0, 50),
    lat: num(from.latitude),
    lon: num(from.longitude),
    dst: toLine.slice(0, 400),
    dstStreet: str(to.street).slice(0, 300),
    dstHouse: str(to.house).slice(0, 50),
    dstLat: num(to.latitude),
    dstLon: num(to.longitude),
    wayPoints: wayPoints as unknown as Prisma.InputJsonArray,
    comment: str(attributes.note).slice(0, 2000),
    amount: fare === null ? null : Math.round(fare * 100),
  };
}

/**
 * The local fields an update carries: only those whose attributes are
 * present (an exchange may send `updated` with the status alone; what it
 * leaves out stays as it is).
 */
export function presentFields(attributes: Record<string, unknown>): Partial<ReturnType<typeof localFields>> {
  const all = localFields(attributes);
  const has = (key: string) => Object.hasOwn(attributes, key) && attributes[key] !== undefined;
  const wayChanged = has("from") || has("to") || has("waypoints");
  return {
    ...(has("client") ? { phone: all.phone, clientName: all.clientName } : {}),
    ...(has("from") ? { street: all.street, house: all.house, entrance: all.entrance, lat: all.lat, lon: all.lon } : {}),
    ...(has("to") ? { dst: all.dst, dstStreet: all.dstStreet, dstHouse: all.dstHouse, dstLat: all.dstLat, dstLon: all.dstLon } : {}),
    ...(wayChanged && has("from") ? { wayPoints: all.wayPoints } : {}),
    ...(has("note") ? { comment: all.comment } : {}),
    ...(has("fare") ? { amount: all.amount } : {}),
  };
}

/** The service an offered order is kept under: one of this car class, else the first. */
async function serviceFor(tx: Tx, carClass: number): Promise<{ id: number; cityId: number } | null> {
  return (
    (await tx.service.findFirst({ where: { active: true, carClass }, select: { id: true, cityId: true }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] })) ??
    (await tx.service.findFirst({ where: { active: true }, select: { id: true, cityId: true }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] }))
  );
}

/** The local copy of an offered order: source EXCHANGE, FREE, no SMS of ours to the seller's passenger. */
export async function insertOfferedOrder(tx: Tx, exchangeOrderId: string, attributes: Record<string, unknown>): Promise<{ id: number; uuid: string; regionId: number | null } | null> {
  const carClass = typeof attributes.carClass === "number" ? attributes.carClass : 1;
  const service = await serviceFor(tx, carClass);
  if (!service) return null;
  const queue = await tx.queue.findFirst({ where: { serviceId: service.id, isMain: true }, select: { id: true } });
  return tx.order.create({
    data: {
      uuid: randomUUID(),
      cityId: service.cityId,
      serviceId: service.id,
      queueId: queue?.id ?? null,
      source: "EXCHANGE",
      state: "FREE",
      statusCode: codeOf("FREE"),
      needNotify: false,
      ...localFields(attributes),
      history: {
        create: { fromState: null, toState: "FREE", toCode: codeOf("FREE"), actorType: "EXCHANGE", actorId: exchangeOrderId, reason: "offered by the exchange" },
      },
    },
    select: { id: true, uuid: true, regionId: true },
  });
}

// ---------------------------------------------------------------- our drivers and services

export const DRIVER_SELECT = {
  id: true,
  callSign: true,
  firstName: true,
  middleName: true,
  lastName: true,
  phone: true,
  lat: true,
  lon: true,
  speed: true,
  bearing: true,
  active: true,
  car: { select: { brand: true, model: true, color: true, regNumber: true, year: true, carClass: true, options: true } },
} as const satisfies Prisma.DriverSelect;

export type LocalDriver = Prisma.DriverGetPayload<{ select: typeof DRIVER_SELECT }>;

/** Our driver as the reference's Driver resource. */
export function driverResource(d: LocalDriver) {
  return {
    id: String(d.id),
    callSign: d.callSign,
    name: [d.firstName, d.middleName, d.lastName].filter(Boolean).join(" "),
    phone: d.phone,
    registrationNumber: d.car?.regNumber ?? "",
    brand: d.car?.brand ?? "",
    model: d.car?.model ?? "",
    modelCode: "",
    color: d.car?.color ?? "",
    colorCode: "",
    carage: d.car?.year ? String(d.car.year) : "",
    connectBy: "app",
    carClass: d.car?.carClass ?? 1,
    options: d.car?.options ?? [],
  };
}

/** Our driver as the Executor of a take. */
export function executorOf(d: LocalDriver, serviceName: string): Json {
  return {
    callSign: d.callSign,
    phone: d.phone,
    registrationNumber: d.car?.regNumber ?? "",
    brand: d.car?.brand ?? "",
    model: d.car?.model ?? "",
    color: d.car?.color ?? "",
    autoAge: d.car?.year ? String(d.car.year) : "",
    modelCode: "",
    colorCode: "",
    serviceName,
    latitude: d.lat === null ? "" : String(d.lat),
    longitude: d.lon === null ? "" : String(d.lon),
    speed: String(d.speed),
    bearing: String(d.bearing),
  };
}

export async function listServices(db: DbOrTx) {
  const rows = await db.service.findMany({
    where: { active: true },
    select: { id: true, name: true, description: true, carClass: true },
    orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
  });
  return rows.map((s) => ({ id: s.id, name: s.name, description: s.description, carClass: s.carClass }));
}

/** Our active drivers as the exchange reads them (`POST /participant/drivers`), by id, a page at a time. */
export async function listDriverResources(db: DbOrTx, page: { skip: number; take?: number }) {
  const rows = await db.driver.findMany({
    where: { active: true },
    select: DRIVER_SELECT,
    orderBy: { id: "asc" },
    skip: page.skip,
    ...(page.take === undefined ? {} : { take: page.take }),
  });
  return rows.map(driverResource);
}

/** One driver by call sign (active or not: the caller decides what an inactive one means). */
export function driverByCallSign(db: DbOrTx, callSign: string) {
  return db.driver.findUnique({ where: { callSign }, select: DRIVER_SELECT });
}
