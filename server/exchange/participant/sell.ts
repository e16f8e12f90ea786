// Selling our orders on the exchange: by hand (sellOrder, for the console)
// and by rule (sellDueOrders: an order that has been FREE for
// EXCHANGE_SELL_AFTER_MINUTES). The sale is queued in the outbox in the
// same transaction as the link (phase SELLING); the exchange answers with
// the notifications registered / refused and accepted (inbound.ts).
import type { Actor } from "../../actor";
import { config } from "../../config";
import type { Db, Tx } from "../../db";
import { sqlQuery } from "../../db/sql";
import { ExchangeError, isDomainError } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import { log } from "../../log";
import { wakeOutbox } from "../../notifications/wake";
import { lockOrder } from "../../orders/move-order";
import { FREE_STATES, isOrderState } from "../../orders/states";
import { enqueueCall, requireSettings } from "./client";
import { attributesOfLocal, SELL_SELECT } from "./local-order";

/** Link phases in which a sold order is (or is about to be) on the exchange. */
export const LIVE_SOLD_PHASES = ["SELLING", "REGISTERED", "ACCEPTED", "TAKEN"];

/** Queues POST /order for a local order under `sourceId` (a sale, or the restore of a cancelled one). */
export async function queueRegistration(tx: Tx, orderId: number, sourceId: string): Promise<void> {
  const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: SELL_SELECT });
  await enqueueCall(tx, orderId, "order", { id: sourceId, type: "order", attributes: attributesOfLocal(order) });
}

export async function sellOrder(db: Db, orderId: number, actor: Actor): Promise<{ orderId: number; sourceId: string }> {
  requireSettings();
  const result = await db.$transaction(async (tx) => {
    const locked = await lockOrder(tx, { orderId });
    if (!isOrderState(locked.state) || !FREE_STATES.includes(locked.state)) {
      throw new ExchangeError("CONFLICT", { reason: `only a free order can be sold; order ${orderId} is ${locked.state}` });
    }
    const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { source: true, lat: true, lon: true, driverId: true } });
    if (order.source === "EXCHANGE") throw new ExchangeError("CONFLICT", { reason: `order ${orderId} came from the exchange and cannot be sold there` });
    if (order.lat === null || order.lon === null) {
      throw new ExchangeError("BAD_PARAMETER", { parameter: "lat", expected: "start coordinates (the exchange requires them)", reason: `order ${orderId} has no start coordinates` });
    }
    const link = await tx.exchangeLink.findUnique({ where: { orderId }, select: { role: true, phase: true } });
    if (link?.role === "BOUGHT") throw new ExchangeError("CONFLICT", { reason: `order ${orderId} was bought on the exchange` });
    if (link && LIVE_SOLD_PHASES.includes(link.phase)) throw new ExchangeError("CONFLICT", { reason: `order ${orderId} is already on the exchange (${link.phase})` });
    // A second sale (after a refusal or a revocation) goes under a new id.
    const sourceId = link ? `${orderId}-${Date.now().toString(36)}` : String(orderId);
    const fields = { role: "SOLD" as const, sourceId, exchangeOrderId: null, phase: "SELLING", remoteState: null, note: `sold by ${actor.type}${actor.id ? ` ${actor.id}` : ""}` };
    await tx.exchangeLink.upsert({
      where: { orderId },
      create: { orderId, ...fields },
      update: { ...fields, executor: Prisma.DbNull, completion: Prisma.DbNull },
      select: { orderId: true },
    });
    await queueRegistration(tx, orderId, sourceId);
    return { orderId, sourceId, uuid: locked.uuid, state: locked.state };
  });
  wakeOutbox();
  log.info("order sold to the exchange", { orderId, sourceId: result.sourceId, actor: actor.type });
  return { orderId: result.orderId, sourceId: result.sourceId };
}

/** The rule: sells orders that have been FREE for EXCHANGE_SELL_AFTER_MINUTES (a few per turn). */
export async function sellDueOrders(db: Db, limit = 20): Promise<number> {
  const minutes = config().EXCHANGE_SELL_AFTER_MINUTES;
  if (minutes <= 0) return 0;
  const due = await sqlQuery<{ id: number }>(
    db,
    `SELECT o.id FROM orders o
      WHERE o.state = 'FREE' AND o.source <> 'EXCHANGE' AND o.lat IS NOT NULL AND o.lon IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM exchange_link l WHERE l.order_id = o.id)
        AND COALESCE((SELECT max(h.at) FROM order_status_change h WHERE h.order_id = o.id AND h.to_state = 'FREE'), o.created_at)
            <= now() - ($1 || ' minutes')::interval
      ORDER BY o.id
      LIMIT ${Math.max(1, Math.floor(limit))}`,
    [String(minutes)],
  );
  let sold = 0;
  for (const { id } of due) {
    try {
      await sellOrder(db, id, { type: "SYSTEM", id: "exchange-sell-rule" });
      sold++;
    } catch (error) {
      // The order moved on since the rule read it (a driver took it, a
      // dispatcher changed it): expected, nothing to act on.
      if (isDomainError(error) && error.code === "CONFLICT") log.debug("the sell rule was overtaken", { orderId: id, reason: error.details.reason });
      else log.warn("the sell rule could not sell an order", { orderId: id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return sold;
}
