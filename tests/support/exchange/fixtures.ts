// Test data written through the application's services before a server
// starts: exchange participants, and a small dispatch (city, service,
// drivers with cars, free orders) for our participant instances.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { provisionParticipant, type ServiceInput } from "@/server/exchange/participants";

export interface ParticipantSpec {
  name: string;
  /** Base URL of its server (notifications go to <url>/on/...); "" for none. */
  url: string;
  address?: string;
  key: string;
  services?: ServiceInput[];
  deposit?: bigint;
  commissionBp?: number | null;
  disabled?: boolean;
}

export async function addParticipants(prisma: PrismaClient, specs: ParticipantSpec[]): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const spec of specs) {
    const created = await provisionParticipant(prisma, {
      name: spec.name,
      email: `${spec.name.toLowerCase().replace(/\W+/g, "")}@example.test`,
      phone: "+7 900 000-00-00",
      countryEn: "Russia",
      countryRu: "Россия",
      locationEn: "Moscow",
      locationRu: "Москва",
      lat: 55.75,
      lon: 37.62,
      commissionBp: spec.commissionBp ?? null,
      ...(spec.url ? { server: { url: spec.url, address: spec.address ?? "127.0.0.1" } } : {}),
      key: spec.key,
      services: spec.services ?? [],
      deposit: spec.deposit ?? 0n,
    });
    if (spec.disabled) await prisma.exchangeParticipant.update({ where: { id: created.id }, data: { disabled: true } });
    ids[spec.name] = created.id;
  }
  return ids;
}

export interface DispatchFixture {
  cityId: number;
  serviceId: number;
  drivers: Array<{ id: number; callSign: string }>;
  orders: number[];
  oldOrder?: number;
}

export async function fillDispatch(
  prisma: PrismaClient,
  options: { prefix: string; drivers: number; orders: number; oldOrder?: boolean; carClass?: number },
): Promise<DispatchFixture> {
  const city = await prisma.city.create({ data: { name: "Тестоград", nameEn: "Testgrad", lat: 55.75, lon: 37.62 }, select: { id: true } });
  const service = await prisma.service.create({
    data: { cityId: city.id, name: "Эконом", nameEn: "Economy", description: "Тестовая услуга", carClass: options.carClass ?? 1 },
    select: { id: true },
  });
  await prisma.queue.create({ data: { serviceId: service.id, name: "Основная", isMain: true } });
  const drivers: Array<{ id: number; callSign: string }> = [];
  for (let i = 1; i <= options.drivers; i++) {
    const callSign = `${options.prefix}${100 + i}`;
    const d = await prisma.driver.create({
      data: {
        cityId: city.id,
        callSign,
        firstName: `Водитель${i}`,
        middleName: "Иванович",
        lastName: `${options.prefix}-Петров`,
        phone: `7900${options.prefix === "A" ? 1 : 2}00000${i}`,
        state: "FREE",
        lat: 55.75 + i / 1000,
        lon: 37.62 + i / 1000,
        car: { create: { brand: "Kia", model: "Rio", color: "белый", regNumber: `${options.prefix}${i}00АА77`, year: 2020, carClass: options.carClass ?? 1, options: [4, 5] } },
        services: { create: { serviceId: service.id } },
      },
      select: { id: true, callSign: true },
    });
    drivers.push(d);
  }
  const orders: number[] = [];
  const makeOrder = async (i: number, at: Date) => {
    const o = await prisma.order.create({
      data: {
        uuid: randomUUID(),
        cityId: city.id,
        serviceId: service.id,
        source: "CONSOLE",
        state: "FREE",
        statusCode: 9,
        phone: `7916000${String(1000 + i)}`,
        clientName: `Клиент ${i}`,
        street: "ул. Ленина",
        house: String(i),
        entrance: "1",
        lat: 55.751 + i / 10_000,
        lon: 37.621 + i / 10_000,
        dst: "пр. Мира, 10",
        dstStreet: "пр. Мира",
        dstHouse: "10",
        dstLat: 55.78,
        dstLon: 37.63,
        comment: `заказ ${i}`,
        amount: 45_000 + i * 100,
        createdAt: at,
        history: { create: { fromState: null, toState: "FREE", toCode: 9, actorType: "SYSTEM", reason: "created", at } },
      },
      select: { id: true },
    });
    return o.id;
  };
  for (let i = 1; i <= options.orders; i++) orders.push(await makeOrder(i, new Date()));
  const oldOrder = options.oldOrder ? await makeOrder(99, new Date(Date.now() - 60 * 60_000)) : undefined;
  return { cityId: city.id, serviceId: service.id, drivers, orders, ...(oldOrder ? { oldOrder } : {}) };
}

export const EXCHANGE_DRIVERS = [
  { callSign: "D-1", name: "Алексей Смирнов", phone: "79000000001", registrationNumber: "А001АА77", brand: "Kia", model: "Rio", color: "белый", carage: "2018", carClass: 1, options: [1, 4] },
  { callSign: "D-2", name: "Борис Кузнецов", phone: "79000000002", registrationNumber: "В002ВВ77", brand: "Skoda", model: "Octavia", color: "серый", carage: "2021", carClass: 2, options: [5] },
  { callSign: "D-3", name: "Виктор Попов", phone: "79000000003", registrationNumber: "Е003ЕЕ77", brand: "Toyota", model: "Camry", color: "чёрный", carage: "2022", carClass: 3, options: [1, 5, 7] },
  { callSign: "D-4", name: "Галина Соколова", phone: "79000000004", registrationNumber: "К004КК77", brand: "Kia", model: "Optima", color: "синий", carage: "2019", carClass: 2, options: [] },
  { callSign: "X-5", name: "Дмитрий Лебедев", phone: "79000000005", registrationNumber: "М005ММ77", brand: "Lada", model: "Vesta", color: "белый", carage: "2020", carClass: 1, options: [3] },
];
