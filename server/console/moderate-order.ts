// Moderation of orders that arrived with moderation_required: approve (to the
// free orders, to the advance orders when booked ahead, or straight to a
// chosen driver) or reject with a reason. Both go through the one state
// machine (moveOrder); the check that the order is still on moderation rides
// on the version the dispatcher saw.
import type { Db } from "../db";
import type { Actor } from "../actor";
import { OrderError } from "../errors";
import { moveOrder, type MovedOrder } from "../orders/move-order";

/** An order booked further ahead than this becomes an advance order on approval. */
export const ADVANCE_ORDER_MINUTES = 30;

async function loadForModeration(db: Db, orderId: number, expectedVersion: number) {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { id: true, state: true, version: true, preOrderTime: true } });
  if (!order) throw new OrderError("NOT_FOUND", { what: "Order", id: orderId });
  if (order.version !== expectedVersion) throw new OrderError("CONFLICT", { reason: "the order was changed by someone else; reload it", reasonKey: "stale" });
  if (order.state !== "ON_MODERATION") throw new OrderError("NOT_ACCEPTABLE", { reason: "the order is not on moderation", reasonKey: "notOnModeration" });
  return order;
}

export async function approveOrder(
  db: Db,
  input: { orderId: number; expectedVersion: number; driverId?: number | null; actor: Actor },
): Promise<MovedOrder> {
  const order = await loadForModeration(db, input.orderId, input.expectedVersion);
  if (input.driverId) {
    const driver = await db.driver.findUnique({ where: { id: input.driverId }, select: { id: true, active: true } });
    if (!driver || !driver.active) throw new OrderError("NOT_FOUND", { what: "Driver", id: input.driverId });
    return moveOrder(db, {
      orderId: order.id,
      to: "SENT_TO_DRIVER",
      driverId: driver.id,
      actor: input.actor,
      expectedVersion: input.expectedVersion,
    });
  }
  const advance = order.preOrderTime && order.preOrderTime.getTime() - Date.now() > ADVANCE_ORDER_MINUTES * 60_000;
  return moveOrder(db, {
    orderId: order.id,
    to: advance ? "PREORDER_FREE" : "FREE",
    actor: input.actor,
    expectedVersion: input.expectedVersion,
  });
}

export async function rejectOrder(
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
