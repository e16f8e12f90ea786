// POST /order/cancel and POST /order/revoke.
//
// Cancel: the seller or the executor ends the order with a status: a DONE
// status other than 100 (91 to 99; default 95, the client refused). The
// other party — and while nobody has taken it, everyone it is on offer to —
// is told `cancelled`.
//
// Revoke: the seller withdraws the order from the exchange (DONE_REMOVED);
// everyone it is on offer to and its executor are told `revoked`.
import type { Db } from "../../db";
import { DONE_STATES, codeOf, stateOfCode, type OrderState } from "../../orders/states";
import { badRequest, gone } from "../errors";
import { notify, orderKey } from "../notify";
import type { ExchangeCaller } from "../sessions";
import { announce, lockOpenOrder, moveExchangeOrder, openOffers, roleOf, withdrawOffers } from "./common";

export const CANCEL_STATES: OrderState[] = DONE_STATES.filter((s) => s !== "DONE_SUCCESSFUL");

export interface CancelInput {
  id: number;
  status?: number;
  reason?: string;
}

export async function cancelOrder(db: Db, caller: ExchangeCaller, input: CancelInput): Promise<{ id: number }> {
  const status = input.status ?? codeOf("DONE_CANCELLED");
  const target = stateOfCode(status);
  if (!target || !CANCEL_STATES.includes(target)) {
    throw badRequest(`status ${status} is not a cancellation status (91 to 99)`, { parameter: "data.status" });
  }
  const reason = (input.reason ?? "").slice(0, 500);
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
