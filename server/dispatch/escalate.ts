// After a refusal or a timeout: the order is offered again (the next
// candidate, at the next round) until it has had its service's number of
// attempts; then it goes on the radio (ORDER_ON_RADIO) for any driver nearby
// to take, and the dispatcher sees it among the orders in trouble.
import type { Tx } from "../db";
import { SYSTEM_ACTOR } from "../actor";
import { moveOrdersInTx, type LockedOrder, type MovedOrder } from "../orders/move-order";
import { loadSettings } from "./settings";
import { sqlQuery } from "../db/sql";

export async function escalateInTx(tx: Tx, orderId: number): Promise<MovedOrder[]> {
  return escalateOrdersInTx(tx, [orderId]);
}

/**
 * The same for several orders (a round's sweep of expired offers), in a
 * constant number of statements: their rows locked in id order with what the
 * rule needs, then the ones whose attempts ran out put on the radio together
 * (moveOrdersInTx). The orders must differ.
 */
export async function escalateOrdersInTx(tx: Tx, orderIds: readonly number[]): Promise<MovedOrder[]> {
  if (orderIds.length === 0) return [];
  // The orders' locks, their states and what the rule needs in one statement by hand: every refusal and timeout
  // comes here (docs/performance.md, "A fleet of ten thousand"); the caller holds the locks already as a rule.
  const rows = await sqlQuery<LockedOrder & { service_id: number; attempts: number | null }>(
    tx,
    `SELECT o.id, o.uuid::text AS uuid, o.state, o.driver_id, o.region_id, o.version, o.service_id, d.attempts
       FROM orders o LEFT JOIN dispatch_order d ON d.order_id = o.id WHERE o.id = ANY($1::int[]) ORDER BY o.id FOR NO KEY UPDATE OF o`,
    [[...orderIds]],
  );
  const settings = await loadSettings(tx);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const due = orderIds.flatMap((id) => {
    const info = byId.get(id);
    if (!info || (info.state !== "FREE" && info.state !== "FREE_LONG")) return [];
    const rule = settings.forOrder(info.service_id, info.region_id);
    const attempts = info.attempts;
    if (!rule || rule.mode === "MANUAL" || attempts === null || attempts < rule.attempts) return [];
    return [{ id, attempts, locked: info }];
  });
  if (due.length === 0) return [];
  await sqlQuery(tx, `UPDATE dispatch_order SET radio_at = $2::timestamp WHERE order_id = ANY($1::int[])`, [due.map((d) => d.id), new Date().toISOString()]);
  return moveOrdersInTx(
    tx,
    due.map(({ id, attempts, locked }) => ({
      orderId: id,
      // Read under its lock just above, unchanged since.
      locked,
      to: "ORDER_ON_RADIO" as const,
      actor: SYSTEM_ACTOR,
      reason: `nobody accepted after ${attempts} offers: on the radio`,
    })),
  );
}
