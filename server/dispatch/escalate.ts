// After a refusal or a timeout: the order is offered again (the next
// candidate, at the next round) until it has had its service's number of
// attempts; then it goes on the radio (ORDER_ON_RADIO) for any driver nearby
// to take, and the dispatcher sees it among the orders in trouble.
import type { Tx } from "../db";
import { SYSTEM_ACTOR } from "../actor";
import { lockOrder, moveOrderInTx, type MovedOrder } from "../orders/move-order";
import { loadSettings } from "./settings";
import { sqlQuery } from "../db/sql";

export async function escalateInTx(tx: Tx, orderId: number): Promise<MovedOrder[]> {
  const order = await lockOrder(tx, { orderId });
  if (order.state !== "FREE" && order.state !== "FREE_LONG") return [];
  // One statement by hand: every refusal and timeout comes here (docs/performance.md, "A fleet of ten thousand").
  const [info] = await sqlQuery<{ serviceId: number; regionId: number | null; attempts: number | null }>(
    tx,
    `SELECT o.service_id AS "serviceId", o.region_id AS "regionId", d.attempts FROM orders o LEFT JOIN dispatch_order d ON d.order_id = o.id WHERE o.id = $1`,
    [orderId],
  );
  if (!info) return [];
  const settings = (await loadSettings(tx)).forOrder(info.serviceId, info.regionId);
  const attempts = info.attempts;
  if (!settings || settings.mode === "MANUAL" || attempts === null || attempts < settings.attempts) return [];
  await tx.dispatchOrder.update({ where: { orderId }, data: { radioAt: new Date() }, select: { orderId: true } });
  return [await moveOrderInTx(tx, { orderId, to: "ORDER_ON_RADIO", actor: SYSTEM_ACTOR, reason: `nobody accepted after ${attempts} offers: on the radio` })];
}
