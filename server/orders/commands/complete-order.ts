// A driver completes an order of theirs (DONE_SUCCESSFUL) and the service's
// commission is debited from the driver's balance, in the same transaction.
// Repeating the call for an order the driver already completed replies the
// same and debits nothing more.
import type { Db } from "../../db";
import { commissionOf } from "../../balances/commission";
import { debitCommissionInTx } from "../../balances/driver-balance";
import { publish } from "../../events/bus";
import { moveOrderInTx, publishMoves, type MovedOrder } from "../move-order";
import { RIDING_STATES } from "../states";
import { driverActor, forbiddenMove, lockDriversOrder, type OrderDriver } from "./driver-party";
import { storedMeter } from "../../meter/final-fare";
import type { MeteredFare } from "../../meter/fare";


export interface CompletedOrder {
  orderId: number;
  amount: number | null;
  commission: number;
  balance: bigint;
  /** A METERED order's final fare with its breakdown (kopecks); null for a fixed price. */
  meter: MeteredFare | null;
}

/**
 * Completes the order and debits its commission in ONE transaction: a
 * completed order whose commission was never debited cannot be left behind
 * (a crash in between, or a client's payment that claimed its txn id).
 */
export async function completeOrder(db: Db, me: OrderDriver, input: { uuid: string; at?: Date }): Promise<CompletedOrder> {
  const actor = driverActor(me);
  const done = await db.$transaction(async (tx) => {
    const order = await lockDriversOrder(tx, me, input.uuid);
    let moved: MovedOrder | undefined;
    if (order.state !== "DONE_SUCCESSFUL") {
      if (!RIDING_STATES.includes(order.state)) throw forbiddenMove(order.state, "DONE_SUCCESSFUL");
      // The move meters a METERED trip (finalMeterInTx, for every interface
      // alike) and sets the amount the commission below reads; `at` (a
      // completion replayed after a connection loss) ends the trip then.
      moved = await moveOrderInTx(tx, { orderId: order.id, to: "DONE_SUCCESSFUL", actor, reason: `completed by driver ${me.callSign}`, at: input.at });
    }
    const meter: MeteredFare | null = (await storedMeter(tx, order.id))?.fare ?? null;
    const { amount } = await tx.order.findUniqueOrThrow({ where: { id: order.id }, select: { amount: true } });
    const commission = commissionOf(amount);
    // Debited by the move's own effect (balances/commission.ts); here for an order completed before that existed (once: the txn id).
    const balance = await debitCommissionInTx(tx, { driverId: me.id, orderId: order.id, amount: commission, reason: `Комиссия сервиса, заказ ${order.id}`, actor });
    return { id: order.id, moved, amount, commission, balance, meter };
  });
  if (done.moved) publishMoves([done.moved]);
  else if (done.commission > 0) publish({ type: "balance.changed", account: "driver", id: me.id, balance: done.balance.toString() });
  return { orderId: done.id, amount: done.amount, commission: done.commission, balance: done.balance, meter: done.meter };
}
