// A dispatcher's status move from the order card (issue 34, safe status
// moves): a final move (cancelled, removed, completed: codes 90..100) needs a
// reason in words, kept in the history and as the order's cancel reason. The
// move itself is the one state machine's (server/orders/move-order.ts), which
// also refuses "completed" for an order no driver holds.
import type { Db } from "../db";
import type { Actor } from "../actor";
import { OrderError } from "../errors";
import { moveOrder, type MovedOrder } from "../orders/move-order";
import { isDone, type OrderState } from "../orders/states";

export interface OperatorMoveInput {
  orderId: number;
  to: OrderState;
  expectedVersion: number;
  reason?: string;
  driverId?: number;
  actor: Actor;
}

export async function moveByOperator(db: Db, input: OperatorMoveInput): Promise<MovedOrder> {
  const reason = input.reason?.trim() ?? "";
  if (isDone(input.to) && reason.length < 3) {
    throw new OrderError("BAD_PARAMETER", { field: "reason", reason: "a final move needs a reason", reasonKey: "reasonRequired" });
  }
  return moveOrder(db, {
    orderId: input.orderId,
    to: input.to,
    expectedVersion: input.expectedVersion,
    reason: reason || undefined,
    driverId: input.driverId,
    actor: input.actor,
  });
}
