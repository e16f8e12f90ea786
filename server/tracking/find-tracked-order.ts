// The order a tracking token names, while its link works: a token that does
// not decode, names no order, or whose order has been final for longer than
// TRACKING_LINK_HOURS all come back as null (one answer for all of them, so
// that a caller cannot tell which: no enumeration oracle).
import { config } from "../config";
import type { DbOrTx } from "../db";
import { isDone, isOrderState, type OrderState } from "../orders/states";
import { uuidOfTrackingToken } from "./token";

export const trackedOrderSelect = {
  id: true,
  uuid: true,
  cityId: true,
  state: true,
  statusCode: true,
  street: true,
  house: true,
  lat: true,
  lon: true,
  dst: true,
  dstStreet: true,
  dstHouse: true,
  dstLat: true,
  dstLon: true,
  amount: true,
  priceBreakdown: true,
  preOrderTime: true,
  arrivalAt: true,
  driverId: true,
} as const;

export interface TrackedOrder {
  id: number;
  uuid: string;
  cityId: number;
  state: OrderState;
  statusCode: number;
  street: string;
  house: string;
  lat: number | null;
  lon: number | null;
  dst: string;
  dstStreet: string;
  dstHouse: string;
  dstLat: number | null;
  dstLon: number | null;
  amount: number | null;
  priceBreakdown: unknown;
  preOrderTime: Date | null;
  arrivalAt: Date | null;
  driverId: number | null;
  /** When the order became final (null while it is not). */
  finalAt: Date | null;
}

/** When the order's last move into a final state was made. */
async function finalAt(db: DbOrTx, orderId: number): Promise<Date> {
  const last = await db.orderStatusChange.findFirst({ where: { orderId, toCode: { gte: 90 } }, orderBy: { id: "desc" }, select: { at: true } });
  // A final order always has its move in the history; without one, it counts as final since now.
  return last?.at ?? new Date();
}

export async function findTrackedOrder(db: DbOrTx, token: string, now = new Date()): Promise<TrackedOrder | null> {
  const uuid = uuidOfTrackingToken(token);
  if (!uuid) return null;
  const order = await db.order.findUnique({ where: { uuid }, select: trackedOrderSelect });
  if (!order || !isOrderState(order.state)) return null;
  const state = order.state;
  let final: Date | null = null;
  if (isDone(state)) {
    final = await finalAt(db, order.id);
    // At or past the limit (with 0 hours: as soon as the order is final).
    if (now.getTime() - final.getTime() >= config().TRACKING_LINK_HOURS * 3_600_000) return null;
  }
  return { ...order, state, finalAt: final };
}
