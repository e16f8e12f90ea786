// Approving an order on moderation: to the free orders, to the advance
// orders when booked ahead, or straight to a chosen driver, through the one
// state machine (moveOrder).
import type { Db } from "../db";
import type { Actor } from "../actor";
import { OrderError } from "../errors";
import { moveOrder, type MovedOrder } from "./move-order";
import { ADVANCE_ORDER_MINUTES, loadForModeration } from "./moderation";

export async function approveModeratedOrder(
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
