// Our dispatch server as an exchange participant: what a local move of an
// order tells the exchange. Runs inside the move's transaction for every
// local move (server/orders/move-effects.ts); calls are queued in the outbox
// (channel "exchange-call") and go out in order per order.
//
// Moves made by the exchange's notifications (actor EXCHANGE) are not
// reported back. Otherwise, for an order we SOLD:
//   to a DONE state        cancel with that status (DONE_SUCCESSFUL: revoke
//                          while nobody took it, else nothing)
//   to a driver's state    while nobody took it: revoke (our own driver has it)
//   back to FREE           while taken: rejectdriver (the seller removes the driver)
//   anything else          update with the new status
// and for an order we BOUGHT (our driver executes it):
//   DONE_SUCCESSFUL        complete (fare, distance, times)
//   DONE_DRIVER_REJECTED   rejectdriver with the reason
//   other DONE             cancel with that status
//   back to FREE           refused: give an exchange order back with 99
//   anything else          update with the new status
// An offer we have not taken cannot be given to a driver by a move (take it
// with takeOffer); it can be closed locally.
import type { Tx } from "../../db";
import { OrderError } from "../../errors";
import type { MovedOrder } from "../../orders/move-order";
import { DRIVER_HOLDING_STATES, RELEASING_STATES, codeOf, isDone } from "../../orders/states";
import { enqueueCall, participantSettings } from "./client";

async function setLink(tx: Tx, orderId: number, data: { phase?: string; remoteState?: number }): Promise<void> {
  await tx.exchangeLink.update({ where: { orderId }, data, select: { orderId: true } });
}

export async function exchangeMoveEffects(tx: Tx, moved: MovedOrder): Promise<void> {
  if (moved.from === moved.to) return;
  // Most orders never meet the exchange: the move's own statement looked (MovedOrder.found; the dispatch moves hundreds a round).
  if (!moved.found.exchangeLinked) return;
  const link = await tx.exchangeLink.findUnique({
    where: { orderId: moved.id },
    select: { role: true, phase: true, exchangeOrderId: true, remoteState: true },
  });
  if (!link) return;
  const last = await tx.orderStatusChange.findFirst({
    where: { orderId: moved.id },
    orderBy: { id: "desc" },
    select: { actorType: true, reason: true },
  });
  if (last?.actorType === "EXCHANGE") return;
  const reason = last?.reason ?? "";
  const code = codeOf(moved.to);

  if (link.role === "BOUGHT") {
    if (link.phase === "CLOSED") return;
    if (link.phase !== "TAKEN") {
      if (DRIVER_HOLDING_STATES.includes(moved.to)) {
        throw new OrderError("CONFLICT", { reason: "this order is an exchange offer: a driver takes it through the exchange (takeOffer)" });
      }
      if (isDone(moved.to)) await setLink(tx, moved.id, { phase: "CLOSED" });
      return;
    }
    if (!participantSettings() || !link.exchangeOrderId) return;
    const id = link.exchangeOrderId;
    if (RELEASING_STATES.includes(moved.to)) {
      throw new OrderError("CONFLICT", { reason: "an exchange order is given back by moving it to DONE_DRIVER_REJECTED (99)" });
    }
    if (moved.to === "DONE_SUCCESSFUL") {
      const order = await tx.order.findUniqueOrThrow({ where: { id: moved.id }, select: { amount: true, distance: true, startTime: true } });
      await enqueueCall(tx, moved.id, "order/complete", {
        id,
        attributes: {
          fare: ((order.amount ?? 0) / 100).toFixed(2),
          distance: String(order.distance ?? 0),
          time: { completed: new Date().toISOString(), standing: "0", waiting: "0" },
        },
      });
      await setLink(tx, moved.id, { phase: "CLOSED", remoteState: code });
    } else if (moved.to === "DONE_DRIVER_REJECTED") {
      await enqueueCall(tx, moved.id, "order/rejectdriver", { id, reason: reason || "the driver refused" });
      await setLink(tx, moved.id, { phase: "CLOSED", remoteState: codeOf("FREE") });
    } else if (isDone(moved.to)) {
      await enqueueCall(tx, moved.id, "order/cancel", { id, status: code, reason });
      await setLink(tx, moved.id, { phase: "CLOSED", remoteState: code });
    } else if (code !== link.remoteState) {
      await enqueueCall(tx, moved.id, "order/update", { id, attributes: { status: code } });
      await setLink(tx, moved.id, { remoteState: code });
    }
    return;
  }

  // SOLD
  if (!participantSettings()) return;
  if (!["REGISTERED", "ACCEPTED", "TAKEN"].includes(link.phase) || !link.exchangeOrderId) return; // SELLING: settled on `registered`
  const id = link.exchangeOrderId;
  const taken = link.phase === "TAKEN";
  if (moved.to === "DONE_SUCCESSFUL") {
    if (!taken) {
      await enqueueCall(tx, moved.id, "order/revoke", { id });
      await setLink(tx, moved.id, { phase: "CLOSED", remoteState: codeOf("DONE_REMOVED") });
    }
    return;
  }
  if (isDone(moved.to)) {
    await enqueueCall(tx, moved.id, "order/cancel", { id, status: code, reason });
    await setLink(tx, moved.id, { phase: "CLOSED", remoteState: code });
    return;
  }
  if (!taken && DRIVER_HOLDING_STATES.includes(moved.to)) {
    await enqueueCall(tx, moved.id, "order/revoke", { id });
    await setLink(tx, moved.id, { phase: "CLOSED", remoteState: codeOf("DONE_REMOVED") });
    return;
  }
  if (taken && RELEASING_STATES.includes(moved.to)) {
    await enqueueCall(tx, moved.id, "order/rejectdriver", { id });
    await setLink(tx, moved.id, { phase: "ACCEPTED", remoteState: codeOf("FREE") });
    return;
  }
  if (code !== link.remoteState) {
    await enqueueCall(tx, moved.id, "order/update", { id, attributes: { status: code } });
    await setLink(tx, moved.id, { remoteState: code });
  }
}
