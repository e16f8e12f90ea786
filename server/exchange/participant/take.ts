// One of our drivers takes an order the exchange offered us. The take is a
// direct call (the driver must know at once whether the order is his: of
// several takers only one wins; the others get Gone). On success the local
// copy is given to the driver: FREE -> SENT_TO_DRIVER (the exchange's own
// move, not reported back) -> CONFIRMED (reported as a status update).
import { z } from "zod";
import type { Actor } from "../../actor";
import type { Db } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { ExchangeError } from "../../errors";
import { moveOrderInTx, publishMoves, type MovedOrder } from "../../orders/move-order";
import { FREE_STATES, codeOf, isOrderState } from "../../orders/states";
import { driveMinutes } from "../../routing/arrival";
import { callExchange } from "./client";
import { DRIVER_SELECT, executorOf } from "./local-order";

export interface TakeOfferOptions {
  /** Minutes until the car arrives; estimated from the driver's position when not given. */
  arrivalMinutes?: number;
  actor?: Actor;
}

export async function takeOffer(db: Db, exchangeOrderId: number | string, driverId: number, options: TakeOfferOptions = {}) {
  const exchangeId = String(exchangeOrderId);
  const link = await db.exchangeLink.findUnique({
    where: { exchangeOrderId: exchangeId },
    select: { orderId: true, role: true, phase: true, order: { select: { state: true, cityId: true, lat: true, lon: true, service: { select: { name: true } } } } },
  });
  if (!link || link.role !== "BOUGHT") throw new ExchangeError("NOT_FOUND", { what: "Exchange offer", id: exchangeId });
  if (link.phase !== "OFFERED") throw new ExchangeError("GONE", { reason: `the offer of exchange order ${exchangeId} is ${link.phase.toLowerCase()}` });
  if (!isOrderState(link.order.state) || !FREE_STATES.includes(link.order.state)) {
    // The link and its order are read by two statements: a `revoked` that closed both in between is a lost offer.
    throw await whyNotTaken(db, link.orderId, exchangeId, `the local copy of exchange order ${exchangeId} is ${link.order.state}`);
  }
  const driver = await db.driver.findUnique({ where: { id: driverId }, select: DRIVER_SELECT });
  if (!driver || !driver.active) throw new ExchangeError("NOT_FOUND", { what: "Driver", id: driverId });
  const arrival = options.arrivalMinutes ?? (await driveMinutes(db, link.order.cityId, driver, link.order, { unknown: 10, maxMinutes: 180 }));
  const executor = executorOf(driver, link.order.service.name);

  // Only one take of ours at a time for this offer. The driver and arrival
  // are kept with the claim: if the answer is lost, recovery (below) finishes
  // the take with them once the exchange says the order is ours.
  const actor = options.actor ?? { type: "DRIVER" as const, id: String(driverId) };
  const pending: PendingTake = { ...executor, arrival, driverId, actor };
  const claimed = await db.exchangeLink.updateMany({
    where: { orderId: link.orderId, phase: "OFFERED" },
    data: { phase: "TAKING", executor: pending as unknown as Prisma.InputJsonObject, note: "" },
  });
  if (claimed.count === 0) throw await whyNotTaken(db, link.orderId, exchangeId, `exchange order ${exchangeId} is being taken already`);
  let reply: Record<string, unknown>;
  try {
    reply = await callExchange(db, "order/take", {
      id: exchangeId,
      orderId: String(link.orderId),
      attributes: { time: { arrival }, executor },
    });
  } catch (error) {
    const refused = error instanceof ExchangeError && typeof error.details.remoteStatus === "number" && error.details.remoteStatus < 500;
    if (!refused) {
      // No answer, or the exchange failed: the take may have happened there.
      // The order stays TAKING until recoverTakes asks the exchange.
      await db.exchangeLink.updateMany({ where: { orderId: link.orderId, phase: "TAKING" }, data: { note: `take unconfirmed: ${errorText(error)}` } });
      throw new ExchangeError("CONFLICT", { reason: `the exchange did not confirm the take of order ${exchangeId}; it will be checked with the exchange` });
    }
    await db.exchangeLink.updateMany({
      where: { orderId: link.orderId, phase: "TAKING" },
      data: { phase: "OFFERED", executor: Prisma.DbNull, note: errorText(error) },
    });
    throw error;
  }
  // The client's contact comes with the reply (our exchange; `restore` from older ones).
  const client = takeReply.safeParse(reply).data?.data.attributes?.client;
  await recordTake(db, { orderId: link.orderId, exchangeId, pending, ...(client ? { client } : {}) });
  return { exchangeOrderId: exchangeId, orderId: link.orderId, arrivalMinutes: arrival };
}

/**
 * The error for an offer that could not be claimed, decided by the link's phase
 * now: another take of ours under way (TAKING) is a conflict to try again
 * later; an offer no longer OFFERED (another participant took it and the
 * exchange's `revoked` closed our copy while we read it) is Gone, as when the
 * exchange itself refuses a take that lost (a CI run saw 409 where the loser
 * of two simultaneous takes must hear 410).
 */
async function whyNotTaken(db: Db, orderId: number, exchangeId: string, conflict: string): Promise<ExchangeError> {
  const now = await db.exchangeLink.findUnique({ where: { orderId }, select: { phase: true } });
  // Still offered, or being taken or taken by another driver of ours: the conflict it was.
  if (!now || now.phase === "OFFERED" || now.phase === "TAKING" || now.phase === "TAKEN") return new ExchangeError("CONFLICT", { reason: conflict });
  return new ExchangeError("GONE", { reason: `the offer of exchange order ${exchangeId} is ${now.phase.toLowerCase()}` });
}

/** What a claim keeps: the executor as sent, and our driver, arrival and actor. */
export interface PendingTake extends Record<string, unknown> {
  arrival: number;
  driverId: number;
  actor: Actor;
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : "take failed").slice(0, 500);
}

/**
 * The take is ours on the exchange: the local copy goes to the driver, FREE ->
 * SENT_TO_DRIVER (the exchange's own move, not reported back) -> CONFIRMED
 * (reported as a status update). Only from TAKING, decided by the row: a
 * second recorder (another instance's recovery) finds nothing to do.
 */
export const takeReply = z.object({
  data: z.object({
    attributes: z.object({ client: z.object({ phone: z.string().max(32).optional(), name: z.string().max(200).optional() }).optional() }).optional(),
  }),
});

export async function recordTake(
  db: Db,
  input: { orderId: number; exchangeId: string; pending: PendingTake; client?: { phone?: string; name?: string } },
): Promise<boolean> {
  const { orderId, exchangeId, pending, client } = input;
  const { driverId, actor, ...executor } = pending;
  const moves = await db.$transaction(async (tx) => {
    const won = await tx.exchangeLink.updateMany({
      where: { orderId, phase: "TAKING" },
      data: { phase: "TAKEN", remoteState: codeOf("SENT_TO_DRIVER"), executor: executor as Prisma.InputJsonObject, note: "" },
    });
    if (won.count === 0) return null;
    if (client?.phone || client?.name) {
      await tx.order.update({
        where: { id: orderId },
        data: { ...(client.phone ? { phone: client.phone } : {}), ...(client.name ? { clientName: client.name } : {}) },
        select: { id: true },
      });
    }
    const moves: MovedOrder[] = [];
    moves.push(
      await moveOrderInTx(tx, {
        orderId,
        to: "SENT_TO_DRIVER",
        driverId,
        arrivalMinutes: pending.arrival,
        actor: { type: "EXCHANGE", id: exchangeId },
        reason: "taken on the exchange",
      }),
    );
    moves.push(await moveOrderInTx(tx, { orderId, to: "CONFIRMED", actor, reason: "the driver took the exchange order" }));
    return moves;
  });
  if (!moves) return false;
  publishMoves(moves);
  return true;
}
