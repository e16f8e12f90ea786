// A driver's balance: every change is a ledger entry written in the same
// transaction as the balance update (which locks the driver's row), and
// `txnId` makes a payment idempotent: repeated, it applies once and replies
// the balance that payment left.
import type { Db, DbOrTx } from "../db";
import type { Actor } from "../actor";
import { BalanceError, isUniqueViolation } from "../errors";
import { publish } from "../events/bus";
import { MAX_PAYMENT_KOPECKS } from "./money";
import { sqlQuery } from "../db/sql";

export interface DriverPayment {
  driverCode?: string;
  driverId?: number;
  txnId: string;
  /** kopecks; negative for a debit */
  amount: number;
  reason?: string;
  actor: Actor;
  orderId?: number;
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
  const entry = await db.driverLedgerEntry.findUnique({ where: { txnId }, select: { id: true, driverId: true, amount: true, balanceAfter: true } });
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
  const seen = await existingEntry(db, payment.txnId, driverId, payment.amount);
  if (seen) return seen;
  try {
    const result = await db.$transaction(async (tx) => {
      const [row] = await sqlQuery<{ balance: bigint }>(
        tx,
        `UPDATE driver SET balance = balance + $2 WHERE id = $1 RETURNING balance`,
        [driverId, BigInt(payment.amount)],
      );
      const entry = await tx.driverLedgerEntry.create({
        data: {
          driverId,
          txnId: payment.txnId,
          amount: BigInt(payment.amount),
          balanceAfter: row!.balance,
          reason: payment.reason ?? "",
          actorType: payment.actor.type === "DRIVER" ? "SYSTEM" : payment.actor.type,
          actorId: payment.actor.id,
          orderId: payment.orderId ?? null,
        },
        select: { id: true },
      });
      return { balance: row!.balance, applied: true, entryId: entry.id };
    });
    publish({ type: "balance.changed", account: "driver", id: driverId, balance: result.balance.toString() });
    return result;
  } catch (error) {
    // The same txnId raced us and won: reply what it left.
    if (isUniqueViolation(error)) {
      const winner = await existingEntry(db, payment.txnId, driverId, payment.amount);
      if (winner) return winner;
    }
    throw error;
  }
}

export async function driverBalance(db: DbOrTx, driverCode: string) {
  const driver = await db.driver.findUnique({
    where: { callSign: driverCode },
    select: { id: true, balance: true, firstName: true, lastName: true, middleName: true },
  });
  if (!driver) throw new BalanceError("NOT_FOUND", { what: "Driver", id: driverCode });
  return driver;
}
