// The service's commission on a completed order, debited from the driver's
// balance in the transaction of the move to completed, whoever made it: the
// driver's app, a dispatcher in the console, an integrator's 100 through the
// dispatch API. (It used to be debited by the driver's own completion only,
// so an order completed in the console left the driver's balance untouched.)
// Registered as an effect of the order's move (server/subscribers.ts); the
// txn id is derived from the order, so it is debited once whatever repeats.
import type { Tx } from "../db";
import { config } from "../config";
import { SYSTEM_ACTOR, type Actor } from "../actor";
import type { MovedOrder } from "../orders/move-order";
import { debitCommissionInTx } from "./driver-balance";

/** The commission on a fare (kopecks), rounded half up; none on no fare. */
export function commissionOf(amountKopecks: number | null): number {
  if (amountKopecks === null || amountKopecks <= 0) return 0;
  return Math.round((amountKopecks * config().DRIVER_COMMISSION_PERCENT) / 100);
}

/** On a move to completed with a driver of ours: the commission on the order's final amount (the meter's, when metered). */
export async function chargeCompletionCommission(tx: Tx, moved: MovedOrder): Promise<void> {
  if (moved.to !== "DONE_SUCCESSFUL" || moved.driverId === null) return;
  const { amount } = await tx.order.findUniqueOrThrow({ where: { id: moved.id }, select: { amount: true } });
  const commission = commissionOf(amount);
  if (commission <= 0) return;
  const actor: Actor = moved.actor ?? SYSTEM_ACTOR;
  const balance = await debitCommissionInTx(tx, { driverId: moved.driverId, orderId: moved.id, amount: commission, reason: `Комиссия сервиса, заказ ${moved.id}`, actor });
  moved.driverBalance = { driverId: moved.driverId, balance: balance.toString() };
}
