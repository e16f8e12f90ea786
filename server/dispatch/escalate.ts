// After a refusal or a timeout: the order is offered again (the next
// candidate, at the next round) until it has had its service's number of
// attempts; then it goes on the radio (ORDER_ON_RADIO) for any driver nearby
// to take, and the dispatcher sees it among the orders in trouble.
import type { Tx } from "../db";
import { SYSTEM_ACTOR } from "../actor";
import { lockOrder, moveOrderInTx, type MovedOrder } from "../orders/move-order";
import { loadSettings } from "./settings";

export async function escalateInTx(tx: Tx, orderId: number): Promise<MovedOrder[]> {
  const order = await lockOrder(tx, { orderId });
  if (order.state !== "FREE" && order.state !== "FREE_LONG") return [];
  const info = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { serviceId: true, regionId: true } });
  const settings = (await loadSettings(tx)).forOrder(info.serviceId, info.regionId);
  const control = await tx.dispatchOrder.findUnique({ where: { orderId }, select: { attempts: true } });
  if (!settings || settings.mode === "MANUAL" || !control || control.attempts < settings.attempts) return [];
  await tx.dispatchOrder.update({ where: { orderId }, data: { radioAt: new Date() }, select: { orderId: true } });
  return [await moveOrderInTx(tx, { orderId, to: "ORDER_ON_RADIO", actor: SYSTEM_ACTOR, reason: `nobody accepted after ${control.attempts} offers: on the radio` })];
}
