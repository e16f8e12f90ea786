// The demo city: seeded into a fresh PGlite, it is complete, consistent,
// idempotent and the same on every run.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "../../server/generated/prisma/client";
import { closeDb, db, withSession } from "../../server/db";
import { migrate } from "../../server/db/migrate";
import { normalizeForSearch, normalizeHouse, searchWords } from "../../server/geo/normalize";
import { parsePolygon, pointInPolygon, polygonArea, type LatLon } from "../../server/geo/polygon";
import { DRIVER_HOLDING_STATES, ORDER_STATES, canMove, isOrderState, type OrderState } from "../../server/orders/states";
import { haversineMetres } from "../../server/geo/distance";
import { driveMinutes } from "../../server/routing/arrival";
import { cityRoads } from "../../server/routing/graph-cache";
import { streetPolylines } from "../../server/routing/street-lines";
import { arrivalMatrix, arrivalSeconds, routeThrough } from "../../server/routing/routes";
import { buildDemoCity, seedDemoCity } from "../../server/seed/demo";
import { mulberry32, Rng } from "../../server/seed/demo/random";
import { eventually } from "../support/wait";
import { TEST_CLIENT_OPTIONS } from "../support/prisma-options";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "demo-city-"));
  dirs.push(dir);
  return dir;
}

/** A second database of our own, beside the process's db(). */
async function openFresh(): Promise<{ prisma: PrismaClient; close: () => Promise<void> }> {
  const pglite = new PGlite(path.join(tempDir(), "pglite"));
  await migrate({
    query: async <T,>(sql: string, params: unknown[] = []) => (await pglite.query<T>(sql, params)).rows,
    exec: async (sql: string) => {
      await pglite.exec(sql);
    },
  });
  const prisma = new PrismaClient({ ...TEST_CLIENT_OPTIONS, adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

const TABLES = [
  "city", "region", "service", "queue", "rate", "extra", "service_region", "street", "street_word", "house",
  "driver", "car", "driver_service", "driver_ledger_entry", "customer", "customer_ledger_entry", "client",
  "client_bonus_entry", "blacklisted_phone", "car_class", "car_option", "orders", "order_extra", "order_status_change",
  "exchange_participant", "exchange_order", "exchange_driver",
] as const;

async function tableCounts(prisma: PrismaClient): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const rows = await prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${table}"`);
    counts[table] = Number(rows[0]?.n ?? -1);
  }
  return counts;
}

/** A digest of everything that must not change between runs (times aside). */
async function cityDigest(prisma: PrismaClient): Promise<string> {
  const hash = createHash("sha256");
  const streets = await prisma.street.findMany({
    orderBy: { id: "asc" },
    include: { houses: { orderBy: { id: "asc" } }, words: { orderBy: { position: "asc" } } },
  });
  for (const s of streets) {
    hash.update(`${s.id}|${s.cityId}|${s.kind}|${s.fullName}|${s.lat}|${s.lon}|${s.words.map((w) => w.word).join(" ")}\n`);
    for (const h of s.houses) hash.update(`  ${h.id}|${h.number}|${h.lat}|${h.lon}|${h.regionId}\n`);
  }
  const regions = await prisma.region.findMany({ orderBy: { id: "asc" } });
  for (const r of regions) hash.update(`${r.id}|${r.name}|${JSON.stringify(r.polygon)}\n`);
  const drivers = await prisma.driver.findMany({ orderBy: { id: "asc" }, include: { car: true, services: { orderBy: { serviceId: "asc" } } } });
  for (const d of drivers) {
    hash.update(
      `${d.id}|${d.callSign}|${d.lastName} ${d.firstName} ${d.middleName}|${d.phone}|${d.state}|${d.balance}|${d.lat}|${d.lon}|` +
        `${d.car?.brand} ${d.car?.model} ${d.car?.color} ${d.car?.regNumber}|${d.services.map((s) => s.serviceId).join(",")}\n`,
    );
  }
  const orders = await prisma.order.findMany({ orderBy: { id: "asc" }, include: { history: { orderBy: { id: "asc" } } } });
  for (const o of orders) {
    hash.update(
      `${o.id}|${o.uuid}|${o.state}|${o.statusCode}|${o.serviceId}|${o.driverId}|${o.phone}|${o.street}|${o.house}|${o.dst}|${o.distance}|` +
        `${o.history.map((h) => h.toState).join(">")}\n`,
    );
  }
  const clients = await prisma.client.findMany({ orderBy: { id: "asc" } });
  for (const c of clients) hash.update(`${c.phone}|${c.name}|${c.bonus}\n`);
  return hash.digest("hex");
}

describe("demo city: the generator alone", () => {
  it("mulberry32 and Rng are deterministic", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(new Set(xs).size).toBe(5);
    const rng = new Rng(7);
    expect(rng.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("builds the same plan twice", () => {
    const now = new Date("2025-03-01T09:30:00Z");
    expect(buildDemoCity({ now })).toEqual(buildDemoCity({ now }));
  });

  it("builds a city of 10,000 streets with unique search keys", () => {
    const plan = buildDemoCity({ streets: 10_000, now: new Date("2025-03-01T09:30:00Z") });
    const main = plan.cities[0]!;
    expect(main.streets).toHaveLength(10_000);
    expect(new Set(main.streets.map((s) => s.searchKey)).size).toBe(10_000);
    expect(main.streets.some((s) => /^\d+-[яйе] /.test(s.name))).toBe(true);
    for (const s of main.streets) {
      expect(s.searchKey).toBe(normalizeForSearch(s.fullName));
      expect(new Set(s.houses.map((h) => h.numberKey)).size).toBe(s.houses.length);
    }
  });

  it("normalises names and house numbers", () => {
    expect(normalizeForSearch("  Ул.   Семёновская ")).toBe("ул. семеновская");
    expect(searchWords("пр-т Зелёный")).toEqual(["пр", "т", "зеленый"]);
    expect(searchWords("ул. Ленина")).toEqual(["ул", "ленина"]);
    expect(searchWords("Ж/д вокзал Ленинградский")).toEqual(["ж", "д", "вокзал", "ленинградский"]);
    expect(normalizeHouse("12 К2")).toBe("12к2");
    expect(normalizeHouse("7А")).toBe("7а");
    expect(normalizeHouse("15/2")).toBe("15/2");
  });

  it("tells points inside a polygon", () => {
    const square: LatLon[] = [[0, 0], [0, 1], [1, 1], [1, 0]];
    expect(pointInPolygon(0.5, 0.5, square)).toBe(true);
    expect(pointInPolygon(1.5, 0.5, square)).toBe(false);
    expect(pointInPolygon(0.5, -0.1, square)).toBe(false);
    const notch: LatLon[] = [[0, 0], [0, 2], [2, 2], [2, 0], [1, 1]];
    // The notch cuts the triangle lon < 1 - |lat - 1| out of the west side.
    expect(pointInPolygon(1, 1.5, notch)).toBe(true);
    expect(pointInPolygon(0.5, 1, notch)).toBe(true);
    expect(pointInPolygon(1, 0.3, notch)).toBe(false);
  });
});

describe("demo city: seeded", () => {
  let prisma: PrismaClient;
  let mainCityId: number;

  beforeAll(async () => {
    process.env.DATA_DIR = tempDir();
    await withSession((session) => migrate(session));
    prisma = db();
    // How long the seed takes is the first start's business (npm start's banner, tests/security/first-start.test.ts),
    // not a timed assertion here: on a loaded machine it says nothing.
    const result = await seedDemoCity(prisma);
    expect(result).toEqual({ created: true });
    const main = await prisma.city.findFirst({ orderBy: { id: "asc" } });
    mainCityId = main!.id;
  }, 180_000);

  afterAll(async () => {
    await closeDb();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("has two cities, the main one with streets of every kind", async () => {
    const cities = await prisma.city.findMany({ orderBy: { id: "asc" } });
    expect(cities.length).toBeGreaterThanOrEqual(2);
    expect(cities[0]).toMatchObject({ timezone: "Europe/Moscow", currency: "RUB" });
    const streets = await prisma.street.findMany({ where: { cityId: mainCityId }, include: { words: { orderBy: { position: "asc" } } } });
    expect(streets.length).toBeGreaterThanOrEqual(300);
    const prefixes = new Set(streets.map((s) => s.prefix));
    for (const prefix of ["ул.", "пр-т", "пер.", "пл.", "б-р", "ш."]) expect(prefixes).toContain(prefix);
    const places = streets.filter((s) => s.kind === "PUBLIC_PLACE");
    expect(places.length).toBeGreaterThan(5);
    expect(places.every((p) => p.prefix === "" && p.fullName === p.name)).toBe(true);
    expect(places.map((p) => p.fullName)).toContain("Аэропорт Шереметьево");
    expect(streets.some((s) => s.fullName.includes("ё"))).toBe(true);
    for (const s of streets) {
      if (s.kind === "STREET") expect(s.fullName).toBe(`${s.prefix} ${s.name}`);
      expect(s.searchKey).toBe(normalizeForSearch(s.fullName));
      expect(s.words.map((w) => w.word)).toEqual(searchWords(s.fullName));
      expect(s.words.map((w) => w.position)).toEqual(s.words.map((_, i) => i));
    }
    const semenovskaya = streets.find((s) => s.fullName === "ул. Семёновская");
    expect(semenovskaya?.searchKey).toBe("ул. семеновская");
  });

  it("puts every house inside the region it names", async () => {
    const regions = new Map((await prisma.region.findMany()).map((r) => [r.id, r]));
    const houses = await prisma.house.findMany({ include: { street: { select: { cityId: true, kind: true } } } });
    expect(houses.length).toBeGreaterThan(300 * 5 * 0.8);
    const perStreet = new Map<number, number>();
    for (const h of houses) {
      perStreet.set(h.streetId, (perStreet.get(h.streetId) ?? 0) + 1);
      expect(h.numberKey).toBe(normalizeHouse(h.number));
      expect(h.regionId).not.toBeNull();
      const region = regions.get(h.regionId!);
      expect(region?.cityId).toBe(h.street.cityId);
      const polygon = parsePolygon(region!.polygon);
      expect(polygon).not.toBeNull();
      expect(pointInPolygon(h.lat, h.lon, polygon!)).toBe(true);
    }
    for (const count of perStreet.values()) {
      expect(count).toBeGreaterThanOrEqual(5);
      expect(count).toBeLessThanOrEqual(25);
    }
    const numbers = houses.map((h) => h.number);
    expect(numbers.some((n) => /^\d+к\d$/.test(n))).toBe(true);
    expect(numbers.some((n) => /^\d+[АБВ]$/.test(n))).toBe(true);
    expect(numbers.some((n) => /^\d+\/\d+$/.test(n))).toBe(true);
    expect(numbers.some((n) => /^\d+с\d$/.test(n))).toBe(true);
  });

  it("tiles each city with its regions, without gaps or overlaps", async () => {
    const cities = await prisma.city.findMany({ include: { regions: true } });
    const main = cities.find((c) => c.id === mainCityId)!;
    expect(main.regions.length).toBeGreaterThanOrEqual(8);
    for (const city of cities) {
      const polygons = city.regions.map((r) => {
        const polygon = parsePolygon(r.polygon)!;
        expect(polygon).not.toBeNull();
        // The stored bounding box is the polygon's.
        expect(Math.min(...polygon.map((p) => p[0]))).toBe(r.minLat);
        expect(Math.max(...polygon.map((p) => p[0]))).toBe(r.maxLat);
        expect(Math.min(...polygon.map((p) => p[1]))).toBe(r.minLon);
        expect(Math.max(...polygon.map((p) => p[1]))).toBe(r.maxLon);
        return polygon;
      });
      const box = {
        minLat: Math.min(...city.regions.map((r) => r.minLat)),
        maxLat: Math.max(...city.regions.map((r) => r.maxLat)),
        minLon: Math.min(...city.regions.map((r) => r.minLon)),
        maxLon: Math.max(...city.regions.map((r) => r.maxLon)),
      };
      expect(city.lat).toBeGreaterThan(box.minLat);
      expect(city.lat).toBeLessThan(box.maxLat);
      const n = 60;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const lat = box.minLat + ((i + 0.5) / n) * (box.maxLat - box.minLat);
          const lon = box.minLon + ((j + 0.5) / n) * (box.maxLon - box.minLon);
          const inside = polygons.filter((polygon) => pointInPolygon(lat, lon, polygon)).length;
          expect(inside, `${city.name} ${lat},${lon}`).toBe(1);
        }
      }
      const area = polygons.reduce((sum, polygon) => sum + polygonArea(polygon), 0);
      const boxArea = (box.maxLat - box.minLat) * (box.maxLon - box.minLon);
      expect(Math.abs(area - boxArea) / boxArea).toBeLessThan(1e-9);
    }
  });

  it("has services with queues, day and night rates and extras; service 1 is the main Economy", async () => {
    const services = await prisma.service.findMany({
      where: { cityId: mainCityId },
      include: { queues: true, rates: true, extras: true, regions: true },
      orderBy: { id: "asc" },
    });
    expect(services.length).toBeGreaterThanOrEqual(3);
    expect(services[0]).toMatchObject({ id: 1, name: "Эконом", nameEn: "Economy", carClass: 1 });
    expect(new Set(services.map((s) => s.carClass))).toEqual(new Set([1, 2, 3]));
    for (const s of services) {
      expect(s.queues.filter((q) => q.isMain)).toHaveLength(1);
      const day = s.rates.find((r) => r.startHour === 6 && r.endHour === 22);
      const night = s.rates.find((r) => r.startHour === 22 && r.endHour === 6);
      expect(day?.isBasic).toBe(true);
      expect(night).toBeDefined();
      expect(night!.kmCost).toBeGreaterThan(day!.kmCost);
      expect(night!.pickUp).toBeGreaterThan(day!.pickUp);
      expect(day).toMatchObject({ kmStart: 2, freeStandTime: 3, roundTo: 1000 });
      const codes = s.extras.map((e) => e.code);
      for (const code of ["CHILD_SEAT", "PET", "LUGGAGE"]) expect(codes).toContain(code);
      expect(s.extras.find((e) => e.code === "CHILD_SEAT")?.allowMultiple).toBe(true);
      expect(s.regions.length).toBeGreaterThan(0);
    }
    const economy = services[0]!;
    expect(economy.rates.find((r) => r.startHour === 6)).toMatchObject({ pickUp: 9900, minFare: 19900, kmCost: 2200 });
    const airport = economy.queues.find((q) => q.name === "Аэропорт");
    expect(airport).toBeDefined();
    expect(economy.rates.some((r) => r.queueId === airport!.id)).toBe(true);
    const second = await prisma.service.count({ where: { cityId: { not: mainCityId } } });
    expect(second).toBeGreaterThan(0);
  });

  it("has drivers with cars, services, positions and balances from their ledgers", async () => {
    const drivers = await prisma.driver.findMany({
      include: { car: true, services: { include: { service: true } }, ledger: { orderBy: { id: "asc" } }, region: true },
    });
    const main = drivers.filter((d) => d.cityId === mainCityId);
    expect(main.length).toBeGreaterThanOrEqual(60);
    expect(drivers.length - main.length).toBeGreaterThanOrEqual(5);
    const byState = (state: string) => main.filter((d) => d.state === state).length;
    expect(byState("FREE")).toBeGreaterThan(byState("BUSY"));
    expect(byState("BUSY")).toBeGreaterThan(byState("OFFLINE"));
    expect(byState("OFFLINE")).toBeGreaterThan(0);
    for (const d of drivers) {
      expect(d.phone).toMatch(/^\+79\d{9}$/);
      expect(d.firstName).not.toBe("");
      expect(d.car).not.toBeNull();
      expect(d.car!.regNumber).toMatch(/^[АВЕКМНОРСТУХ]\d{3}[АВЕКМНОРСТУХ]{2}\d{2,3}$/);
      expect(d.car!.year).toBeGreaterThanOrEqual(2015);
      expect(d.car!.year).toBeLessThanOrEqual(2024);
      expect(d.services.length).toBeGreaterThan(0);
      for (const link of d.services) {
        expect(link.service.cityId).toBe(d.cityId);
        expect(link.service.carClass).toBeLessThanOrEqual(d.car!.carClass);
      }
      expect(d.services.some((link) => link.service.carClass === d.car!.carClass)).toBe(true);
      expect(d.lat).not.toBeNull();
      expect(d.region?.cityId).toBe(d.cityId);
      expect(pointInPolygon(d.lat!, d.lon!, parsePolygon(d.region!.polygon)!)).toBe(true);
      // The balance is the ledger's.
      expect(d.ledger.length).toBeGreaterThan(0);
      expect(d.ledger[0]!.txnId).toBe(`seed-driver-${d.callSign}`);
      let sum = 0n;
      for (const entry of d.ledger) {
        sum += entry.amount;
        expect(entry.balanceAfter).toBe(sum);
        expect(entry.actorType).toBe("SYSTEM");
      }
      expect(d.balance).toBe(sum);
    }
  });

  it("keeps customers' balances and clients' bonuses consistent", async () => {
    const customers = await prisma.customer.findMany({ include: { ledger: { orderBy: { id: "asc" } } } });
    expect(customers.length).toBeGreaterThanOrEqual(5);
    for (const c of customers) {
      let sum = 0n;
      for (const entry of c.ledger) {
        sum += entry.amount;
        expect(entry.balanceAfter).toBe(sum);
        expect(entry.txnId).toMatch(/^seed-customer-\d+$/);
      }
      expect(c.balance).toBe(sum);
    }
    const clients = await prisma.client.findMany({ include: { bonusLog: { orderBy: { id: "asc" } } } });
    expect(clients.length).toBeGreaterThanOrEqual(40);
    expect(clients.some((c) => c.bonus > 0)).toBe(true);
    for (const c of clients) {
      expect(c.phone).toMatch(/^\+79\d{9}$/);
      let sum = 0;
      for (const entry of c.bonusLog) {
        sum += entry.amount;
        expect(entry.bonusAfter).toBe(sum);
        expect(entry.bonusAfter).toBeGreaterThanOrEqual(0);
      }
      expect(c.bonus).toBe(sum);
    }
    const blacklist = await prisma.blacklistedPhone.findMany();
    expect(blacklist).toHaveLength(1);
    expect(blacklist[0]).toMatchObject({ phone: "+79990000000", reason: "Ложные вызовы" });
    expect(clients.some((c) => c.phone === "+79990000000")).toBe(false);
  });

  it("has the exchange's car classes and options and nothing else of the exchange", async () => {
    const classes = await prisma.carClass.findMany({ orderBy: { id: "asc" } });
    expect(classes.map((c) => c.id)).toEqual(["1", "2", "3"]);
    expect(classes[0]).toMatchObject({ nameRu: "Эконом", nameEn: "Economy" });
    for (const c of classes) {
      expect(Array.isArray(c.cars) && c.cars.length > 0).toBe(true);
    }
    const options = await prisma.carOption.findMany();
    expect(options.length).toBeGreaterThanOrEqual(5);
    expect(new Set(options.map((o) => o.type))).toEqual(new Set(["general", "extra"]));
    expect(await prisma.exchangeParticipant.count()).toBe(0);
  });

  it("has orders in many states, each with a valid history", async () => {
    const orders = await prisma.order.findMany({
      include: { history: { orderBy: { id: "asc" } }, driver: true, region: true, extras: { include: { extra: true } } },
    });
    const main = orders.filter((o) => o.cityId === mainCityId);
    expect(main.length).toBeGreaterThanOrEqual(60);
    const states = new Set(main.map((o) => o.state));
    for (const s of ["ON_MODERATION", "FREE", "SENT_TO_DRIVER", "CONFIRMED", "AWAITING_CLIENT", "IN_PROCESS", "PREORDER_FREE", "DONE_SUCCESSFUL", "DONE_CANCELLED"]) {
      expect(states).toContain(s);
    }
    expect(main.filter((o) => o.state === "ON_MODERATION").length).toBeGreaterThanOrEqual(5);
    const now = Date.now();
    const holders = new Set<number>();
    for (const o of orders) {
      expect(o.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isOrderState(o.state)).toBe(true);
      const state = o.state as OrderState;
      expect(o.statusCode).toBe(ORDER_STATES[state]);
      expect(o.phone).toMatch(/^\+79\d{9}$/);
      expect(o.amount).toBeGreaterThan(0);
      expect(o.distance).toBeGreaterThan(0);
      expect(o.createdAt.getTime()).toBeLessThanOrEqual(now);
      expect(o.createdAt.getTime()).toBeGreaterThan(now - 12 * 3600_000);
      // The pickup is the first way point, inside the order's region.
      const points = o.wayPoints as Array<{ street: string; house: string; lat: number; lon: number }>;
      expect(points.length).toBeGreaterThanOrEqual(2);
      expect(points[0]).toEqual({ street: o.street, house: o.house, lat: o.lat, lon: o.lon });
      expect(points[points.length - 1]).toEqual({ street: o.dstStreet, house: o.dstHouse, lat: o.dstLat, lon: o.dstLon });
      expect(pointInPolygon(o.lat!, o.lon!, parsePolygon(o.region!.polygon)!)).toBe(true);
      // History: a valid path from creation to the current state.
      expect(o.history.length).toBeGreaterThan(0);
      expect(o.history[0]!.fromState).toBeNull();
      let previous: OrderState | null = null;
      let previousAt = 0;
      for (const change of o.history) {
        expect(change.fromState).toBe(previous);
        expect(isOrderState(change.toState)).toBe(true);
        const to = change.toState as OrderState;
        if (previous !== null) expect(canMove(previous, to), `${previous} > ${to}`).toBe(true);
        expect(change.toCode).toBe(ORDER_STATES[to]);
        expect(change).toMatchObject({ actorType: "SYSTEM", actorId: "seed" });
        expect(change.at.getTime()).toBeGreaterThanOrEqual(previousAt);
        expect(change.at.getTime()).toBeGreaterThanOrEqual(o.createdAt.getTime());
        previous = to;
        previousAt = change.at.getTime();
      }
      expect(previous).toBe(o.state);
      // A driver-holding order holds a busy driver of its city, one order per driver.
      if (DRIVER_HOLDING_STATES.includes(state)) {
        expect(o.driver?.state).toBe("BUSY");
        expect(o.driver?.cityId).toBe(o.cityId);
        expect(holders.has(o.driverId!)).toBe(false);
        holders.add(o.driverId!);
      }
      if (state === "PREORDER_FREE") expect(o.preOrderTime!.getTime()).toBeGreaterThan(now);
      for (const e of o.extras) expect(e.extra.serviceId).toBe(o.serviceId);
    }
  });

  it("has a connected road network whose streets carry their houses", async () => {
    const plan = buildDemoCity();
    const main = plan.cities[0]!;
    expect(await prisma.roadSegment.count({ where: { cityId: mainCityId } })).toBe(main.roads.segments.length);
    expect(main.roads.segments.length).toBeGreaterThan(5_000);
    expect(main.roads.segments.some((s) => s.oneway)).toBe(true);
    expect(new Set(main.roads.segments.map((s) => s.roadClass)).size).toBeGreaterThanOrEqual(4);
    // Each street of the canonical list runs along named segments, and its houses stand by them.
    const lenin = await prisma.street.findFirstOrThrow({ where: { cityId: mainCityId, fullName: "ул. Ленина" }, include: { houses: true, roads: true } });
    expect(lenin.roads.length).toBeGreaterThan(0);
    expect(lenin.roads.every((r) => r.name === "ул. Ленина")).toBe(true);
    const roads = await cityRoads(prisma, mainCityId);
    const graph = roads.router!.graph;
    let own = 0;
    for (const house of lenin.houses) {
      const snap = graph.snap(house.lat, house.lon, 1_000)!;
      expect(snap.distance).toBeLessThan(80);
      // A corner house may stand nearer the crossing street.
      if (graph.segmentStreet[snap.segment] === lenin.id) own++;
    }
    expect(own).toBeGreaterThanOrEqual(lenin.houses.length * 0.7);
  });

  it("draws each street along its road segments, chained end to end", async () => {
    const graph = (await cityRoads(prisma, mainCityId)).router!.graph;
    const lines = streetPolylines(graph);
    const lenin = await prisma.street.findFirstOrThrow({ where: { cityId: mainCityId, fullName: "ул. Ленина" }, include: { roads: true } });
    const drawn = lines.get(lenin.id)!;
    // A run of consecutive blocks: one line through every junction of it.
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).toHaveLength(lenin.roads.length + 1);
    const metres = drawn[0]!.slice(1).reduce((sum, p, i) => sum + haversineMetres({ lat: p[0], lon: p[1] }, { lat: drawn[0]![i]![0], lon: drawn[0]![i]![1] }), 0);
    expect(metres).toBeCloseTo(lenin.roads.reduce((sum, r) => sum + r.length, 0), -1);
  });

  it("routes between any two houses of the city along the roads", async () => {
    const houses = await prisma.house.findMany({ where: { street: { cityId: mainCityId, kind: "STREET" } }, orderBy: { id: "asc" }, take: 400 });
    const rng = new Rng(5);
    for (let i = 0; i < 30; i++) {
      const a = rng.pick(houses);
      const b = rng.pick(houses);
      const route = await routeThrough(prisma, mainCityId, [a, b]);
      expect(route, `${a.id} -> ${b.id}`).toBeDefined();
      const straight = haversineMetres(a, b);
      // Along the roads: never shorter than the straight line (less the walk to the road), rarely more than twice it.
      expect(route!.metres).toBeGreaterThanOrEqual(straight - 200);
      expect(route!.metres).toBeLessThan(straight * 2.5 + 2_000);
    }
  });

  it("times a car's arrival along the roads, and by the straight line off them", async () => {
    const houses = await prisma.house.findMany({ where: { street: { cityId: mainCityId, fullName: { in: ["ул. Ленина", "пр-т Мира"] } } }, orderBy: { id: "asc" }, take: 40 });
    const a = houses[0]!;
    const b = houses.at(-1)!;
    const at = new Date("2026-06-01T00:00:00Z");
    const route = await routeThrough(prisma, mainCityId, [a, b], at);
    // One backward search (arrivalSeconds) and one A* (routeThrough) agree.
    expect(await driveMinutes(prisma, mainCityId, a, b, { unknown: 5, at })).toBe(Math.max(1, Math.round(route!.seconds / 60)));
    const far = { lat: 55.3, lon: 37.6 };
    const straight = (haversineMetres(far, b) * 1.3) / 1000 / 30;
    expect(await driveMinutes(prisma, mainCityId, far, b, { unknown: 5, at })).toBe(Math.round(straight * 60));
    expect(await driveMinutes(prisma, mainCityId, { lat: null, lon: null }, b, { unknown: 5, at })).toBe(5);
  });

  it("gives the arrival times of many cars at many pickups (for dispatch), as single routes give them", async () => {
    const houses = await prisma.house.findMany({ where: { street: { cityId: mainCityId, kind: "STREET" } }, orderBy: { id: "asc" }, take: 300 });
    const rng = new Rng(9);
    const pickups = [rng.pick(houses), rng.pick(houses), rng.pick(houses)];
    const cars = [...Array.from({ length: 20 }, () => rng.pick(houses)), { lat: 55.3, lon: 37.6 }];
    const at = new Date("2026-06-01T15:00:00Z");
    const matrix = await arrivalMatrix(prisma, mainCityId, pickups, cars, { at });
    for (const [p, pickup] of pickups.entries()) {
      for (const [c, car] of cars.entries()) {
        const route = await routeThrough(prisma, mainCityId, [car, pickup], at);
        if (!route) expect(matrix[p]![c]).toBeUndefined();
        else expect(Math.abs(matrix[p]![c]! - route.seconds)).toBeLessThanOrEqual(1);
      }
    }
    // With a limit, the farther cars are left out.
    const limited = await arrivalSeconds(prisma, mainCityId, pickups[0]!, cars, { at, maxSeconds: 600 });
    limited.forEach((t, c) => {
      if (matrix[0]![c] !== undefined && matrix[0]![c] <= 599) expect(t).toBe(matrix[0]![c]);
      if (matrix[0]![c] === undefined || matrix[0]![c] > 601) expect(t).toBeUndefined();
    });
  });

  it("reloads the road graph when the database says the roads changed", async () => {
    const before = await cityRoads(prisma, mainCityId);
    expect(await cityRoads(prisma, mainCityId)).toBe(before);
    // Written straight to the table, as another instance or a script would: the trigger tells us.
    await prisma.$executeRawUnsafe(`INSERT INTO road_speed (city_id, road_class, hour, kmh) VALUES ($1, 'RESIDENTIAL', 3, 7)`, mainCityId);
    // The old graph answers while the new one loads in the background.
    expect(await cityRoads(prisma, mainCityId)).toBe(before);
    const after = await eventually(() => cityRoads(prisma, mainCityId), (graph) => graph !== before, 30_000);
    expect(after).not.toBe(before);
    expect(after.router!.graph.speeds[5 * 24 + 3]).toBeCloseTo(7 / 3.6);
    await prisma.$executeRawUnsafe(`DELETE FROM road_speed WHERE city_id = $1`, mainCityId);
  });

  it("changes nothing when seeded again", async () => {
    const before = await tableCounts(prisma);
    expect(await seedDemoCity(prisma)).toEqual({ created: false });
    expect(await tableCounts(prisma)).toEqual(before);
  });

  it("is the same city in another fresh database", async () => {
    const other = await openFresh();
    try {
      expect(await seedDemoCity(other.prisma)).toEqual({ created: true });
      expect(await tableCounts(other.prisma)).toEqual(await tableCounts(prisma));
      expect(await cityDigest(other.prisma)).toBe(await cityDigest(prisma));
    } finally {
      await other.close();
    }
  }, 180_000);
});
