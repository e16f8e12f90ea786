// POST /order/complete: the executor reports the trip done (step 6). The
// order becomes DONE_SUCCESSFUL, the money moves (server/exchange/ledger.ts:
// the seller is credited the price, both pay their commission) and the
// seller is told `completed` with the completion data — one transaction.
import type { Db } from "../../db";
import { publish } from "../../events/bus";
import type { Prisma } from "../../generated/prisma/client";
import type { Completion } from "../attributes";
import { completionEntries, postEntries } from "../ledger";
import { notify, orderKey } from "../notify";
import type { ExchangeCaller } from "../sessions";
import { announce, lockOpenOrder, moveExchangeOrder, roleOf, withdrawOffers } from "./common";

export async function completeOrder(db: Db, caller: ExchangeCaller, input: { id: number; completion: Completion }): Promise<{ id: string }> {
  const completion = { ...input.completion } as Prisma.InputJsonObject;
  const { moved, posted } = await db.$transaction(async (tx) => {
    const order = await lockOpenOrder(tx, input.id);
    roleOf(order, caller.participantId, ["executor"]);
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
  announce([moved]);
  const last = new Map<number, bigint>();
  for (const p of posted) last.set(p.participantId, p.balanceAfter);
  for (const [id, balance] of last) publish({ type: "balance.changed", account: "exchange", id, balance: balance.toString() });
  return { id: String(moved.id) };
}
