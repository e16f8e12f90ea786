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
import { lockOrder, lockOrders, moveOrderInTx, moveOrdersInTx, publishMoves, type LockedOrder, type MovedOrder } from "../orders/move-order";
import { escalateOrdersInTx } from "./escalate";
import { publishOffer } from "./offer";
import { sqlQuery } from "../db/sql";
import { countTimeoutsInTx } from "./liveness";
import { log } from "../log";

export interface OfferAnswerer {
  id: number;
  callSign: string;
}

export interface LiveOfferRow {
  id: number;
  orderId: number;
  driverId: number;
  kind: "LIVE" | "CHAIN" | "ADVANCE";
  deadline: Date;
  arrivalSeconds: number | null;
}

// The offer's row, read and locked in one statement by hand: every answer and every timeout reads one (an ORM
// call costs a query compilation in the process: docs/performance.md, "A fleet of ten thousand").
export const OFFER_COLUMNS = `id, order_id AS "orderId", driver_id AS "driverId", kind::text AS kind,
  (extract(epoch FROM deadline) * 1000)::float8 AS "deadlineMs", arrival_seconds AS "arrivalSeconds"`;

export type RawOfferRow = Omit<LiveOfferRow, "deadline"> & { deadlineMs: number };

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
  return closeOffersInTx(tx, [{ offer, reason, actor, ...(locked ? { locked } : {}) }], outcome);
}

/** An offer to close, why, by whom, and its order as the caller locked it (when it did). */
export interface ClosingOffer {
  offer: LiveOfferRow;
  reason: string;
  actor: Actor;
  locked?: LockedOrder;
}

/**
 * The same for several offers of one outcome (a round's sweep of expired offers), in a constant number of
 * statements: the offers closed, the LIVE orders moved back to FREE together, the timeouts counted, the orders
 * escalated. Their orders differ and so do their drivers (one live offer each, by the unique indexes).
 */
export async function closeOffersInTx(
  tx: Tx,
  closing: readonly ClosingOffer[],
  outcome: OfferOutcome,
): Promise<MovedOrder[]> {
  if (closing.length === 0) return [];
  await sqlQuery(
    tx,
    `UPDATE dispatch_offer f SET state = $3::"DispatchOfferState", answered_at = $4::timestamp, reason = x.reason
       FROM unnest($1::int[], $2::text[]) AS x(id, reason) WHERE f.id = x.id`,
    [closing.map((c) => c.offer.id), closing.map((c) => c.reason), outcome, new Date().toISOString()],
  );
  const live = closing.filter((c) => c.offer.kind === "LIVE");
  // The orders' rows as locked by the caller, or locked here (in id order).
  const missing = live.filter((c) => c.locked?.id !== c.offer.orderId).map((c) => c.offer.orderId);
  const lockedHere = new Map((await lockOrders(tx, missing)).map((o) => [o.id, o]));
  const back = live.flatMap((c) => {
    const order = c.locked?.id === c.offer.orderId ? c.locked : lockedHere.get(c.offer.orderId);
    if (!order || order.state !== "SENT_TO_DRIVER" || order.driver_id !== c.offer.driverId) return [];
    return [{ orderId: order.id, locked: order, to: "FREE" as const, actor: c.actor, reason: c.reason }];
  });
  const moves = await moveOrdersInTx(tx, back);
  if (outcome === "TIMED_OUT") await countTimeoutsInTx(tx, closing.map((c) => c.offer.driverId));
  if (outcome !== "WITHDRAWN") moves.push(...(await escalateOrdersInTx(tx, closing.map((c) => c.offer.orderId))));
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

/**
 * Closes the offers past their deadline a round's sweep found, in one transaction of a constant number of
 * statements (the orders' locks, the offers', the closing: closeOffersInTx); one at a time, each in its own
 * transaction, when that transaction fails as a whole (a deadlock with another instance's sweep or answers).
 * An offer answered or expired meanwhile (another instance's sweep) is passed over: the lock and the state check
 * close each once. How many it closed.
 */
export async function expireOffers(db: Db, due: ReadonlyArray<{ id: number; order_id: number }>): Promise<number> {
  if (due.length === 0) return 0;
  let closed: Array<{ offers: LiveOfferRow[]; moves: MovedOrder[] }>;
  try {
    closed = [await db.$transaction((tx) => expireInTx(tx, due))];
  } catch (error) {
    log.info("dispatch: a set of expired offers failed, closed one at a time instead", { offers: due.length, error: error instanceof Error ? error.message : String(error) });
    closed = [];
    for (const d of due) closed.push(await db.$transaction((tx) => expireInTx(tx, [d])));
  }
  for (const { offers, moves } of closed) {
    publishMoves(moves);
    for (const offer of offers) publishOffer({ ...offer, offerId: offer.id }, "TIMED_OUT");
  }
  return closed.reduce((n, c) => n + c.offers.length, 0);
}

async function expireInTx(tx: Tx, due: ReadonlyArray<{ id: number; order_id: number }>): Promise<{ offers: LiveOfferRow[]; moves: MovedOrder[] }> {
  const orders = new Map((await lockOrders(tx, due.map((d) => d.order_id))).map((o) => [o.id, o]));
  const offers = await sqlQuery<RawOfferRow & { callSign: string | null }>(
    tx,
    `SELECT ${OFFER_COLUMNS}, (SELECT call_sign FROM driver WHERE driver.id = f.driver_id) AS "callSign"
       FROM dispatch_offer f WHERE id = ANY($1::int[]) AND state = 'LIVE' AND deadline < now() ORDER BY id FOR UPDATE OF f`,
    [due.map((d) => d.id)],
  );
  const closing = offers.map(({ deadlineMs, callSign, ...offer }): ClosingOffer => {
    const locked = orders.get(offer.orderId);
    return { offer: { ...offer, deadline: new Date(deadlineMs) }, reason: `no answer from ${callSign ?? offer.driverId} in time`, actor: SYSTEM_ACTOR, ...(locked ? { locked } : {}) };
  });
  return { offers: closing.map((c) => c.offer), moves: await closeOffersInTx(tx, closing, "TIMED_OUT") };
}

/** A dispatcher takes the offer back (WITHDRAWN); a LIVE order is free again. */
export async function withdrawOfferInTx(tx: Tx, orderId: number, actor: Actor, reason: string): Promise<{ offer: LiveOfferRow; moves: MovedOrder[] } | undefined> {
  const offer = await lockedOffer(tx, `order_id = $1 AND state = 'LIVE'`, [orderId]);
  if (!offer) return undefined;
  return { offer, moves: await closeOfferInTx(tx, offer, "WITHDRAWN", actor, reason) };
}

export { after as publishOfferAnswer };
