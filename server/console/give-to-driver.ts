// The dispatcher's most frequent gesture: a call sign typed in the order's
// card and Enter. The driver is checked against the dispatch rules first, so
// that a refusal says why in the operator's words (not on shift, another
// service, busy, on a break, balance below the service's minimum, blocked); then the
// order goes the way it would by hand: an order on moderation is approved to
// the driver, a free order is offered to them (the offer's own checks under
// its locks stay the final word), an advance order gets an advance offer.
import type { Db } from "../db";
import type { Actor } from "../actor";
import { OrderError } from "../errors";
import { loadSettings } from "../dispatch/settings";
import { rulesOf } from "../dispatch/candidates";
import { sendToDriver } from "../dispatch/dispatcher";
import { approveModeratedOrder } from "../orders/approve-moderated-order";
import { isDone, isOrderState } from "../orders/states";

/** Why a driver may not take the order; null: they may. Keys of serverMessages' reasons. */
export type DriverUnfit = "driverUnknown" | "driverBlocked" | "driverOffShift" | "driverOtherService" | "driverBusy" | "driverLowBalance" | "driverRefused" | "driverOnBreak";

const OFFER_STATES = ["FREE", "FREE_LONG", "ORDER_ON_RADIO", "PREORDER_FREE"];

export interface GiveResult {
  orderId: number;
  driverId: number;
  callSign: string;
  state: string;
}

function refuse(reasonKey: DriverUnfit | "orderNotAssignable", details: Record<string, string>): never {
  throw new OrderError("NOT_ACCEPTABLE", { reason: reasonKey, reasonKey, ...details });
}

export async function giveToDriverByCallSign(db: Db, input: { orderId: number; callSign: string; expectedVersion: number; actor: Actor }): Promise<GiveResult> {
  const order = await db.order.findUnique({ where: { id: input.orderId }, select: { id: true, state: true, serviceId: true, regionId: true, version: true } });
  if (!order) throw new OrderError("NOT_FOUND", { what: "Order", id: input.orderId });
  if (order.version !== input.expectedVersion) throw new OrderError("CONFLICT", { reason: "stale", reasonKey: "stale" });
  if (!isOrderState(order.state) || isDone(order.state)) throw new OrderError("CONFLICT", { reason: "finished", reasonKey: "finished" });
  if (order.state !== "ON_MODERATION" && !OFFER_STATES.includes(order.state)) refuse("orderNotAssignable", {});

  const callSign = input.callSign.trim();
  const driver = await db.driver.findFirst({
    where: { callSign: { equals: callSign, mode: "insensitive" } },
    select: { id: true, callSign: true, active: true, state: true, balance: true, services: { select: { serviceId: true } } },
  });
  if (!driver) refuse("driverUnknown", { callSign });
  const who = { callSign: driver.callSign };
  // The order of the checks is the order a dispatcher would fix them in.
  if (!driver.active) refuse("driverBlocked", who);
  if (driver.state === "OFFLINE") refuse("driverOffShift", who);
  if (!driver.services.some((s) => s.serviceId === order.serviceId)) refuse("driverOtherService", who);
  const live = await db.dispatchOffer.findFirst({ where: { driverId: driver.id, state: "LIVE" }, select: { id: true } });
  if (driver.state === "BUSY" || live) refuse("driverBusy", who);
  if (await db.driverBreak.findUnique({ where: { driverId: driver.id }, select: { driverId: true } })) refuse("driverOnBreak", who);
  const settings = (await loadSettings(db)).forOrder(order.serviceId, order.regionId);
  if (settings && driver.balance < settings.minBalance) {
    // Kopecks as text: the message formats them in the operator's language.
    refuse("driverLowBalance", { ...who, balance: String(driver.balance), minimum: String(rulesOf(settings).minBalance) });
  }
  const refused = await db.dispatchOffer.findFirst({ where: { orderId: order.id, driverId: driver.id, state: "REFUSED" }, select: { id: true } });
  if (refused) refuse("driverRefused", who);

  if (order.state === "ON_MODERATION") {
    const moved = await approveModeratedOrder(db, { orderId: order.id, expectedVersion: input.expectedVersion, driverId: driver.id, actor: input.actor });
    return { orderId: order.id, driverId: driver.id, callSign: driver.callSign, state: moved.to };
  }
  await sendToDriver(db, order.id, driver.id, input.actor);
  const after = await db.order.findUniqueOrThrow({ where: { id: order.id }, select: { state: true } });
  return { orderId: order.id, driverId: driver.id, callSign: driver.callSign, state: after.state };
}
