// A customer's (counterparty's) balance, kept like a driver's: a ledger entry
// per change, written with the row-locked balance update; a txnId makes a
// change idempotent (the dispatch API's call may have none: then each call
// gets one), and so does the request's Idempotency-Key (written with the
// entry, in its transaction).
import { randomUUID } from "node:crypto";
import type { Db, DbOrTx } from "../db";
import type { Actor } from "../actor";
import { BalanceError, isUniqueViolation } from "../errors";
import { publish } from "../events/bus";
import { MAX_PAYMENT_KOPECKS } from "./money";
import type { PaymentResult } from "./driver-balance";
import { sqlQuery } from "../db/sql";
import { writeIdempotentReply, type IdempotentWrite } from "../idempotency/store";

export interface CustomerPayment {
  customerId: number;
  amount: number;
  txnId?: string;
  reason?: string;
  actor: Actor;
  /** The dispatch API request's Idempotency-Key and reply, written with the ledger entry (server/idempotency). */
  idempotency?: IdempotentWrite<PaymentResult>;
}

export async function applyCustomerPayment(db: Db, payment: CustomerPayment): Promise<PaymentResult> {
  if (!Number.isSafeInteger(payment.amount) || payment.amount === 0 || Math.abs(payment.amount) > MAX_PAYMENT_KOPECKS) {
    throw new BalanceError("BAD_PARAMETER", { parameter: "amount", expected: "a non-zero amount of at most 10000000" });
  }
  const customer = await db.customer.findUnique({ where: { id: payment.customerId }, select: { id: true } });
  if (!customer) throw new BalanceError("NOT_FOUND", { what: "Customer", id: payment.customerId });
  const txnId = payment.txnId ?? `api-${randomUUID()}`;
  const replay = async () => {
    const entry = await db.customerLedgerEntry.findUnique({ where: { txnId }, select: { id: true, customerId: true, amount: true, balanceAfter: true } });
    if (!entry) return undefined;
    if (entry.customerId !== payment.customerId || entry.amount !== BigInt(payment.amount)) {
      throw new BalanceError("CONFLICT", { reason: `txn_id ${txnId} was already used for another payment` });
    }
    return { balance: entry.balanceAfter, applied: false, entryId: entry.id };
  };
  // A payment applied before (by its txn_id): this request's key, if any, is
  // written on its own (nothing else to write with), so that the key is kept
  // and the same key with other parameters is refused.
  const earlier = async (result: PaymentResult) => {
    await writeIdempotentReply(db, payment.idempotency, result);
    return result;
  };
  const seen = await replay();
  if (seen) return earlier(seen);
  try {
    const result = await db.$transaction(async (tx) => {
      const [row] = await sqlQuery<{ balance: bigint }>(
        tx,
        `UPDATE customer SET balance = balance + $2 WHERE id = $1 RETURNING balance`,
        [payment.customerId, BigInt(payment.amount)],
      );
      const entry = await tx.customerLedgerEntry.create({
        data: {
          customerId: payment.customerId,
          txnId,
          amount: BigInt(payment.amount),
          balanceAfter: row!.balance,
          reason: payment.reason ?? "",
          actorType: payment.actor.type === "DRIVER" ? "SYSTEM" : payment.actor.type,
          actorId: payment.actor.id,
        },
        select: { id: true },
      });
      const applied: PaymentResult = { balance: row!.balance, applied: true, entryId: entry.id };
      await writeIdempotentReply(tx, payment.idempotency, applied);
      return applied;
    });
    publish({ type: "balance.changed", account: "customer", id: payment.customerId, balance: result.balance.toString() });
    return result;
  } catch (error) {
    if (isUniqueViolation(error)) {
      const winner = await replay();
      if (winner) return earlier(winner);
    }
    throw error;
  }
}

export async function customerBalance(db: DbOrTx, customerId: number) {
  const customer = await db.customer.findUnique({ where: { id: customerId }, select: { id: true, name: true, balance: true } });
  if (!customer) throw new BalanceError("NOT_FOUND", { what: "Customer", id: customerId });
  return customer;
}
