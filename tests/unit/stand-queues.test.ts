// Parking queues from the console and the driver's break (issue 34), on the
// embedded demo database: a dispatcher puts a driver on a stand by call sign,
// moves one in the queue and to another stand, takes one off, through the
// service the driver app's join shares (server/dispatch/queue.ts), refused
// with the reason in both languages; a driver on a break is offered nothing
// and counted apart; "soon free" is the chains' estimate of a trip's end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { sqlQuery } from "@/server/db/sql";
import { createOrder } from "@/server/orders/create-order";
import { joinQueue, listQueues, putInQueue, removeFromQueue } from "@/server/dispatch/queue";
import { reportPosition } from "@/server/driver-app/shift";
import { regionAt } from "@/server/geo/regions";
import { endBreak, startBreak } from "@/server/driver-app/break";
import { readFreeDrivers } from "@/server/dispatch/data";
import { makeOfferInTx } from "@/server/dispatch/offer";
import { giveToDriverByCallSign } from "@/server/console/give-to-driver";
import { fleetCounters } from "@/server/console/fleet";
import { domainErrorMessage } from "@/server/trpc/init";
import { isDomainError } from "@/server/errors";

let close: () => Promise<void>;
let cityId: number;
let serviceId: number;
let stands: number[];

beforeAll(async () => {
  ({ close } = await openLocalDb());
  const service = await db().service.findFirstOrThrow({ select: { id: true, cityId: true }, orderBy: { id: "asc" } });
  serviceId = service.id;
  cityId = service.cityId;
  stands = (await db().region.findMany({ where: { cityId }, select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id);
  expect(stands.length).toBeGreaterThanOrEqual(2);
}, 120_000);

afterAll(async () => {
  await close();
});

let serial = 0;
async function driver(changes: { state?: "FREE" | "BUSY" | "OFFLINE"; active?: boolean; cityId?: number; regionId?: number } = {}) {
  serial += 1;
  return db().driver.create({
    data: {
      cityId: changes.cityId ?? cityId,
      callSign: `Q${Date.now() % 100_000}${serial}`,
      firstName: "Тест",
      phone: "+79160000000",
      state: changes.state ?? "FREE",
      active: changes.active ?? true,
      balance: 100_000n,
      lat: 55.75,
      lon: 37.61,
      positionAt: new Date(),
      appSeenAt: new Date(),
      regionId: changes.regionId ?? null,
      services: { create: { serviceId } },
    },
    select: { id: true, callSign: true },
  });
}

async function queueOf(regionId: number): Promise<string[]> {
  return ((await listQueues(db(), cityId)).find((q) => q.regionId === regionId)?.drivers ?? []).map((d) => d.callSign);
}

async function refusal(call: Promise<unknown>): Promise<{ key: unknown; ru: string; en: string }> {
  try {
    await call;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { key: error.details.reasonKey, ru: domainErrorMessage(error, "ru"), en: domainErrorMessage(error, "en") };
  }
  throw new Error("the call was not refused");
}

describe("parking queues from the console", () => {
  it("puts drivers on a stand by call sign (any case) in order, moves them in the queue and to another stand, takes them off", async () => {
    const [a, b, c] = [await driver(), await driver(), await driver()];
    const [stand, other] = [stands[0]!, stands[1]!];
    for (const d of [a, b, c]) await removeFromQueue(db(), d.id);
    const put = await putInQueue(db(), { callSign: ` ${a.callSign.toLowerCase()} `, regionId: stand });
    expect(put).toMatchObject({ driverId: a.id, callSign: a.callSign, regionId: stand });
    await putInQueue(db(), { callSign: b.callSign, regionId: stand });
    await putInQueue(db(), { callSign: c.callSign, regionId: stand });
    const mine = async (r: number) => (await queueOf(r)).filter((s) => [a, b, c].some((d) => d.callSign === s));
    expect(await mine(stand)).toEqual([a.callSign, b.callSign, c.callSign]);

    // c to the head, then a between b and... : each move is a place among the others.
    const head = (await queueOf(stand)).indexOf(a.callSign) + 1;
    expect((await putInQueue(db(), { driverId: c.id, regionId: stand, position: head })).position).toBe(head);
    expect(await mine(stand)).toEqual([c.callSign, a.callSign, b.callSign]);
    await putInQueue(db(), { driverId: c.id, regionId: stand, position: head + 1 });
    expect(await mine(stand)).toEqual([a.callSign, c.callSign, b.callSign]);
    await putInQueue(db(), { driverId: a.id, regionId: stand });
    expect(await mine(stand)).toEqual([c.callSign, b.callSign, a.callSign]);

    const moved = await putInQueue(db(), { driverId: b.id, regionId: other });
    expect(moved.regionId).toBe(other);
    expect(await mine(stand)).toEqual([c.callSign, a.callSign]);
    expect((await queueOf(other)).at(-1)).toBe(b.callSign);

    expect(await removeFromQueue(db(), c.id)).toEqual({ driverId: c.id, removed: true });
    expect(await removeFromQueue(db(), c.id)).toEqual({ driverId: c.id, removed: false });
    expect(await mine(stand)).toEqual([a.callSign]);
  });

  it("refuses with the reason in both languages, and changes nothing", async () => {
    const stand = stands[0]!;
    const otherCity = await db().city.create({ data: { name: "Другой", nameEn: "Other", lat: 50, lon: 30 }, select: { id: true } });
    const cases: Array<[string, () => Promise<{ callSign: string }>, RegExp, RegExp]> = [
      ["driverUnknown", async () => ({ callSign: `nobody${serial++}` }), /Водителя с позывным nobody\d+ нет/, /no driver with the call sign nobody/],
      ["driverBlocked", () => driver({ active: false }), /заблокирован/, /is blocked/],
      ["driverOffShift", () => driver({ state: "OFFLINE" }), /не на смене/, /not on shift/],
      ["driverBusy", () => driver({ state: "BUSY" }), /занят/, /is busy/],
      ["driverOnBreak", async () => { const d = await driver(); await startBreak(db(), d.id); return d; }, /на перерыве/, /on a break/],
      ["driverOtherCity", () => driver({ cityId: otherCity.id }), /в другом городе/, /another city/],
    ];
    for (const [key, make, ru, en] of cases) {
      const d = await make();
      const before = await queueOf(stand);
      const r = await refusal(putInQueue(db(), { callSign: d.callSign, regionId: stand }));
      expect(r.key, key).toBe(key);
      expect(r.ru, key).toMatch(ru);
      expect(r.en, key).toMatch(en);
      expect(await queueOf(stand), key).toEqual(before);
    }
  });

  it("the driver app's join goes through the same rules (a driver on a break is refused)", async () => {
    const d = await driver({ regionId: stands[1]! });
    expect((await joinQueue(db(), d.id)).region_id).toBe(stands[1]);
    await startBreak(db(), d.id);
    expect((await queueOf(stands[1]!)).includes(d.callSign), "a break leaves the queue").toBe(false);
    const r = await refusal(joinQueue(db(), d.id));
    expect(r.key).toBe("driverOnBreak");
    expect(r.ru).toMatch(/на перерыве/);
    await endBreak(db(), d.id);
    expect((await joinQueue(db(), d.id)).region_id).toBe(stands[1]);
  });

  it("drivers put on one stand at once get distinct places, one after the other", async () => {
    const stand = stands[2] ?? stands[0]!;
    const drivers = await Promise.all(Array.from({ length: 8 }, () => driver()));
    await Promise.all(drivers.map((d) => putInQueue(db(), { callSign: d.callSign, regionId: stand })));
    // And all of them moved to the head at once: each a place, none lost.
    await Promise.all(drivers.map((d) => putInQueue(db(), { driverId: d.id, regionId: stand, position: 1 })));
    const places = (await listQueues(db(), cityId)).find((q) => q.regionId === stand)!.drivers;
    const mine = places.filter((p) => drivers.some((d) => d.id === p.driverId));
    expect(mine).toHaveLength(8);
    expect(new Set(places.map((p) => p.position)).size).toBe(places.length);
  });

  it("a position report takes a driver off the stand on driving out of its region only", async () => {
    const d = await driver();
    const me = { id: d.id, callSign: d.callSign, cityId };
    const [stand, other, third] = [stands[0]!, stands[1]!, stands[2] ?? stands[1]!];
    const report = async (regionId: number | null, at: number) => {
      const point = regionId === null ? OUTSIDE : await pointIn(regionId);
      await reportPosition(db(), me, { ...point, speed: 0, bearing: 0, at: new Date(Date.now() + at) });
    };
    await report(other, 1);
    await putInQueue(db(), { callSign: d.callSign, regionId: stand });
    // Put there by a dispatcher while the car stands elsewhere: kept while it drives between other regions.
    await report(third, 2);
    expect(await queueOf(stand)).toContain(d.callSign);
    // Arrived at the stand and stays: kept.
    await report(stand, 3);
    await report(stand, 4);
    expect(await queueOf(stand)).toContain(d.callSign);
    // Drove out of it: off the stand.
    await report(other, 5);
    expect(await queueOf(stand)).not.toContain(d.callSign);
    // Out of every region from the stand: off it too.
    await report(stand, 6);
    await putInQueue(db(), { callSign: d.callSign, regionId: stand });
    await report(null, 7);
    expect(await queueOf(stand)).not.toContain(d.callSign);
    // Busy: off the stand wherever the car is.
    await report(stand, 8);
    await putInQueue(db(), { callSign: d.callSign, regionId: stand });
    await db().driver.update({ where: { id: d.id }, data: { state: "BUSY" }, select: { id: true } });
    await report(stand, 9);
    expect(await queueOf(stand)).not.toContain(d.callSign);
  });
});

/** A point far from every region of the demo city. */
const OUTSIDE = { lat: 10, lon: 10 };

/** A point inside the region (its bounding box sampled until the polygon holds a point). */
async function pointIn(regionId: number): Promise<{ lat: number; lon: number }> {
  const r = await db().region.findUniqueOrThrow({ where: { id: regionId }, select: { minLat: true, maxLat: true, minLon: true, maxLon: true } });
  for (let i = 1; i < 20; i++) {
    for (let j = 1; j < 20; j++) {
      const lat = r.minLat + ((r.maxLat - r.minLat) * i) / 20;
      const lon = r.minLon + ((r.maxLon - r.minLon) * j) / 20;
      if ((await regionAt(db(), lat, lon, cityId))?.id === regionId) return { lat, lon };
    }
  }
  throw new Error(`no point found inside region ${regionId}`);
}

describe("a driver's break", () => {
  it("is on shift but offered nothing: not a candidate, no offer, not given by call sign; counted apart", async () => {
    const before = await fleetCounters(db(), cityId);
    const d = await driver();
    expect((await readFreeDrivers(db())).some((r) => r.id === d.id)).toBe(true);
    expect(await startBreak(db(), d.id)).toMatchObject({ on_break: true });
    expect((await readFreeDrivers(db())).some((r) => r.id === d.id)).toBe(false);

    const after = await fleetCounters(db(), cityId);
    expect(after.onBreak - before.onBreak).toBe(1);
    expect(after.free - before.free).toBe(0);
    expect(after.onShift - before.onShift).toBe(1);

    const order = await createOrder(db(), { source: "CONSOLE", phone: "89161119911", pickup: { street: "ул. Ленина", house: "4" }, moderationRequired: false }, { type: "SYSTEM", id: "test" });
    const row = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { version: true, serviceId: true } });
    const offer = await refusal(db().$transaction((tx) => makeOfferInTx(tx, { orderId: order.id, driverId: d.id, kind: "LIVE", source: "DISPATCHER", acceptSeconds: 30, arrivalSeconds: 60, actor: { type: "USER", id: "1" }, ignorePause: true })));
    expect(offer.key).toBe("driverOnBreak");
    const give = await refusal(giveToDriverByCallSign(db(), { orderId: order.id, expectedVersion: row.version, callSign: d.callSign, actor: { type: "USER", id: "1" } }));
    expect(give.key).toBe("driverOnBreak");
    expect(give.ru).toMatch(/на перерыве/);

    await endBreak(db(), d.id);
    expect((await readFreeDrivers(db())).some((r) => r.id === d.id)).toBe(true);
    expect((await fleetCounters(db(), cityId)).onBreak).toBe(before.onBreak);
  });

  it("is taken only by a free driver", async () => {
    const busy = await driver({ state: "BUSY" });
    expect((await refusal(startBreak(db(), busy.id))).ru).toMatch(/перерыв берёт только свободный водитель/);
    const off = await driver({ state: "OFFLINE" });
    expect((await refusal(startBreak(db(), off.id))).ru).toMatch(/не на смене/);
  });
});

describe("soon free", () => {
  it("counts a busy driver whose trip ends within the chains' minutes, by the ride's start plus its route time", async () => {
    const before = await fleetCounters(db(), cityId);
    const d = await driver({ state: "BUSY" });
    const order = await createOrder(db(), { source: "CONSOLE", phone: "89161119922", pickup: { street: "ул. Ленина", house: "4" }, moderationRequired: false }, { type: "SYSTEM", id: "test" });
    const ends = async (secondsLeft: number) => {
      // A trip in progress, set directly: what the counter reads, not how it got there.
      await sqlQuery(db(), `UPDATE orders SET state = 'IN_PROCESS', driver_id = $2, start_time = now() - interval '10 minutes', route_time = $3 WHERE id = $1`, [order.id, d.id, 600 + secondsLeft]);
      return fleetCounters(db(), cityId);
    };
    const soon = await ends(60);
    expect(soon.soonFree - before.soonFree).toBe(1);
    expect(soon.busy - before.busy).toBe(1);
    const later = await ends(soon.soonMinutes * 60 + 600);
    expect(later.soonFree - before.soonFree).toBe(0);
  });
});
