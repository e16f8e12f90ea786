// POST /order/update: the seller or the executor changes the order's status
// and/or fields. The status moves through the one state machine (canMove);
// moves that have their own operation are refused here (DONE: complete or
// cancel; back to the free orders while taken: rejectdriver; to a driver
// while nobody took it: take). Which fields may change: see
// checkFieldChanges. Anything refused is a BadRequest. The other party (or,
// while nobody took it, everyone it is on offer to) is told `updated`.
import type { Db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { DRIVER_HOLDING_STATES, FREE_STATES, canMove, isDone, stateOfCode, type OrderState } from "../../orders/states";
import { changedFields, checkFieldChanges, fareKopecks, mergeAttributes, type UpdateAttributes } from "../attributes";
import { badRequest, gone } from "../errors";
import { notify, orderKey } from "../notify";
import type { ExchangeCaller } from "../sessions";
import {
  announce,
  attributesOf,
  lockExchangeOrder,
  moveExchangeOrder,
  notificationAttributes,
  openOffers,
  orderResource,
  roleOf,
  type ExchangeOrderRow,
} from "./common";

function targetOf(order: ExchangeOrderRow, status: number | undefined): OrderState | undefined {
  if (status === undefined || status === order.statusCode) return undefined;
  const to = stateOfCode(status);
  if (!to) throw badRequest(`unknown status ${status}`, { parameter: "data.attributes.status" });
  if (to === order.state) return undefined;
  if (isDone(to)) {
    throw badRequest(`status ${status} ends the order: use /order/${to === "DONE_SUCCESSFUL" ? "complete" : "cancel"}`, {
      parameter: "data.attributes.status",
    });
  }
  const freeing = FREE_STATES.includes(to) || to === "PREORDER_FREE";
  if (freeing && order.executorId !== null) {
    throw badRequest(`status ${status} gives the order back: use /order/rejectdriver`, { parameter: "data.attributes.status" });
  }
  if (DRIVER_HOLDING_STATES.includes(to) && order.executorId === null) {
    throw badRequest(`status ${status} needs an executor: take the order with /order/take`, { parameter: "data.attributes.status" });
  }
  if (!canMove(order.state, to)) {
    throw badRequest(`the order cannot move from ${order.state} (${order.statusCode}) to ${to} (${status})`, {
      parameter: "data.attributes.status",
      from: order.statusCode,
      to: status,
    });
  }
  return to;
}

export async function updateOrder(db: Db, caller: ExchangeCaller, input: { id: number; attributes: UpdateAttributes }) {
  const { order, changed } = await db.$transaction(async (tx) => {
    const order = await lockExchangeOrder(tx, input.id);
    if (!order) throw gone(`order ${input.id} is not registered on the exchange`);
    const role = roleOf(order, caller.participantId, ["seller", "executor"]);
    if (order.state === "NOT_REGISTERED" || isDone(order.state)) {
      throw badRequest(`order ${order.id} is closed (${order.state}, ${order.statusCode})`, { parameter: "data.id" });
    }
    const current = attributesOf(order);
    const merged = mergeAttributes(current, input.attributes as Record<string, unknown>);
    const fields = changedFields(current, merged);
    checkFieldChanges(fields, role, order.executorId !== null, merged, current);
    const to = targetOf(order, input.attributes.status);
    if (fields.length === 0 && !to) return { order, changed: false };

    const data: Prisma.ExchangeOrderUncheckedUpdateInput = {};
    if (fields.length > 0) {
      data.attributes = merged as Prisma.InputJsonObject;
      if (fields.includes("fare")) data.fare = fareKopecks(typeof merged.fare === "number" ? merged.fare : 0);
    }
    let updated: ExchangeOrderRow;
    if (to) {
      updated = await moveExchangeOrder(tx, order, to, { participantId: caller.participantId, reason: `status set by the ${role}`, data });
    } else {
      await tx.exchangeOrder.update({ where: { id: order.id }, data, select: { id: true } });
      updated = { ...order, attributes: merged as Prisma.JsonValue, fare: typeof data.fare === "number" ? data.fare : order.fare };
    }
    const recipients =
      role === "executor" ? [order.sellerId] : order.executorId !== null ? [order.executorId] : await openOffers(tx, order.id);
    await notify(
      tx,
      recipients
        .filter((p) => p !== caller.participantId)
        .map((participantId) => ({
          participantId,
          topic: "order/updated" as const,
          orderingKey: orderKey(participantId, order.id),
          data: { id: String(order.id), attributes: notificationAttributes(updated, participantId === order.sellerId || participantId === order.executorId) },
        })),
    );
    return { order: updated, changed: true };
  });
  if (changed) announce([order]);
  return orderResource(order, { party: true });
}
