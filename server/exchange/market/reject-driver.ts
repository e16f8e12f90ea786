// POST /order/rejectdriver: the executor gives the order back (with a
// reason), or the seller removes the executor's driver. The order returns
// among the free orders (FREE) without an executor; the other party is told
// `rejectdriver` (the reason only when the executor refused), and the order
// is offered again (`received`) to the interested participants other than
// the removed executor. Not acceptable when the order has no executor or its
// trip has begun (IN_PROCESS, AWAITING_PAYMENT, AWAITING_COMPLETION).
import type { Db } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { TRIP_STARTED_STATES } from "../../orders/states";
import { notAcceptable } from "../errors";
import { notify, orderKey, type Notification } from "../notify";
import type { ExchangeCaller } from "../sessions";
import {
  announce,
  interestedParticipants,
  lockOpenOrder,
  moveExchangeOrder,
  notificationAttributes,
  openOffersFor,
  roleOf,
  withdrawOffers,
} from "./common";

export async function rejectDriver(db: Db, caller: ExchangeCaller, input: { id: number; reason?: string }): Promise<{ id: number }> {
  const reason = (input.reason ?? "").slice(0, 500);
  const moved = await db.$transaction(async (tx) => {
    const order = await lockOpenOrder(tx, input.id);
    const role = roleOf(order, caller.participantId, ["seller", "executor"]);
    const removed = order.executorId;
    if (removed === null) throw notAcceptable(`order ${order.id} has no executor`);
    if (TRIP_STARTED_STATES.includes(order.state)) throw notAcceptable(`the trip of order ${order.id} has begun (${order.state})`);
    const moved = await moveExchangeOrder(tx, order, "FREE", {
      participantId: caller.participantId,
      reason: role === "executor" ? reason || "the executor refused" : "the seller removed the driver",
      data: { executorId: null, executorOrderId: null, executor: Prisma.DbNull, arrivalMinutes: null, takenAt: null },
    });
    await withdrawOffers(tx, order.id);
    const again = await interestedParticipants(tx, order.carClass, [order.sellerId, removed]);
    await openOffersFor(tx, order.id, again);
    const other = role === "executor" ? order.sellerId : removed;
    const messages: Notification[] = [
      {
        participantId: other,
        topic: "order/rejectdriver",
        orderingKey: orderKey(other, order.id),
        data: role === "executor" ? { id: String(order.id), reason } : { id: String(order.id) },
      },
      ...again.map(
        (participantId): Notification => ({
          participantId,
          topic: "order/received",
          orderingKey: orderKey(participantId, order.id),
          data: { id: String(order.id), type: "order", attributes: notificationAttributes(moved, false) },
        }),
      ),
    ];
    await notify(tx, messages);
    return moved;
  });
  announce([moved]);
  return { id: moved.id };
}
