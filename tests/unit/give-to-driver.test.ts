// A call sign typed in the order's card (server/console/give-to-driver.ts) on
// the embedded demo database: the driver who fits gets the order (an offer
// of a free order, an approval of one on moderation), and each driver who
// does not is refused with the reason a dispatcher can act on, in both
// languages; a refusal changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { createOrder } from "@/server/orders/create-order";
import { giveToDriverByCallSign } from "@/server/console/give-to-driver";
import { domainErrorMessage } from "@/server/trpc/init";
import { isDomainError } from "@/server/errors";

let close: () => Promise<void>;
const actor = { type: "USER" as const, id: "1" };

beforeAll(async () => {
  ({ close } = await openLocalDb());
}, 120_000);

afterAll(async () => {
  await close();
});

async function freeOrder(moderationRequired = false) {
  const order = await createOrder(db(), { source: "CONSOLE", phone: "89161119900", pickup: { street: "ул. Ленина", house: "4" }, moderationRequired }, { type: "SYSTEM", id: "test" });
  return db().order.findUniqueOrThrow({ where: { id: order.id }, select: { id: true, version: true, serviceId: true, regionId: true, state: true } });
}

let serial = 0;
/** A driver of the order's service, free, with the given changes. */
async function driver(serviceId: number, changes: { state?: "FREE" | "BUSY" | "OFFLINE"; active?: boolean; balance?: bigint; service?: boolean } = {}) {
  const city = await db().service.findUniqueOrThrow({ where: { id: serviceId }, select: { cityId: true } });
  serial += 1;
  return db().driver.create({
    data: {
      cityId: city.cityId,
      callSign: `T${Date.now() % 100_000}${serial}`,
      firstName: "Тест",
      phone: "+79160000000",
      state: changes.state ?? "FREE",
      active: changes.active ?? true,
      balance: changes.balance ?? 100_000n,
      lat: 55.75,
      lon: 37.61,
      ...(changes.service === false ? {} : { services: { create: { serviceId } } }),
    },
    select: { id: true, callSign: true },
  });
}

async function refusal(call: Promise<unknown>): Promise<{ key: unknown; ru: string; en: string }> {
  try {
    await call;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    expect(error.code).toBe("NOT_ACCEPTABLE");
    return { key: error.details.reasonKey, ru: domainErrorMessage(error, "ru"), en: domainErrorMessage(error, "en") };
  }
  throw new Error("the call was not refused");
}

describe("a call sign and Enter", () => {
  it("offers a free order to the driver named, whatever the case of the call sign", async () => {
    const order = await freeOrder();
    const d = await driver(order.serviceId);
    const given = await giveToDriverByCallSign(db(), { orderId: order.id, expectedVersion: order.version, callSign: ` ${d.callSign.toLowerCase()} `, actor });
    expect(given).toMatchObject({ orderId: order.id, driverId: d.id, callSign: d.callSign, state: "SENT_TO_DRIVER" });
    const after = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { state: true, driverId: true } });
    expect(after).toEqual({ state: "SENT_TO_DRIVER", driverId: d.id });
    expect(await db().dispatchOffer.count({ where: { orderId: order.id, driverId: d.id, state: "LIVE" } })).toBe(1);
  });

  it("approves an order on moderation straight to the driver", async () => {
    const order = await freeOrder(true);
    expect(order.state).toBe("ON_MODERATION");
    const d = await driver(order.serviceId);
    const given = await giveToDriverByCallSign(db(), { orderId: order.id, expectedVersion: order.version, callSign: d.callSign, actor });
    expect(given.state).toBe("SENT_TO_DRIVER");
  });

  it("says why a driver does not fit, and changes nothing", async () => {
    const order = await freeOrder();
    const give = (callSign: string) => giveToDriverByCallSign(db(), { orderId: order.id, expectedVersion: order.version, callSign, actor });
    const cases: Array<[string, () => Promise<{ callSign: string }>, RegExp, RegExp]> = [
      ["driverUnknown", async () => ({ callSign: "nobody-42" }), /нет/, /no driver/],
      ["driverBlocked", () => driver(order.serviceId, { active: false }), /заблокирован/, /blocked/],
      ["driverOffShift", () => driver(order.serviceId, { state: "OFFLINE" }), /не на смене/, /not on shift/],
      ["driverOtherService", () => driver(order.serviceId, { service: false }), /не работает в службе/, /does not work for/],
      ["driverBusy", () => driver(order.serviceId, { state: "BUSY" }), /занят/, /busy/],
    ];
    for (const [key, make, ru, en] of cases) {
      const d = await make();
      const r = await refusal(give(d.callSign));
      expect(r.key, key).toBe(key);
      expect(r.ru).toMatch(ru);
      expect(r.ru).toContain(d.callSign);
      expect(r.en).toMatch(en);
    }
    const after = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { state: true, version: true, driverId: true } });
    expect(after).toEqual({ state: "FREE", version: order.version, driverId: null });
  });

  it("refuses a driver whose balance is below the minimum of the order's distribution rule, with both amounts", async () => {
    const order = await freeOrder();
    const rule = await db().dispatchSetting.create({
      data: { serviceId: order.serviceId, regionId: order.regionId, mode: "MANUAL", strategy: "GREEDY", acceptSeconds: 30, attempts: 3, radiusKm: 5, freeLongMinutes: 5, batchSeconds: 5, fairnessWeight: 0, chainMinutes: 0, minBalance: 50_000n, advanceLeadMinutes: 60, confirmLeadMinutes: 20 },
      select: { id: true },
    });
    try {
      // The settings are cached for a second (server/dispatch/settings.ts).
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const d = await driver(order.serviceId, { balance: 12_345n });
      const r = await refusal(giveToDriverByCallSign(db(), { orderId: order.id, expectedVersion: order.version, callSign: d.callSign, actor }));
      expect(r.key).toBe("driverLowBalance");
      expect(r.ru).toMatch(/123,45.*500,00/);
      expect(r.en).toMatch(/123\.45.*500\.00/);
    } finally {
      await db().dispatchSetting.delete({ where: { id: rule.id } });
    }
  });

  it("refuses an order already with a driver, and a stale version", async () => {
    const order = await freeOrder();
    const d = await driver(order.serviceId);
    await expect(giveToDriverByCallSign(db(), { orderId: order.id, expectedVersion: order.version - 1, callSign: d.callSign, actor })).rejects.toMatchObject({ code: "CONFLICT" });
    await giveToDriverByCallSign(db(), { orderId: order.id, expectedVersion: order.version, callSign: d.callSign, actor });
    const now = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { version: true } });
    const other = await driver(order.serviceId);
    const r = await refusal(giveToDriverByCallSign(db(), { orderId: order.id, expectedVersion: now.version, callSign: other.callSign, actor }));
    expect(r.key).toBe("orderNotAssignable");
  });
});
