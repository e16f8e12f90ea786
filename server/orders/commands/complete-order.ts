// A driver completes an order of theirs (DONE_SUCCESSFUL) and the service's
// commission is debited from the driver's balance. Repeating the call for an
// order the driver already completed replies the same and debits nothing more.
import type { Db } from "../../db";
import { config } from "../../config";
import { applyDriverPayment } from "../../balances/driver-balance";
import { moveOrderInTx, publishMoves } from "../move-order";
import { RIDING_STATES } from "../states";
import { driverActor, forbiddenMove, lockDriversOrder, type OrderDriver } from "./driver-party";

export function commissionOf(amountKopecks: number | null): number {
  if (amountKopecks === null || amountKopecks <= 0) return 0;
  return Math.round((amountKopecks * config().DRIVER_COMMISSION_PERCENT) / 100);
}

/** The ledger transaction of an order's commission: one per order, so a repeated completion debits once. */
export function commissionTxnId(orderId: number): string {
  return `commission:order:${orderId}`;
}

export interface CompletedOrder {
  orderId: number;
  amount: number | null;
  commission: number;
  balance: bigint;
}

export async function completeOrder(db: Db, me: OrderDriver, input: { uuid: string }): Promise<CompletedOrder> {
  const actor = driverActor(me);
  const done = await db.$transaction(async (tx) => {
    const order = await lockDriversOrder(tx, me, input.uuid);
    if (order.state === "DONE_SUCCESSFUL") return { id: order.id, moved: undefined };
    if (!RIDING_STATES.includes(order.state)) throw forbiddenMove(order.state, "DONE_SUCCESSFUL");
    const moved = await moveOrderInTx(tx, { orderId: order.id, to: "DONE_SUCCESSFUL", actor, reason: `completed by driver ${me.callSign}` });
    return { id: order.id, moved };
  });
  if (done.moved) publishMoves([done.moved]);
  const { amount } = await db.order.findUniqueOrThrow({ where: { id: done.id }, select: { amount: true } });
  const commission = commissionOf(amount);
  let balance: bigint;
  if (commission > 0) {
    const paid = await applyDriverPayment(db, {
      driverId: me.id,
      txnId: commissionTxnId(done.id),
      amount: -commission,
      reason: `Комиссия сервиса, заказ ${done.id}`,
      actor,
      orderId: done.id,
    });
    balance = paid.balance;
  } else {
    balance = (await db.driver.findUniqueOrThrow({ where: { id: me.id }, select: { balance: true } })).balance;
  }
  return { orderId: done.id, amount, commission, balance };
}
