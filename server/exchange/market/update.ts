// POST /order/update: the seller or the executor changes the order's status
// and/or fields. The status moves through the one state machine (canMove).
// A participant mirroring its own statuses uses update for every move, so
// the moves that have their own operation are made by it here: a DONE
// status ends the order as cancel does (100: as complete does; other fields
// of such a call are not applied); back to the free orders while taken is a
// rejectdriver. The executor's driver states need an executor: the seller
// may move an order nobody took into them (its own driver has it): the
// order is then off the market (offers withdrawn, `revoked` to those it was
// offered to) until it leaves the drivers' states (offered again: `received`).
// Which fields may change: see checkFieldChanges. A move the table does not
// allow, or a field that may not change, is a BadRequest; so is a change of
// an order that has ended (the same status again is answered with the order
// and changes nothing). The other party (or, while nobody took it, everyone
// it is on offer to) is told `updated`.
import type { Db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { DRIVER_HOLDING_STATES, RELEASING_STATES, canMove, codeOf, isDone, stateOfCode, type OrderState } from "../../orders/states";
import { changedFields, checkFieldChanges, fareKopecks, mergeAttributes, type UpdateAttributes } from "../attributes";
import { badRequest, gone } from "../errors";
import { notify, orderKey, type Notification } from "../notify";
import type { ExchangeCaller } from "../sessions";
import { cancelOrder } from "./cancel";
import {
  announce,
  attributesOf,
  interestedParticipants,
  lockExchangeOrder,
  moveExchangeOrder,
  notificationAttributes,
  openOffers,
  openOffersFor,
  orderResource,
  readExchangeOrder,
  roleOf,
  withdrawOffers,
  type ExchangeOrderRow,
} from "./common";
import { completeOrder } from "./complete";
import { rejectDriver } from "./reject-driver";

type Target = { kind: "none" } | { kind: "move"; to: OrderState } | { kind: "end"; to: OrderState } | { kind: "free" };

function targetOf(order: ExchangeOrderRow, status: number | undefined): Target {
  if (status === undefined || status === order.statusCode) return { kind: "none" };
  const to = stateOfCode(status);
  if (!to) throw badRequest(`unknown status ${status}`, { parameter: "data.attributes.status" });
  if (to === order.state) return { kind: "none" };
  if (isDone(to)) return { kind: "end", to };
  if (RELEASING_STATES.includes(to) && order.executorId !== null) return { kind: "free" };
  if (!canMove(order.state, to)) {
    throw badRequest(`the order cannot move from ${order.state} (${order.statusCode}) to ${to} (${status})`, {
      parameter: "data.attributes.status",
      from: order.statusCode,
      to: status,
    });
  }
  return { kind: "move", to };
}

/** Whether the order is on the market: nobody took it and no driver of the seller's holds it. */
function onMarket(order: Pick<ExchangeOrderRow, "state" | "executorId">): boolean {
  return order.executorId === null && !DRIVER_HOLDING_STATES.includes(order.state);
}

export async function updateOrder(db: Db, caller: ExchangeCaller, input: { id: number; attributes: UpdateAttributes }) {
  const first = await readExchangeOrder(db, input.id);
  if (!first) throw gone(`order ${input.id} is not registered on the exchange`);
  roleOf(first, caller.participantId, ["seller", "executor"]);
  // The moves that have their own operation, made by it.
  if (first.state !== "NOT_REGISTERED" && !isDone(first.state)) {
    const target = targetOf(first, input.attributes.status);
    if (target.kind === "end") {
      if (target.to === "DONE_SUCCESSFUL") await completeOrder(db, caller, { id: first.id, completion: {} });
      else await cancelOrder(db, caller, { id: first.id, status: codeOf(target.to), reason: "status set with order/update" });
      return resourceNow(db, first.id);
    }
    if (target.kind === "free") {
      await rejectDriver(db, caller, { id: first.id, reason: "status set with order/update" });
      return resourceNow(db, first.id);
    }
  }
  const { order, changed } = await db.$transaction(async (tx) => {
    const order = await lockExchangeOrder(tx, input.id);
    if (!order) throw gone(`order ${input.id} is not registered on the exchange`);
    const role = roleOf(order, caller.participantId, ["seller", "executor"]);
    const current = attributesOf(order);
    const merged = mergeAttributes(current, input.attributes);
    const fields = changedFields(current, merged);
    const status = input.attributes.status;
    if (order.state === "NOT_REGISTERED" || isDone(order.state)) {
      if (fields.length === 0 && (status === undefined || status === order.statusCode)) return { order, changed: false };
      throw badRequest(`order ${order.id} has ended (${order.state}, ${order.statusCode})`, { parameter: "data.id" });
    }
    checkFieldChanges(fields, role, order.executorId !== null, merged, current);
    const target = targetOf(order, status);
    if (target.kind === "end" || target.kind === "free") throw badRequest(`order ${order.id} changed meanwhile; send the update again`, { parameter: "data.id" });
    const to = target.kind === "move" ? target.to : undefined;
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
    const offered = order.executorId === null ? await openOffers(tx, order.id) : [];
    const recipients = role === "executor" ? [order.sellerId] : order.executorId !== null ? [order.executorId] : offered;
    const messages: Notification[] = recipients
      .filter((p) => p !== caller.participantId)
      .map((participantId) => ({
        participantId,
        topic: "order/updated" as const,
        orderingKey: orderKey(participantId, order.id),
        data: { id: String(order.id), attributes: notificationAttributes(updated, participantId === order.sellerId || participantId === order.executorId) },
      }));
    // Off the market while the seller's own driver has it; offered again when it is free again.
    if (onMarket(order) && !onMarket(updated)) {
      await withdrawOffers(tx, order.id);
      for (const participantId of offered) {
        messages.push({ participantId, topic: "order/revoked", orderingKey: orderKey(participantId, order.id), data: { id: order.id, reason: "no longer on offer" } });
      }
    } else if (!onMarket(order) && onMarket(updated)) {
      const again = await interestedParticipants(tx, order.carClass, [order.sellerId]);
      await openOffersFor(tx, order.id, again);
      for (const participantId of again) {
        messages.push({
          participantId,
          topic: "order/received",
          orderingKey: orderKey(participantId, order.id),
          data: { id: String(order.id), type: "order", attributes: notificationAttributes(updated, false) },
        });
      }
    }
    await notify(tx, messages);
    return { order: updated, changed: true };
  });
  if (changed) announce([order]);
  return orderResource(order, { party: true });
}

async function resourceNow(db: Db, id: number) {
  const order = await readExchangeOrder(db, id);
  if (!order) throw gone(`order ${id} is not registered on the exchange`);
  return orderResource(order, { party: true });
}
