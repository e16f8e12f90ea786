// Rejecting an order on moderation (the dispatcher's refusal, with a reason):
// DONE_OPERATOR_REJECTED through the one state machine.
import type { Db } from "../db";
import type { Actor } from "../actor";
import { moveOrder, type MovedOrder } from "./move-order";
import { loadForModeration } from "./moderation";

export async function rejectModeratedOrder(
  db: Db,
  input: { orderId: number; expectedVersion: number; reason: string; actor: Actor },
): Promise<MovedOrder> {
  const order = await loadForModeration(db, input.orderId, input.expectedVersion);
  return moveOrder(db, {
    orderId: order.id,
    to: "DONE_OPERATOR_REJECTED",
    actor: input.actor,
    reason: input.reason,
    expectedVersion: input.expectedVersion,
  });
}
