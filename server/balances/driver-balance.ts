// A driver's balance: every change is a ledger entry written in the same
// transaction as the balance update (which locks the driver's row), and
// `txnId` makes a payment idempotent: repeated, it applies once and replies
// the balance that payment left. Payments (clients' txn ids) and the
// system's own postings (an order's commission) are kinds of entry, and a
// txn id is unique within its kind: no client id can claim a system posting.
// A dispatch API request's Idempotency-Key is written with the payment's
// entry, in its transaction.
import type { Db, DbOrTx, Tx } from "../db";
import type { DriverEntryKind } from "../generated/prisma/client";
import type { Actor } from "../actor";
import { BalanceError, isUniqueViolation } from "../errors";
import { publish } from "../events/bus";
import { MAX_PAYMENT_KOPECKS } from "./money";
import { sqlQuery } from "../db/sql";
import { writeIdempotentReply, type IdempotentWrite } from "../idempotency/store";

export interface DriverPayment {
  driverCode?: string;
  driverId?: number;
  txnId: string;
  /** kopecks; negative for a debit */
  amount: number;
  reason?: string;
  actor: Actor;
  orderId?: number;
  /** The dispatch API request's Idempotency-Key and reply, written with the entry (server/idempotency). */
  idempotency?: IdempotentWrite<PaymentResult>;
}

export interface PaymentResult {
  balance: bigint;
  /** false when this txnId had already been applied */
  applied: boolean;
  entryId: number;
}

async function findDriverId(db: DbOrTx, payment: Pick<DriverPayment, "driverCode" | "driverId">): Promise<number> {
  const driver = payment.driverId !== undefined
    ? await db.driver.findUnique({ where: { id: payment.driverId }, select: { id: true } })
    : await db.driver.findUnique({ where: { callSign: payment.driverCode ?? "" }, select: { id: true } });
  if (!driver) throw new BalanceError("NOT_FOUND", { what: "Driver", id: payment.driverCode ?? payment.driverId });
  return driver.id;
}

async function existingEntry(db: DbOrTx, txnId: string, driverId: number, amount: number): Promise<PaymentResult | undefined> {
  const entry = await db.driverLedgerEntry.findUnique({ where: { kind_txnId: { kind: "PAYMENT", txnId } }, select: { id: true, driverId: true, amount: true, balanceAfter: true } });
  if (!entry) return undefined;
  if (entry.driverId !== driverId || entry.amount !== BigInt(amount)) {
    throw new BalanceError("CONFLICT", { reason: `txn_id ${txnId} was already used for another payment` });
  }
  return { balance: entry.balanceAfter, applied: false, entryId: entry.id };
}

export async function applyDriverPayment(db: Db, payment: DriverPayment): Promise<PaymentResult> {
  if (!Number.isSafeInteger(payment.amount) || payment.amount === 0 || Math.abs(payment.amount) > MAX_PAYMENT_KOPECKS) {
    throw new BalanceError("BAD_PARAMETER", { parameter: "amount", expected: "a non-zero amount of at most 10000000" });
  }
  const driverId = await findDriverId(db, payment);
  // Applied before (by its txn_id): this request's key, if any, is written on
  // its own, so that it is kept and the same key with other parameters refused.
  const earlier = async (result: PaymentResult) => {
    await writeIdempotentReply(db, payment.idempotency, result);
    return result;
  };
  const seen = await existingEntry(db, payment.txnId, driverId, payment.amount);
  if (seen) return earlier(seen);
  try {
    const result = await db.$transaction(async (tx) => {
      const posted = await postDriverEntry(tx, { ...payment, driverId, kind: "PAYMENT" });
      await writeIdempotentReply(tx, payment.idempotency, posted);
      return posted;
    });
    publish({ type: "balance.changed", account: "driver", id: driverId, balance: result.balance.toString() });
    return result;
  } catch (error) {
    // The same txnId raced us and won: reply what it left.
    if (isUniqueViolation(error)) {
      const winner = await existingEntry(db, payment.txnId, driverId, payment.amount);
      if (winner) return earlier(winner);
    }
    throw error;
  }
}

/** One entry and the balance it changes, in the caller's transaction (the driver's row is locked by the update). */
async function postDriverEntry(tx: Tx, entry: DriverPayment & { driverId: number; kind: DriverEntryKind }): Promise<PaymentResult> {
  const [row] = await sqlQuery<{ balance: bigint }>(tx, `UPDATE driver SET balance = balance + $2 WHERE id = $1 RETURNING balance`, [
    entry.driverId,
    BigInt(entry.amount),
  ]);
  const created = await tx.driverLedgerEntry.create({
    data: {
      driverId: entry.driverId,
      kind: entry.kind,
      txnId: entry.txnId,
      amount: BigInt(entry.amount),
      balanceAfter: row!.balance,
      reason: entry.reason ?? "",
      actorType: entry.actor.type === "DRIVER" ? "SYSTEM" : entry.actor.type,
      actorId: entry.actor.id,
      orderId: entry.orderId ?? null,
    },
    select: { id: true },
  });
  return { balance: row!.balance, applied: true, entryId: created.id };
}

/**
 * An order's commission, in the transaction that completes it: once per
 * order (the kind's own txn id, derived from the order), whatever a client
 * named its payments. Returns the balance after it.
 */
export async function debitCommissionInTx(tx: Tx, input: { driverId: number; orderId: number; amount: number; reason: string; actor: Actor }): Promise<bigint> {
  const txnId = `commission:order:${input.orderId}`;
  const seen = await tx.driverLedgerEntry.findUnique({ where: { kind_txnId: { kind: "COMMISSION", txnId } }, select: { id: true } });
  if (seen || input.amount <= 0) {
    return (await tx.driver.findUniqueOrThrow({ where: { id: input.driverId }, select: { balance: true } })).balance;
  }
  const posted = await postDriverEntry(tx, { driverId: input.driverId, kind: "COMMISSION", txnId, amount: -input.amount, reason: input.reason, actor: input.actor, orderId: input.orderId });
  return posted.balance;
}

export async function driverBalance(db: DbOrTx, driverCode: string) {
  const driver = await db.driver.findUnique({
    where: { callSign: driverCode },
    select: { id: true, balance: true, firstName: true, lastName: true, middleName: true },
  });
  if (!driver) throw new BalanceError("NOT_FOUND", { what: "Driver", id: driverCode });
  return driver;
}
