// A driver's answer to an offer, and the offer's timeout. Accepting a LIVE
// offer confirms the order (SENT_TO_DRIVER -> CONFIRMED with the arrival
// time), a CHAIN offer binds it (FREE -> BOUND), an ADVANCE offer attaches it
// (PREORDER_FREE -> PREORDER_ATTACHED). A refusal or a timeout gives a LIVE
// order back (SENT_TO_DRIVER -> FREE) and escalates; the driver is never
// offered that order again. Every outcome is kept on the offer row (who,
// when, what, why): the order card's list of attempts.
import type { Db, Tx } from "../db";
import type { Actor } from "../actor";
import { SYSTEM_ACTOR } from "../actor";
import { OrderError } from "../errors";
import { lockOrder, moveOrderInTx, publishMoves, type LockedOrder, type MovedOrder } from "../orders/move-order";
import { escalateInTx } from "./escalate";
import { publishOffer } from "./offer";
import { sqlQuery } from "../db/sql";
import { countTimeoutInTx } from "./liveness";

export interface OfferAnswerer {
  id: number;
  callSign: string;
}

interface LiveOfferRow {
  id: number;
  orderId: number;
  driverId: number;
  kind: "LIVE" | "CHAIN" | "ADVANCE";
  deadline: Date;
  arrivalSeconds: number | null;
}

// The offer's row, read and locked in one statement by hand: every answer and every timeout reads one (an ORM
// call costs a query compilation in the process: docs/performance.md, "A fleet of ten thousand").
const OFFER_COLUMNS = `id, order_id AS "orderId", driver_id AS "driverId", kind::text AS kind,
  (extract(epoch FROM deadline) * 1000)::float8 AS "deadlineMs", arrival_seconds AS "arrivalSeconds"`;

type RawOfferRow = Omit<LiveOfferRow, "deadline"> & { deadlineMs: number };

async function lockedOffer(tx: Tx, where: string, params: unknown[]): Promise<LiveOfferRow | undefined> {
  const [raw] = await sqlQuery<RawOfferRow>(tx, `SELECT ${OFFER_COLUMNS} FROM dispatch_offer WHERE ${where} FOR UPDATE`, params);
  if (!raw) return undefined;
  const { deadlineMs, ...offer } = raw;
  return { ...offer, deadline: new Date(deadlineMs) };
}

/** The driver's live offer of the order, locked (the order is locked first, by the caller). */
export function liveOfferOf(tx: Tx, orderId: number, driverId: number): Promise<LiveOfferRow | undefined> {
  return lockedOffer(tx, `order_id = $1 AND driver_id = $2 AND state = 'LIVE'`, [orderId, driverId]);
}

export type OfferOutcome = "TIMED_OUT" | "REFUSED" | "WITHDRAWN";

/**
 * Closes a live offer without acceptance; a LIVE order goes back to FREE and escalates. `locked`: the offer's order
 * as the caller read it under its lock in this transaction, unchanged since (not read again: every refusal and
 * timeout comes here).
 */
export async function closeOfferInTx(tx: Tx, offer: LiveOfferRow, outcome: OfferOutcome, actor: Actor, reason: string, locked?: LockedOrder): Promise<MovedOrder[]> {
  await sqlQuery(tx, `UPDATE dispatch_offer SET state = $2::"DispatchOfferState", answered_at = $3::timestamp, reason = $4 WHERE id = $1`, [offer.id, outcome, new Date().toISOString(), reason]);
  const moves: MovedOrder[] = [];
  if (offer.kind === "LIVE") {
    const order = locked?.id === offer.orderId ? locked : await lockOrder(tx, { orderId: offer.orderId });
    if (order.state === "SENT_TO_DRIVER" && order.driver_id === offer.driverId) {
      moves.push(await moveOrderInTx(tx, { orderId: offer.orderId, locked: order, to: "FREE", actor, reason }));
    }
  }
  if (outcome === "TIMED_OUT") await countTimeoutInTx(tx, offer.driverId);
  if (outcome !== "WITHDRAWN") moves.push(...(await escalateInTx(tx, offer.orderId)));
  return moves;
}

function after(offer: LiveOfferRow, state: string, moves: MovedOrder[]): void {
  publishMoves(moves);
  publishOffer({ ...offer, offerId: offer.id }, state);
}

/**
 * Accepts the driver's live offer of the order. Undefined when the driver
 * has no live offer of it (the caller may treat the call as a take of a free
 * order). An offer past its deadline is closed as timed out and refused.
 */
export async function acceptOffer(db: Db, driver: OfferAnswerer, orderRef: { uuid: string }, arrivalMinutes?: number): Promise<{ orderId: number } | undefined> {
  const actor: Actor = { type: "DRIVER", id: driver.callSign };
  const result = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, orderRef);
    const offer = await liveOfferOf(tx, order.id, driver.id);
    if (!offer) return undefined;
    if (offer.deadline.getTime() < Date.now()) {
      const moves = await closeOfferInTx(tx, offer, "TIMED_OUT", SYSTEM_ACTOR, `no answer from ${driver.callSign} in time`, order);
      return { offer, moves, expired: true as const };
    }
    const minutes = arrivalMinutes ?? Math.max(1, Math.round((offer.arrivalSeconds ?? 300) / 60));
    const moves: MovedOrder[] = [];
    if (offer.kind === "LIVE") {
      moves.push(await moveOrderInTx(tx, { orderId: order.id, to: "CONFIRMED", actor, arrivalMinutes: minutes, reason: `offer accepted, arrives in ${minutes} min` }));
    } else if (offer.kind === "CHAIN") {
      moves.push(await moveOrderInTx(tx, { orderId: order.id, to: "BOUND", driverId: driver.id, actor, arrivalMinutes: minutes, reason: `chained after the current trip, arrives in ${minutes} min` }));
    } else {
      moves.push(await moveOrderInTx(tx, { orderId: order.id, to: "PREORDER_ATTACHED", driverId: driver.id, actor, reason: "advance order accepted" }));
    }
    await tx.dispatchOffer.update({ where: { id: offer.id }, data: { state: "ACCEPTED", answeredAt: new Date() }, select: { id: true } });
    if (offer.kind !== "ADVANCE") await tx.dispatchQueueEntry.deleteMany({ where: { driverId: driver.id } });
    return { offer, moves, expired: false as const };
  });
  if (!result) return undefined;
  after(result.offer, result.expired ? "TIMED_OUT" : "ACCEPTED", result.moves);
  if (result.expired) throw new OrderError("CONFLICT", { reason: "the offer expired", reasonKey: "offerExpired" });
  return { orderId: result.offer.orderId };
}

/** Refuses the driver's live offer of the order, with the driver's reason. Undefined: no live offer. */
export async function refuseOffer(db: Db, driver: OfferAnswerer, orderRef: { uuid: string }, reason?: string): Promise<{ orderId: number } | undefined> {
  const actor: Actor = { type: "DRIVER", id: driver.callSign };
  const text = `refused by ${driver.callSign}${reason ? `: ${reason}` : ""}`;
  const result = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, orderRef);
    const offer = await liveOfferOf(tx, order.id, driver.id);
    if (!offer) return undefined;
    return { offer, moves: await closeOfferInTx(tx, offer, "REFUSED", actor, text, order) };
  });
  if (!result) return undefined;
  after(result.offer, "REFUSED", result.moves);
  return { orderId: result.offer.orderId };
}

/** Closes one offer past its deadline (any instance may; the lock and the state check make it once). */
export async function expireOffer(db: Db, offerId: number, orderId: number): Promise<boolean> {
  const result = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, { orderId });
    const offer = await lockedOffer(tx, `id = $1 AND state = 'LIVE' AND deadline < now()`, [offerId]);
    if (!offer) return undefined;
    const [driver] = await sqlQuery<{ callSign: string }>(tx, `SELECT call_sign AS "callSign" FROM driver WHERE id = $1`, [offer.driverId]);
    return { offer, moves: await closeOfferInTx(tx, offer, "TIMED_OUT", SYSTEM_ACTOR, `no answer from ${driver?.callSign ?? offer.driverId} in time`, order) };
  });
  if (!result) return false;
  after(result.offer, "TIMED_OUT", result.moves);
  return true;
}

/** A dispatcher takes the offer back (WITHDRAWN); a LIVE order is free again. */
export async function withdrawOfferInTx(tx: Tx, orderId: number, actor: Actor, reason: string): Promise<{ offer: LiveOfferRow; moves: MovedOrder[] } | undefined> {
  const offer = await lockedOffer(tx, `order_id = $1 AND state = 'LIVE'`, [orderId]);
  if (!offer) return undefined;
  return { offer, moves: await closeOfferInTx(tx, offer, "WITHDRAWN", actor, reason) };
}

export { after as publishOfferAnswer };
