// Bonuses a price counted on (use_bonuses=yes) are taken when the order is
// created, in its transaction, not when it completes: an estimate only reads
// the balance, so several orders priced on one balance must not all get the
// discount. The database decides: a conditional update under the client's
// row lock takes them only while the balance covers them (never below zero).
// The hold is an entry of the bonus ledger; a cancelled order gives it back
// (releaseOrderBonuses, from the order-state subscribers), a completed one
// keeps it: the hold is then what the ride cost in bonuses.
import type { Tx } from "../db";
import { sqlQuery } from "../db/sql";
import { OrderError } from "../errors";

/** The bonus ledger's entries of an order (one of each, by the txn id's uniqueness). */
export const bonusTxnId = {
  held: (orderId: number) => `order-${orderId}-bonus-held`,
  released: (orderId: number) => `order-${orderId}-bonus-released`,
  /** Orders created before holds: their bonuses are spent at completion. */
  spent: (orderId: number) => `order-${orderId}-bonus-spent`,
  earned: (orderId: number) => `order-${orderId}-bonus-earned`,
};

export interface BonusHold {
  clientId: number;
  amount: number;
  bonusAfter: number;
}

/**
 * Takes `amount` bonuses from the client with this phone, or refuses: the
 * bonuses are gone (spent or held by another order meanwhile). A token that
 * already made its order is TOKEN_USED, whatever the balance says now.
 */
export async function holdBonuses(tx: Tx, input: { phone: string; amount: number; priceToken: string | null }): Promise<BonusHold> {
  const [row] = await sqlQuery<{ id: number; bonus: number }>(
    tx,
    `UPDATE client SET bonus = bonus - $2 WHERE phone = $1 AND bonus >= $2 RETURNING id, bonus`,
    [input.phone, input.amount],
  );
  if (row) return { clientId: row.id, amount: input.amount, bonusAfter: row.bonus };
  if (input.priceToken) {
    const [used] = await sqlQuery<{ id: number }>(tx, `SELECT id FROM orders WHERE price_token = $1`, [input.priceToken]);
    if (used) throw new OrderError("TOKEN_USED");
  }
  throw new OrderError("TOKEN_INVALID", { reason: "bonuses_gone" });
}

/** The hold's ledger entry, once the order has its id (same transaction). */
export async function recordBonusHold(tx: Tx, hold: BonusHold, orderId: number): Promise<void> {
  await tx.clientBonusEntry.create({
    data: { clientId: hold.clientId, txnId: bonusTxnId.held(orderId), amount: -hold.amount, bonusAfter: hold.bonusAfter, reason: "held for an order", orderId },
    select: { id: true },
  });
}

/** Gives back the bonuses an order held (it was cancelled); once, whatever calls it again. */
export async function releaseOrderBonuses(tx: Tx, orderId: number): Promise<void> {
  const held = await tx.clientBonusEntry.findUnique({ where: { txnId: bonusTxnId.held(orderId) }, select: { clientId: true, amount: true } });
  if (!held || held.amount >= 0) return;
  const released = await tx.clientBonusEntry.findUnique({ where: { txnId: bonusTxnId.released(orderId) }, select: { id: true } });
  if (released) return;
  const [row] = await sqlQuery<{ bonus: number }>(tx, `UPDATE client SET bonus = bonus + $2 WHERE id = $1 RETURNING bonus`, [held.clientId, -held.amount]);
  if (!row) return;
  await tx.clientBonusEntry.create({
    data: { clientId: held.clientId, txnId: bonusTxnId.released(orderId), amount: -held.amount, bonusAfter: row.bonus, reason: "returned: the order was cancelled", orderId },
    select: { id: true },
  });
}

/** Whether the order's bonuses were held at creation (then completion spends nothing more). */
export async function heldAtCreation(tx: Tx, orderId: number): Promise<boolean> {
  return (await tx.clientBonusEntry.findUnique({ where: { txnId: bonusTxnId.held(orderId) }, select: { id: true } })) !== null;
}
