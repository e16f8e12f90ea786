// POST /order/complete: the executor reports the trip done (step 6). The
// order becomes DONE_SUCCESSFUL, the money moves (server/exchange/ledger.ts:
// the seller is credited the price, both pay their commission) and the
// seller is told `completed` with the completion data — one transaction.
//
// Also reached by cancel (status 100) and update (status 100), the calls a
// participant mirroring its own statuses uses. The seller may end an order
// nobody took as DONE_SUCCESSFUL (its own driver did the trip): no money
// moves and those it was on offer to are told `cancelled` with "100"; an
// order that has an executor is completed only by the executor (Forbidden
// for the seller: the money moves at completion). Completing again an order
// already DONE_SUCCESSFUL answers as the first time and changes nothing.
import type { Db } from "../../db";
import { publish } from "../../events/bus";
import type { Prisma } from "../../generated/prisma/client";
import type { Completion } from "../attributes";
import { completionEntries, postEntries } from "../ledger";
import { notify, orderKey } from "../notify";
import type { ExchangeCaller } from "../sessions";
import { codeOf } from "../../orders/states";
import { forbidden } from "../errors";
import { announce, lockExchangeOrder, lockOpenOrder, moveExchangeOrder, openOffers, roleOf, withdrawOffers } from "./common";

export async function completeOrder(db: Db, caller: ExchangeCaller, input: { id: number; completion: Completion }): Promise<{ id: string }> {
  const completion = { ...input.completion } as Prisma.InputJsonObject;
  const { moved, posted } = await db.$transaction(async (tx) => {
    const done = await lockExchangeOrder(tx, input.id);
    if (done?.state === "DONE_SUCCESSFUL") {
      roleOf(done, caller.participantId, ["seller", "executor"]);
      return { moved: null, posted: [] };
    }
    const order = await lockOpenOrder(tx, input.id);
    const role = roleOf(order, caller.participantId, ["seller", "executor"]);
    if (role === "seller" && order.executorId !== null) throw forbidden(`order ${order.id} has an executor: only the executor completes it`);
    if (role === "seller") {
      const offered = await openOffers(tx, order.id);
      const moved = await moveExchangeOrder(tx, order, "DONE_SUCCESSFUL", { participantId: caller.participantId, reason: "done by the seller", data: { completedAt: new Date() } });
      await withdrawOffers(tx, order.id);
      await notify(
        tx,
        offered.map((participantId) => ({
          participantId,
          topic: "order/cancelled" as const,
          orderingKey: orderKey(participantId, order.id),
          data: { id: String(order.id), status: String(codeOf("DONE_SUCCESSFUL")), reason: "done by the seller" },
        })),
      );
      return { moved, posted: [] };
    }
    const moved = await moveExchangeOrder(tx, order, "DONE_SUCCESSFUL", {
      participantId: caller.participantId,
      reason: "completed",
      data: { completion, completedAt: new Date() },
    });
    await withdrawOffers(tx, order.id);
    const parties = await tx.exchangeParticipant.findMany({
      where: { id: { in: [order.sellerId, caller.participantId] } },
      select: { id: true, commissionBp: true },
    });
    const seller = parties.find((p) => p.id === order.sellerId);
    const buyer = parties.find((p) => p.id === caller.participantId);
    const posted =
      seller && buyer ? await postEntries(tx, completionEntries({ exchangeOrderId: order.id, price: BigInt(order.fare), seller, buyer })) : [];
    await notify(tx, [
      {
        participantId: order.sellerId,
        topic: "order/completed",
        orderingKey: orderKey(order.sellerId, order.id),
        data: { id: String(order.id), attributes: completion },
      },
    ]);
    return { moved, posted };
  });
  if (!moved) return { id: String(input.id) };
  announce([moved]);
  const last = new Map<number, bigint>();
  for (const p of posted) last.set(p.participantId, p.balanceAfter);
  for (const [id, balance] of last) publish({ type: "balance.changed", account: "exchange", id, balance: balance.toString() });
  return { id: String(moved.id) };
}
