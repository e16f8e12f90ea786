// What the expectations of tests/fast/trpc-procedures.test.ts refer to: rows
// of the seeded demo city found by query (not by fixed ids), and a few rows
// made through the application's own services.
import { db } from "@/server/db";
import { createOrder } from "@/server/orders/create-order";
import { issueApiKey } from "@/server/auth/api-keys";

/** A phone on the blacklist: orders from it are refused. */
export const BLACKLISTED_PHONE = "+79005554400";

export interface Fixtures {
  cityId: number;
  serviceId: number;
  regionId: number;
  streetId: number;
  driverId: number;
  driverCallSign: string;
  customerId: number;
  /** A free order of the demo city, made through createOrder. */
  orderId: number;
  orderVersion: number;
  apiKeyId: number;
  /** A user the administrator may edit (not themself). */
  otherUserId: number;
}

async function first<T>(what: string, find: () => Promise<T | null>): Promise<T> {
  const row = await find();
  if (!row) throw new Error(`the demo seed holds no ${what}`);
  return row;
}

export async function loadFixtures(otherUserId: number): Promise<Fixtures> {
  const prisma = db();
  const service = await first("service", () => prisma.service.findFirst({ where: { active: true }, orderBy: { id: "asc" }, select: { id: true, cityId: true } }));
  const region = await first("region", () => prisma.region.findFirst({ where: { cityId: service.cityId }, orderBy: { id: "asc" }, select: { id: true } }));
  const street = await first("street", () => prisma.street.findFirst({ where: { cityId: service.cityId }, orderBy: { id: "asc" }, select: { id: true } }));
  const driver = await first("driver", () => prisma.driver.findFirst({ where: { cityId: service.cityId }, orderBy: { id: "asc" }, select: { id: true, callSign: true } }));
  const customer = await first("customer", () => prisma.customer.findFirst({ orderBy: { id: "asc" }, select: { id: true } }));
  const key = await issueApiKey(prisma, { name: "fast tier" });
  // Stored in E.164, as the console's blacklist stores phones.
  await prisma.blacklistedPhone.create({ data: { phone: BLACKLISTED_PHONE, reason: "fast tier" } });
  const order = await createOrder(
    prisma,
    { source: "CONSOLE", phone: "89161112233", pickup: { street: "ул. Ленина", house: "2" }, moderationRequired: false },
    { type: "SYSTEM", id: "fast-tier" },
  );
  const version = await first("order", () => prisma.order.findUnique({ where: { id: order.id }, select: { version: true } }));
  return {
    cityId: service.cityId,
    serviceId: service.id,
    regionId: region.id,
    streetId: street.id,
    driverId: driver.id,
    driverCallSign: driver.callSign,
    customerId: customer.id,
    orderId: order.id,
    orderVersion: version.version,
    apiKeyId: key.id,
    otherUserId,
  };
}
