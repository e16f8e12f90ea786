// The bonus programme, settled when an order completes: the client earns
// BONUS_ACCRUAL_PERCENT of what they paid (1 bonus = 1 rouble). The bonuses
// its price used were held when the order was created (reserve.ts) and stay
// spent; an order from before holds spends them now. Entries of the client's
// bonus ledger with txn ids derived from the order, so they apply once.
import type { Tx } from "../db";
import { config } from "../config";
import { sqlQuery } from "../db/sql";
import { bonusTxnId, heldAtCreation } from "./reserve";

async function addBonus(tx: Tx, clientId: number, orderId: number, txnId: string, amount: number, reason: string): Promise<void> {
  if (amount === 0) return;
  const exists = await tx.clientBonusEntry.findUnique({ where: { txnId }, select: { id: true } });
  if (exists) return;
  // Never below zero: spend at most what the client has now.
  const [row] = await sqlQuery<{ bonus: number; change: number }>(
    tx,
    `WITH old AS (SELECT bonus FROM client WHERE id = $1 FOR NO KEY UPDATE)
     UPDATE client c SET bonus = GREATEST(0, c.bonus + $2) FROM old WHERE c.id = $1
     RETURNING c.bonus AS bonus, c.bonus - old.bonus AS change`,
    [clientId, amount],
  );
  if (!row || row.change === 0) return;
  await tx.clientBonusEntry.create({ data: { clientId, txnId, amount: row.change, bonusAfter: row.bonus, reason, orderId }, select: { id: true } });
}

export async function settleOrderBonuses(tx: Tx, orderId: number): Promise<void> {
  const order = await tx.order.findUnique({ where: { id: orderId }, select: { clientId: true, amount: true, priceBreakdown: true } });
  if (!order?.clientId) return;
  const breakdown = (order.priceBreakdown ?? {}) as { bonusUsed?: number };
  const used = Math.max(0, Math.floor(breakdown.bonusUsed ?? 0));
  if (used > 0 && !(await heldAtCreation(tx, orderId))) await addBonus(tx, order.clientId, orderId, bonusTxnId.spent(orderId), -used, "paid for an order");
  const earned = Math.floor(((order.amount ?? 0) / 100) * (config().BONUS_ACCRUAL_PERCENT / 100));
  if (earned > 0) await addBonus(tx, order.clientId, orderId, bonusTxnId.earned(orderId), earned, "earned on an order");
}
