// After a refusal or a timeout: the order is offered again (the next
// candidate, at the next round) until it has had its service's number of
// attempts; then it goes on the radio (ORDER_ON_RADIO) for any driver nearby
// to take, and the dispatcher sees it among the orders in trouble.
import type { Tx } from "../db";
import { SYSTEM_ACTOR } from "../actor";
import { moveOrderInTx, type MovedOrder } from "../orders/move-order";
import { loadSettings } from "./settings";
import { sqlQuery } from "../db/sql";

export async function escalateInTx(tx: Tx, orderId: number): Promise<MovedOrder[]> {
  // The order's lock, its state and what the rule needs in one statement by hand: every refusal and timeout comes
  // here (docs/performance.md, "A fleet of ten thousand"); the caller holds the lock already as a rule.
  const [info] = await sqlQuery<{ state: string; serviceId: number; regionId: number | null; attempts: number | null }>(
    tx,
    `SELECT o.state, o.service_id AS "serviceId", o.region_id AS "regionId", d.attempts
       FROM orders o LEFT JOIN dispatch_order d ON d.order_id = o.id WHERE o.id = $1 FOR NO KEY UPDATE OF o`,
    [orderId],
  );
  if (!info || (info.state !== "FREE" && info.state !== "FREE_LONG")) return [];
  const settings = (await loadSettings(tx)).forOrder(info.serviceId, info.regionId);
  const attempts = info.attempts;
  if (!settings || settings.mode === "MANUAL" || attempts === null || attempts < settings.attempts) return [];
  await tx.dispatchOrder.update({ where: { orderId }, data: { radioAt: new Date() }, select: { orderId: true } });
  return [await moveOrderInTx(tx, { orderId, to: "ORDER_ON_RADIO", actor: SYSTEM_ACTOR, reason: `nobody accepted after ${attempts} offers: on the radio` })];
}
