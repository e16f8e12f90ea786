// Moderation of orders that arrived with moderation_required: the check that
// the order is still on moderation rides on the version the dispatcher saw.
import type { Db } from "../db";
import { OrderError } from "../errors";

/** An order booked further ahead than this becomes an advance order on approval. */
export const ADVANCE_ORDER_MINUTES = 30;

/** The order, if it is still on moderation at the version the dispatcher saw. */
export async function loadForModeration(db: Db, orderId: number, expectedVersion: number) {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { id: true, state: true, version: true, preOrderTime: true } });
  if (!order) throw new OrderError("NOT_FOUND", { what: "Order", id: orderId });
  if (order.version !== expectedVersion) throw new OrderError("CONFLICT", { reason: "the order was changed by someone else; reload it", reasonKey: "stale" });
  if (order.state !== "ON_MODERATION") throw new OrderError("NOT_ACCEPTABLE", { reason: "the order is not on moderation", reasonKey: "notOnModeration" });
  return order;
}

