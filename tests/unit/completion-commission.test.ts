// The service's commission on a completed order (server/balances/commission.ts)
// on the embedded demo database: debited in the move's transaction whoever
// completes, the driver's app, a dispatcher in the console or an integrator
// through the dispatch API; once, whatever repeats; none for an order that
// ends any other way. (Before, only the driver's own completion debited it:
// an order completed in the console left the balance untouched.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { config } from "@/server/config";
import { createOrder } from "@/server/orders/create-order";
import { moveOrder } from "@/server/orders/move-order";
import { completeOrder } from "@/server/orders/commands/complete-order";
import type { Actor } from "@/server/actor";
import type { OrderState } from "@/shared/orders/states";

let close: () => Promise<void>;
const dispatcher: Actor = { type: "USER", id: "1" };
const integrator: Actor = { type: "API_KEY", id: "1" };

beforeAll(async () => {
  ({ close } = await openLocalDb());
}, 120_000);

afterAll(async () => {
  await close();
});

let serial = 0;
/** A free order with a fixed amount and a driver of its service who has it in the car (IN_PROCESS). */
async function tripInProcess(amountKopecks: number) {
  const created = await createOrder(db(), { source: "CONSOLE", phone: "89161119901", pickup: { street: "ул. Ленина", house: "4" } }, { type: "SYSTEM", id: "test" });
  const order = await db().order.update({ where: { id: created.id }, data: { amount: amountKopecks }, select: { id: true, uuid: true, serviceId: true } });
  const { cityId } = await db().service.findUniqueOrThrow({ where: { id: order.serviceId }, select: { cityId: true } });
  serial += 1;
  const driver = await db().driver.create({
    data: { cityId, callSign: `C${Date.now() % 100_000}${serial}`, firstName: "Тест", phone: "+79160000001", state: "FREE", active: true, balance: 100_000n, lat: 55.75, lon: 37.61, services: { create: { serviceId: order.serviceId } } },
    select: { id: true, callSign: true },
  });
  const path: OrderState[] = ["SENT_TO_DRIVER", "CONFIRMED", "AWAITING_CLIENT", "IN_PROCESS"];
  for (const to of path) await moveOrder(db(), { orderId: order.id, to, actor: dispatcher, ...(to === "SENT_TO_DRIVER" ? { driverId: driver.id } : {}) });
  return { order, driver };
}

async function commissionEntries(orderId: number) {
  return db().driverLedgerEntry.findMany({ where: { orderId, kind: "COMMISSION" }, select: { amount: true, driverId: true, txnId: true, actorType: true } });
}

async function balanceOf(driverId: number): Promise<bigint> {
  return (await db().driver.findUniqueOrThrow({ where: { id: driverId }, select: { balance: true } })).balance;
}

describe("the commission on a completed order", () => {
  const percent = () => config().DRIVER_COMMISSION_PERCENT;

  it("a dispatcher's completion in the console debits it from the driver, recorded as the dispatcher's", async () => {
    const { order, driver } = await tripInProcess(45_000);
    const expected = Math.round((45_000 * percent()) / 100);
    expect(expected).toBeGreaterThan(0);
    await moveOrder(db(), { orderId: order.id, to: "DONE_SUCCESSFUL", actor: dispatcher, reason: "completed by the dispatcher" });
    expect(await commissionEntries(order.id)).toEqual([{ amount: BigInt(-expected), driverId: driver.id, txnId: `commission:order:${order.id}`, actorType: "USER" }]);
    expect(await balanceOf(driver.id)).toBe(100_000n - BigInt(expected));
  });

  it("an integrator's completion through the dispatch API debits it too", async () => {
    const { order, driver } = await tripInProcess(30_001);
    await moveOrder(db(), { orderId: order.id, to: "DONE_SUCCESSFUL", actor: integrator });
    const expected = Math.round((30_001 * percent()) / 100);
    expect((await commissionEntries(order.id)).map((e) => e.amount)).toEqual([BigInt(-expected)]);
    expect(await balanceOf(driver.id)).toBe(100_000n - BigInt(expected));
  });

  it("the driver's own completion debits it once, and a repeated completion nothing more", async () => {
    const { order, driver } = await tripInProcess(20_000);
    const me = await db().driver.findUniqueOrThrow({ where: { id: driver.id }, select: { id: true, callSign: true, cityId: true } });
    const first = await completeOrder(db(), me, { uuid: order.uuid });
    const again = await completeOrder(db(), me, { uuid: order.uuid });
    const expected = Math.round((20_000 * percent()) / 100);
    expect(first.commission).toBe(expected);
    expect(again.commission).toBe(expected);
    expect((await commissionEntries(order.id)).length).toBe(1);
    expect(await balanceOf(driver.id)).toBe(100_000n - BigInt(expected));
  });

  it("an order that ends any other way, or has no fare, costs the driver nothing", async () => {
    const cancelled = await tripInProcess(25_000);
    await moveOrder(db(), { orderId: cancelled.order.id, to: "DONE_CANCELLED", actor: dispatcher, reason: "the client left" });
    expect(await commissionEntries(cancelled.order.id)).toEqual([]);
    expect(await balanceOf(cancelled.driver.id)).toBe(100_000n);
    const free = await tripInProcess(0);
    await moveOrder(db(), { orderId: free.order.id, to: "DONE_SUCCESSFUL", actor: dispatcher });
    expect(await commissionEntries(free.order.id)).toEqual([]);
    expect(await balanceOf(free.driver.id)).toBe(100_000n);
  });
});
