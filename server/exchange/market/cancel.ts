// POST /order/cancel and POST /order/revoke.
//
// Cancel: the seller or the executor ends the order with a status: 91 to 99
// (default 95, the client refused); 19 (CANCELLED_BY_CLIENT, which no move
// of the reference's table enters) ends it as 95; 100 is a completion
// (complete.ts: by the executor; by the seller of an order nobody took).
// The other party — and while nobody has taken it, everyone it is on offer
// to — is told `cancelled` with the status the order ended with. The same
// cancellation again (the order already ended with that status) answers as
// the first did and changes nothing; a status that ends nothing is a
// TypeError (BadRequest is not among cancel's errors in the reference).
//
// Revoke: the seller withdraws the order from the exchange (DONE_REMOVED);
// everyone it is on offer to and its executor are told `revoked`.
import type { Db } from "../../db";
import { DONE_STATES, codeOf, stateOfCode, type OrderState } from "../../orders/states";
import { gone, wrongType } from "../errors";
import { notify, orderKey } from "../notify";
import type { ExchangeCaller } from "../sessions";
import { announce, lockExchangeOrder, lockOpenOrder, moveExchangeOrder, openOffers, roleOf, withdrawOffers } from "./common";
import { completeOrder } from "./complete";


export interface CancelInput {
  id: number;
  status?: number;
  reason?: string;
}

/** The state a cancellation with this status ends the order in; TypeError for a status that ends nothing. */
export function cancellationTarget(status: number | undefined, parameter = "data.status"): OrderState {
  const code = status ?? codeOf("DONE_CANCELLED");
  if (code === codeOf("CANCELLED_BY_CLIENT")) return "DONE_CANCELLED";
  const target = stateOfCode(code);
  if (!target || !DONE_STATES.includes(target)) throw wrongType(parameter, "a status that ends the order (19, or 91 to 100)");
  return target;
}

export async function cancelOrder(db: Db, caller: ExchangeCaller, input: CancelInput): Promise<{ id: number }> {
  const target = cancellationTarget(input.status);
  if (target === "DONE_SUCCESSFUL") {
    const done = await completeOrder(db, caller, { id: input.id, completion: {} });
    return { id: Number(done.id) };
  }
  const reason = (input.reason ?? "").slice(0, 500);
  const again = await alreadyEnded(db, caller, input.id, target);
  if (again) return { id: again };
  const moved = await db.$transaction(async (tx) => {
    const order = await lockOpenOrder(tx, input.id);
    const role = roleOf(order, caller.participantId, ["seller", "executor"]);
    const offered = order.executorId === null ? await openOffers(tx, order.id) : [];
    const moved = await moveExchangeOrder(tx, order, target, {
      participantId: caller.participantId,
      reason: reason || `cancelled by the ${role}`,
      data: { cancelReason: reason },
    });
    await withdrawOffers(tx, order.id);
    const recipients = new Set<number>([order.sellerId, ...(order.executorId !== null ? [order.executorId] : offered)]);
    recipients.delete(caller.participantId);
    await notify(
      tx,
      [...recipients].map((participantId) => ({
        participantId,
        topic: "order/cancelled" as const,
        orderingKey: orderKey(participantId, order.id),
        data: { id: String(order.id), status: String(codeOf(target)), reason },
      })),
    );
    return moved;
  });
  announce([moved]);
  return { id: moved.id };
}

/** The order already ended with this state, and the caller was a party: its id (a repeated call). */
async function alreadyEnded(db: Db, caller: ExchangeCaller, id: number, target: OrderState): Promise<number | undefined> {
  return db.$transaction(async (tx) => {
    const order = await lockExchangeOrder(tx, id);
    if (!order || order.state !== target) return undefined;
    roleOf(order, caller.participantId, ["seller", "executor"]);
    return order.id;
  });
}

export async function revokeOrder(db: Db, caller: ExchangeCaller, input: { id: number }): Promise<{ id: number }> {
  const moved = await db.$transaction(async (tx) => {
    const order = await tx.exchangeOrder.findUnique({ where: { id: input.id }, select: { revokedAt: true } });
    if (order?.revokedAt) throw gone(`order ${input.id} is already revoked`);
    const open = await lockOpenOrder(tx, input.id);
    roleOf(open, caller.participantId, ["seller"]);
    const recipients = new Set<number>(await openOffers(tx, open.id));
    if (open.executorId !== null) recipients.add(open.executorId);
    recipients.delete(caller.participantId);
    const moved = await moveExchangeOrder(tx, open, "DONE_REMOVED", {
      participantId: caller.participantId,
      reason: "revoked by the seller",
      data: { revokedAt: new Date() },
    });
    await withdrawOffers(tx, open.id);
    await notify(
      tx,
      [...recipients].map((participantId) => ({
        participantId,
        topic: "order/revoked" as const,
        orderingKey: orderKey(participantId, open.id),
        data: { id: open.id },
      })),
    );
    return moved;
  });
  announce([moved]);
  return { id: moved.id };
}
