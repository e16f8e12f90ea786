// The driver app's order calls: the commands of server/orders/commands with
// the reply the app reads (the order as order-view.ts shows it).
import type { Db } from "../db";
import { kopecksToRoubles } from "../balances/money";
import { acceptOffer } from "../dispatch/answer-offer";
import { takeBoughtOrder } from "../exchange/participant/take-bought-order";
import { completeOrder } from "../orders/commands/complete-order";
import { refuseOrder } from "../orders/commands/refuse-order";
import { setDriverStatus, type DriverStatusInput } from "../orders/commands/set-driver-status";
import { takeFreeOrder, type TakeFreeOrderInput } from "../orders/commands/take-free-order";
import type { DriverIdentity } from "./keys";
import { readDriverOrder, type DriverOrderView } from "./order-view";
import { publishDriver } from "./shift";
import { breakdownView } from "./meter-view";

async function reply(db: Db, me: DriverIdentity, orderId: number): Promise<DriverOrderView> {
  await publishDriver(db, me.id);
  return readDriverOrder(db, orderId, me.id);
}

/** Accept: the live offer made to the driver, else an order bought on the exchange, else a free order of ours. */
export async function acceptOrderReply(db: Db, me: DriverIdentity, input: TakeFreeOrderInput) {
  const accepted = (await acceptOffer(db, me, { uuid: input.uuid }, input.arrivalMinutes)) ?? (await takeBoughtOrder(db, me, input)) ?? (await takeFreeOrder(db, me, input));
  return reply(db, me, accepted.orderId);
}

export async function refuseOrderReply(db: Db, me: DriverIdentity, input: { uuid: string; reason?: string }) {
  return reply(db, me, (await refuseOrder(db, me, input)).orderId);
}

export async function setStatusReply(db: Db, me: DriverIdentity, input: DriverStatusInput) {
  return reply(db, me, (await setDriverStatus(db, me, input)).orderId);
}

export async function completeOrderReply(db: Db, me: DriverIdentity, input: { uuid: string; at?: Date }) {
  const done = await completeOrder(db, me, input);
  return {
    order: await reply(db, me, done.orderId),
    fare: done.amount === null ? null : kopecksToRoubles(done.amount),
    breakdown: done.meter ? breakdownView(done.meter) : null,
    commission: kopecksToRoubles(done.commission),
    balance: kopecksToRoubles(done.balance),
  };
}
