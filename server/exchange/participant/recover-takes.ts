// Takes whose answer was lost. A take is a direct call; if the exchange did
// not answer (timeout, 5xx, the connection dropped, or this process died
// between the exchange's yes and our local record), the order may be ours
// there while it is still TAKING here. Every job turn (server/exchange/jobs.ts)
// asks the exchange about takes that have been TAKING longer than
// EXCHANGE_TAKE_CHECK_SECONDS (longer than a call may last) with order/get:
//   - its executor is shown to us (only the parties see it; we are not the
//     seller): the take is ours; it is recorded as a successful take is;
//   - no executor and the order is FREE: our take did not happen; the offer
//     is open again;
//   - no executor and any other state: another participant took it, or it
//     was closed; the offer is closed here as a revoked one is.
// An unanswered order/get leaves the take for the next turn.
import { config } from "../../config";
import type { Db } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { log } from "../../log";
import { moveOrderInTx, publishMoves } from "../../orders/move-order";
import { codeOf } from "../../orders/states";
import { callExchange } from "./client";
import { recordTake, type PendingTake } from "./take";

export type TakeOutcome = "taken" | "offered" | "closed" | "unknown";

function pendingOf(value: Prisma.JsonValue | null): PendingTake | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.driverId !== "number" || typeof v.arrival !== "number" || typeof v.actor !== "object" || v.actor === null) return null;
  return v as unknown as PendingTake;
}

async function closeOffer(db: Db, orderId: number, exchangeId: string, reason: string): Promise<boolean> {
  const moves = await db.$transaction(async (tx) => {
    const closed = await tx.exchangeLink.updateMany({ where: { orderId, phase: "TAKING" }, data: { phase: "CLOSED", executor: Prisma.DbNull, note: reason } });
    if (closed.count === 0) return null;
    return [await moveOrderInTx(tx, { orderId, to: "DONE_REMOVED", actor: { type: "EXCHANGE", id: exchangeId }, reason })];
  });
  if (moves) publishMoves(moves);
  return moves !== null;
}

/** Settles one stuck take by asking the exchange. */
export async function recoverTake(db: Db, link: { orderId: number; exchangeOrderId: string; executor: Prisma.JsonValue | null }): Promise<TakeOutcome> {
  const reply = await callExchange(db, "order/get", { id: link.exchangeOrderId });
  const data = (reply.data ?? {}) as { attributes?: { executor?: unknown; status?: unknown } };
  const attributes = data.attributes ?? {};
  const pending = pendingOf(link.executor);
  if (attributes.executor && typeof attributes.executor === "object") {
    if (!pending) {
      // A claim from before claims kept the driver: only a person can finish it.
      await db.exchangeLink.updateMany({ where: { orderId: link.orderId, phase: "TAKING" }, data: { note: "the exchange shows us as the executor, but the driver of the take is unknown" } });
      return "unknown";
    }
    // As the executor we are shown the client (the take's reply was lost).
    const client = (attributes as { client?: unknown }).client;
    const contact = client && typeof client === "object" ? (client as { phone?: unknown; name?: unknown }) : {};
    return (await recordTake(db, {
      orderId: link.orderId,
      exchangeId: link.exchangeOrderId,
      pending,
      client: {
        ...(typeof contact.phone === "string" ? { phone: contact.phone.slice(0, 32) } : {}),
        ...(typeof contact.name === "string" ? { name: contact.name.slice(0, 200) } : {}),
      },
    }))
      ? "taken"
      : "unknown";
  }
  if (Number(attributes.status) === codeOf("FREE")) {
    const reopened = await db.exchangeLink.updateMany({
      where: { orderId: link.orderId, phase: "TAKING" },
      data: { phase: "OFFERED", executor: Prisma.DbNull, note: "our take did not reach the exchange" },
    });
    return reopened.count > 0 ? "offered" : "unknown";
  }
  return (await closeOffer(db, link.orderId, link.exchangeOrderId, "taken by another participant or closed while our take went unanswered")) ? "closed" : "unknown";
}

/** Every take TAKING for longer than EXCHANGE_TAKE_CHECK_SECONDS, settled with the exchange. */
export async function recoverTakes(db: Db): Promise<Record<TakeOutcome, number>> {
  const cutoff = new Date(Date.now() - config().EXCHANGE_TAKE_CHECK_SECONDS * 1000);
  const stuck = await db.exchangeLink.findMany({
    where: { role: "BOUGHT", phase: "TAKING", updatedAt: { lt: cutoff }, exchangeOrderId: { not: null } },
    select: { orderId: true, exchangeOrderId: true, executor: true },
    orderBy: { updatedAt: "asc" },
    take: 50,
  });
  const counts: Record<TakeOutcome, number> = { taken: 0, offered: 0, closed: 0, unknown: 0 };
  for (const link of stuck) {
    try {
      counts[await recoverTake(db, { ...link, exchangeOrderId: link.exchangeOrderId! })]++;
    } catch (error) {
      counts.unknown++;
      log.warn("exchange: a stuck take could not be checked", { orderId: link.orderId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  if (stuck.length > 0) log.info("exchange: stuck takes checked", counts);
  return counts;
}
