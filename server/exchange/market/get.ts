// POST /order/get: one order (data.id) or several (data.orders). A
// participant sees the orders it sells, executes or was offered; the seller
// and the executor also see the client and the executor's driver. For one id: NotFound or
// Forbidden; in a list, orders it may not see are left out.
import type { Db } from "../../db";
import { forbidden, notFound } from "../errors";
import type { ExchangeCaller } from "../sessions";
import { orderResource, readExchangeOrder, type ExchangeOrderRow } from "./common";

async function visible(db: Db, caller: ExchangeCaller, order: ExchangeOrderRow): Promise<"party" | "offered" | false> {
  if (order.sellerId === caller.participantId || order.executorId === caller.participantId) return "party";
  const offer = await db.exchangeOffer.findUnique({
    where: { exchangeOrderId_participantId: { exchangeOrderId: order.id, participantId: caller.participantId } },
    select: { participantId: true },
  });
  return offer ? "offered" : false;
}

export async function getOrder(db: Db, caller: ExchangeCaller, id: number) {
  const order = await readExchangeOrder(db, id);
  if (!order) throw notFound("Order", id);
  const access = await visible(db, caller, order);
  if (!access) throw forbidden(`order ${id} is not visible to this participant`);
  return orderResource(order, { party: access === "party" });
}

export async function getOrders(db: Db, caller: ExchangeCaller, ids: number[]) {
  const out: Array<ReturnType<typeof orderResource>> = [];
  for (const id of [...new Set(ids)].slice(0, 100)) {
    const order = await readExchangeOrder(db, id);
    if (!order) continue;
    const access = await visible(db, caller, order);
    if (access) out.push(orderResource(order, { party: access === "party" }));
  }
  return out;
}
