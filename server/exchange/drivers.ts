// The exchange's driver calls: one driver, car classes, car options, the
// filtered list (POST /drivers) and a participant's report of its driver's
// state (POST /driver/update), which is passed on to the sellers of the
// orders that driver executes (`/on/driver/update`).
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { wakeOutbox } from "../notifications/wake";
import { badRequest, notFound } from "./errors";
import { driverKey, notify } from "./notify";
import type { ExchangeCaller } from "./sessions";
import { translateDriverCriteria } from "./waterline";

const DRIVER_SELECT = {
  id: true,
  callSign: true,
  name: true,
  phone: true,
  registrationNumber: true,
  brand: true,
  model: true,
  modelCode: true,
  color: true,
  colorCode: true,
  carage: true,
  connectBy: true,
  carClass: true,
  options: true,
} as const satisfies Prisma.ExchangeDriverSelect;

type DriverRow = Prisma.ExchangeDriverGetPayload<{ select: typeof DRIVER_SELECT }>;

// The directory is every participant's, but a driver's person is their own
// firm's business (docs/exchange.md, "Drivers"): the resource keeps all of
// the reference's fields, and `name` and `phone` are filled only for the
// caller's own drivers. A seller learns the driver who took its order from
// the take itself (`/on/order/taken` carries the executor, as the reference
// requires), not from the directory. Filtering or sorting by name or phone
// is limited to the caller's own drivers, so neither can be probed.
const PERSONAL_FIELDS = ["name", "phone"] as const;

/** The reference's Driver resource, as `viewer` (a participant) may see it. */
export function driverResource(d: DriverRow & { participantId: number }, viewer: number) {
  const { participantId, ...resource } = d;
  if (participantId === viewer) return resource;
  return { ...resource, name: "", phone: "" };
}

export async function getDriver(db: Db, caller: ExchangeCaller, id: string) {
  const driver = await db.exchangeDriver.findUnique({ where: { id }, select: { ...DRIVER_SELECT, participantId: true } });
  if (!driver) throw notFound("Driver", id);
  return driverResource(driver, caller.participantId);
}

/** Whether a translated query reads a personal field (in its where or its order). */
function readsPersonal(query: { where?: unknown; orderBy?: unknown }): boolean {
  const text = JSON.stringify([query.where ?? {}, query.orderBy ?? []]);
  return PERSONAL_FIELDS.some((field) => text.includes(`"${field}":`));
}

export async function findDrivers(db: Db, caller: ExchangeCaller, criteria: unknown) {
  const { fields, ...query } = translateDriverCriteria(criteria);
  const where: Prisma.ExchangeDriverWhereInput = readsPersonal(query) ? { AND: [query.where ?? {}, { participantId: caller.participantId }] } : (query.where ?? {});
  const rows = await db.exchangeDriver.findMany({ ...query, where, select: { ...DRIVER_SELECT, participantId: true } });
  return rows.map((found) => {
    const row = driverResource(found, caller.participantId);
    const resource: Partial<DriverRow> & Pick<DriverRow, "id"> = { id: row.id };
    for (const field of fields) (resource as Record<string, unknown>)[field] = row[field as keyof DriverRow];
    return resource;
  });
}

export async function carClasses(db: Db) {
  const rows = await db.carClass.findMany({ orderBy: { id: "asc" } });
  return rows.map((c) => ({ id: c.id, name: { en: c.nameEn, ru: c.nameRu }, cars: Array.isArray(c.cars) ? c.cars : [] }));
}

export async function carOptions(db: Db) {
  const rows = await db.carOption.findMany({ orderBy: { id: "asc" } });
  return rows.map((o) => ({ id: o.id, name: o.name, type: o.type, access: o.access }));
}

export interface DriverStateInput {
  id: string;
  attributes: Record<string, unknown>;
}

function numberOf(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < min || n > max) throw badRequest(`data.attributes.${name} must be a number from ${min} to ${max}`, { parameter: `data.attributes.${name}` });
  return n;
}

/** POST /driver/update: the caller's driver (by exchange id, or by call sign) reports its state. */
export async function updateDriverState(db: Db, caller: ExchangeCaller, input: DriverStateInput): Promise<{ id: string }> {
  const a = input.attributes;
  const callSign = a.callSign === undefined || a.callSign === null ? undefined : String(a.callSign);
  if (callSign !== undefined && (callSign === "" || callSign.length > 64)) throw badRequest("data.attributes.callSign must be a call sign", { parameter: "data.attributes.callSign" });
  const lat = numberOf(a.latitude, "latitude", -90, 90);
  const lon = numberOf(a.longitude, "longitude", -180, 180);
  const speed = numberOf(a.speed, "speed", 0, 1000);
  const bearing = numberOf(a.bearing, "bearing", -360, 360);
  const status = numberOf(a.status, "status", 0, 1000);
  if (status !== undefined && !Number.isInteger(status)) throw badRequest("data.attributes.status must be an integer", { parameter: "data.attributes.status" });

  const { driver, count } = await db.$transaction(async (tx) => {
    // Another participant's driver id is no id of the caller's: the call sign decides
    // (Forbidden is not among driver/update's errors in the reference).
    let driver = await tx.exchangeDriver.findFirst({
      where: { id: input.id, participantId: caller.participantId },
      select: { id: true, participantId: true, callSign: true },
    });
    if (!driver && callSign) {
      driver = await tx.exchangeDriver.upsert({
        where: { participantId_callSign: { participantId: caller.participantId, callSign } },
        create: { participantId: caller.participantId, callSign, name: callSign },
        update: {},
        select: { id: true, participantId: true, callSign: true },
      });
    }
    if (!driver) throw badRequest(`unknown driver ${input.id}; give data.attributes.callSign to report a driver by call sign`, { parameter: "data.id" });
    await tx.exchangeDriver.update({
      where: { id: driver.id },
      data: {
        ...(lat !== undefined ? { lat } : {}),
        ...(lon !== undefined ? { lon } : {}),
        ...(speed !== undefined ? { speed } : {}),
        ...(bearing !== undefined ? { bearing } : {}),
        ...(status !== undefined ? { status } : {}),
        updatedAt: new Date(),
      },
      select: { id: true },
    });
    // The sellers of the open orders this driver executes.
    const executing = await tx.exchangeOrder.findMany({
      where: { executorId: caller.participantId, statusCode: { lt: 90 } },
      select: { id: true, sellerId: true, executor: true },
    });
    const bySeller = new Map<number, number[]>();
    for (const order of executing) {
      const ex = order.executor as { id?: unknown; callSign?: unknown } | null;
      if (!ex || (ex.id !== driver.id && ex.callSign !== driver.callSign)) continue;
      bySeller.set(order.sellerId, [...(bySeller.get(order.sellerId) ?? []), order.id]);
    }
    const attributes: Prisma.InputJsonObject = {
      callSign: driver.callSign,
      ...(lat !== undefined ? { latitude: lat } : {}),
      ...(lon !== undefined ? { longitude: lon } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(speed !== undefined ? { speed } : {}),
      ...(bearing !== undefined ? { bearing } : {}),
    };
    const d = driver;
    const count = await notify(
      tx,
      [...bySeller].map(([sellerId, orders]) => ({
        participantId: sellerId,
        topic: "driver/update" as const,
        orderingKey: driverKey(sellerId, d.id),
        data: { id: d.id, attributes, orders: orders.map(String) },
      })),
    );
    return { driver: d, count };
  });
  if (count > 0) wakeOutbox();
  return { id: driver.id };
}
