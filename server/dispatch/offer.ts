// Making one offer: an order to a driver with a deadline, in one transaction
// under the order's and then the driver's row lock (the order of moveOrder's
// own locks). The checks are repeated under the locks, and the partial unique
// indexes (one live offer per order, one per driver) stop whatever slips
// through, so two instances dispatching at once never offer one order twice
// or one driver two orders. A LIVE offer moves the order FREE ->
// SENT_TO_DRIVER with the driver (who is then BUSY); a CHAIN offer (a driver
// finishing a trip) and an ADVANCE offer leave the order where it is until
// the driver accepts.
import type { Db, Tx } from "../db";
import type { Actor } from "../actor";
import { OrderError, isUniqueViolation } from "../errors";
import { publish } from "../events/bus";
import { lockOrders, moveOrdersInTx, publishMoves, type MovedOrder } from "../orders/move-order";
import { OFFERABLE_STATES } from "../orders/states";
import type { OfferSource } from "./core/types";
import { sqlQuery } from "../db/sql";

export type OfferKind = "LIVE" | "CHAIN" | "ADVANCE";

export interface MakeOfferInput {
  orderId: number;
  driverId: number;
  kind: OfferKind;
  source: OfferSource;
  arrivalSeconds: number | null;
  acceptSeconds: number;
  actor: Actor;
  /** A dispatcher's offer goes out even when automatic dispatch of the order is paused. */
  ignorePause?: boolean;
}

export interface MadeOffer {
  offerId: number;
  orderId: number;
  driverId: number;
  kind: OfferKind;
  deadline: Date;
  moves: MovedOrder[];
}

interface OfferChecks {
  paused: boolean;
  attempts: number;
  order_offered: boolean;
  driver_id: number | null;
  driver_state: string | null;
  driver_active: boolean | null;
  call_sign: string | null;
  driver_offered: boolean;
  on_break: boolean;
}

/** The driver states each kind of offer needs. */
const DRIVER_STATE_OF: Record<OfferKind, string[]> = { LIVE: ["FREE"], CHAIN: ["BUSY"], ADVANCE: ["FREE", "BUSY"] };

/** Why an offer could not be made (the round skips it; a dispatcher is told). */
export class OfferRefused extends OrderError {}

/** One offer of a set: made, or refused (the order or the driver taken meanwhile). */
export type OfferJudgement = { made: MadeOffer } | { refused: OfferRefused };

export async function makeOfferInTx(tx: Tx, input: MakeOfferInput): Promise<MadeOffer> {
  const judged = (await makeOffersInTx(tx, [input]))[0]!;
  if ("refused" in judged) throw judged.refused;
  return judged.made;
}

// The checks of every pair in one statement under the orders' locks (an
// offer is made ~300 times a round: docs/performance.md, "A fleet of ten
// thousand", "The round's offers set-wise"): each order's dispatch row (made
// when missing), a live offer of the order, the driver under their row lock
// (the drivers in id order), a live offer of the driver, a break.
const CHECKS = `WITH p AS (SELECT * FROM unnest($1::int[], $2::int[]) AS p(order_id, driver_id)),
      made AS (INSERT INTO dispatch_order (order_id) SELECT order_id FROM p ON CONFLICT (order_id) DO NOTHING RETURNING order_id, paused, attempts),
      dr AS MATERIALIZED (SELECT id, state::text AS state, active, call_sign FROM driver WHERE id IN (SELECT driver_id FROM p) ORDER BY id FOR NO KEY UPDATE)
 SELECT p.order_id, COALESCE(m.paused, c.paused) AS paused, COALESCE(m.attempts, c.attempts) AS attempts,
        EXISTS (SELECT 1 FROM dispatch_offer WHERE order_id = p.order_id AND state = 'LIVE') AS order_offered,
        dr.id AS driver_id, dr.state AS driver_state, dr.active AS driver_active, dr.call_sign,
        EXISTS (SELECT 1 FROM dispatch_offer WHERE driver_id = p.driver_id AND state = 'LIVE') AS driver_offered,
        EXISTS (SELECT 1 FROM driver_break WHERE driver_id = p.driver_id) AS on_break
   FROM p LEFT JOIN made m ON m.order_id = p.order_id
          LEFT JOIN dispatch_order c ON c.order_id = p.order_id
          LEFT JOIN dr ON dr.id = p.driver_id`;

// The offers and their orders' attempt counts in one statement; the partial unique indexes (one live offer per order, per driver) still decide.
const INSERT_OFFERS = `WITH o AS (
   INSERT INTO dispatch_offer (order_id, driver_id, attempt, kind, source, arrival_seconds, sent_at, deadline, actor_id)
   SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[]::"DispatchOfferKind"[], $5::text[], $6::int[], $7::text[]::timestamp[], $8::text[]::timestamp[], $9::text[])
   RETURNING id, order_id),
 a AS (UPDATE dispatch_order SET attempts = attempts + 1 WHERE order_id = ANY($1::int[]))
SELECT id, order_id FROM o`;

/** Why a pair may not be offered, judged in the order it always was; undefined when it may. */
function refusal(input: MakeOfferInput, checked: OfferChecks): OfferRefused | undefined {
  if (checked.paused && !input.ignorePause) return new OfferRefused("CONFLICT", { reason: "automatic dispatch of the order is paused" });
  if (checked.order_offered) return new OfferRefused("CONFLICT", { reason: "the order is already offered to a driver", reasonKey: "alreadyOffered" });
  if (checked.driver_id === null || !checked.driver_active) return new OfferRefused("NOT_FOUND", { what: "Driver", id: input.driverId });
  if (!DRIVER_STATE_OF[input.kind].includes(checked.driver_state!)) {
    return new OfferRefused("CONFLICT", { reason: `the driver is ${checked.driver_state}`, reasonKey: "driverNotFree" });
  }
  if (checked.driver_offered) return new OfferRefused("CONFLICT", { reason: "the driver is answering another offer", reasonKey: "driverOffered" });
  // A driver on a break is offered nothing (issue 34); the break is taken under the same row lock.
  if (checked.on_break) return new OfferRefused("CONFLICT", { reason: "the driver is on a break", reasonKey: "driverOnBreak", callSign: checked.call_sign! });
  return undefined;
}

/**
 * Makes a set of offers inside the caller's transaction, in a constant number
 * of statements whatever its size: the orders' locks, the checks (the
 * drivers' locks), the offers, and the LIVE offers' moves through the state
 * machine (moveOrdersInTx; one more for orders on the radio, which go back to
 * FREE first). The orders must differ and so must the drivers (a round
 * offers each once). One judgement per input, in the inputs' order. Throws,
 * having written nothing the caller should keep, when an order is missing or
 * a statement fails (a unique index, a deadlock): the caller's transaction
 * is then aborted.
 */
export async function makeOffersInTx(tx: Tx, inputs: readonly MakeOfferInput[]): Promise<OfferJudgement[]> {
  const orderIds = inputs.map((i) => i.orderId);
  if (new Set(orderIds).size !== inputs.length || new Set(inputs.map((i) => i.driverId)).size !== inputs.length) {
    throw new Error("makeOffersInTx: an order or a driver appears twice (offer them one at a time)");
  }
  // The orders' row locks, in id order (two instances' sets lock alike, so they do not deadlock each other).
  const orders = new Map((await lockOrders(tx, orderIds)).map((o) => [o.id, o]));
  const judged: Array<OfferJudgement | undefined> = inputs.map((input) => {
    const order = orders.get(input.orderId);
    if (!order) throw new OrderError("NOT_FOUND", { what: "Order", id: input.orderId });
    if ((OFFERABLE_STATES[input.kind] as readonly string[]).includes(order.state)) return undefined;
    return { refused: new OfferRefused("CONFLICT", { reason: `the order is no longer free (${order.state})`, reasonKey: "orderNotFree" }) };
  });
  const open = inputs.flatMap((input, k) => (judged[k] ? [] : [k]));
  if (open.length === 0) return judged as OfferJudgement[];
  const checks = await sqlQuery<OfferChecks & { order_id: number }>(tx, CHECKS, [open.map((k) => inputs[k]!.orderId), open.map((k) => inputs[k]!.driverId)]);
  const checkOf = new Map(checks.map((c) => [c.order_id, c]));
  const offered: number[] = [];
  for (const k of open) {
    const refused = refusal(inputs[k]!, checkOf.get(inputs[k]!.orderId)!);
    if (refused) judged[k] = { refused };
    else offered.push(k);
  }
  if (offered.length === 0) return judged as OfferJudgement[];
  // Taken after the locks: an offer starts after the previous one of its order or driver ended.
  const sentAt = new Date();
  const deadlineOf = (k: number) => new Date(sentAt.getTime() + inputs[k]!.acceptSeconds * 1000);
  const attemptOf = (k: number) => checkOf.get(inputs[k]!.orderId)!.attempts + 1;
  const made = await sqlQuery<{ id: number; order_id: number }>(tx, INSERT_OFFERS, [
    offered.map((k) => inputs[k]!.orderId),
    offered.map((k) => inputs[k]!.driverId),
    offered.map(attemptOf),
    offered.map((k) => inputs[k]!.kind),
    offered.map((k) => inputs[k]!.source),
    offered.map((k) => inputs[k]!.arrivalSeconds),
    offered.map(() => sentAt.toISOString()),
    offered.map((k) => deadlineOf(k).toISOString()),
    offered.map((k) => (inputs[k]!.actor.type === "USER" ? (inputs[k]!.actor.id ?? "") : "")),
  ]);
  const offerIdOf = new Map(made.map((m) => [m.order_id, m.id]));
  const movesOf = new Map<number, MovedOrder[]>(offered.map((k) => [inputs[k]!.orderId, []]));
  const live = offered.filter((k) => inputs[k]!.kind === "LIVE");
  const callSignOf = (k: number) => checkOf.get(inputs[k]!.orderId)!.call_sign!;
  // A radio order goes back to FREE first: the reference allows SENT_TO_DRIVER from FREE, not from ORDER_ON_RADIO.
  const radio = live.filter((k) => orders.get(inputs[k]!.orderId)!.state === "ORDER_ON_RADIO");
  const backToFree = await moveOrdersInTx(
    tx,
    radio.map((k) => ({ orderId: inputs[k]!.orderId, to: "FREE" as const, actor: inputs[k]!.actor, reason: `offered to ${callSignOf(k)}` })),
  );
  for (const moved of backToFree) movesOf.get(moved.id)!.push(moved);
  const sent = await moveOrdersInTx(
    tx,
    live.map((k) => {
      const input = inputs[k]!;
      const order = orders.get(input.orderId)!;
      return {
        orderId: order.id,
        // Locked above, and moved only by the move just before when it was on the radio.
        ...(order.state === "ORDER_ON_RADIO" ? {} : { locked: order }),
        to: "SENT_TO_DRIVER" as const,
        driverId: input.driverId,
        actor: input.actor,
        reason: `offered to ${callSignOf(k)}, answer within ${input.acceptSeconds} s (attempt ${attemptOf(k)}, ${input.source})`,
      };
    }),
  );
  for (const moved of sent) movesOf.get(moved.id)!.push(moved);
  for (const k of offered) {
    const input = inputs[k]!;
    judged[k] = {
      made: { offerId: offerIdOf.get(input.orderId)!, orderId: input.orderId, driverId: input.driverId, kind: input.kind, deadline: deadlineOf(k), moves: movesOf.get(input.orderId)! },
    };
  }
  return judged as OfferJudgement[];
}

export function publishOffer(offer: { offerId: number; orderId: number; driverId: number; kind: string; deadline: Date }, state: string): void {
  publish({ type: "offer.changed", offerId: offer.offerId, orderId: offer.orderId, driverId: offer.driverId, state, kind: offer.kind, deadline: offer.deadline.toISOString() });
}

/**
 * Makes an offer in its own transaction. Resolves to undefined when the
 * order or the driver was taken meanwhile (by this instance or another):
 * the round goes on with the next pair.
 */
export async function makeOffer(db: Db, input: MakeOfferInput): Promise<MadeOffer | undefined> {
  try {
    const made = await db.$transaction((tx) => makeOfferInTx(tx, input));
    publishMoves(made.moves);
    publishOffer(made, "LIVE");
    return made;
  } catch (error) {
    if (error instanceof OfferRefused || isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** The same, for a dispatcher: a refusal is an error the console shows. */
export async function makeOfferOrThrow(db: Db, input: MakeOfferInput): Promise<MadeOffer> {
  try {
    const made = await db.$transaction((tx) => makeOfferInTx(tx, input));
    publishMoves(made.moves);
    publishOffer(made, "LIVE");
    return made;
  } catch (error) {
    if (isUniqueViolation(error)) throw new OrderError("CONFLICT", { reason: "the order or the driver was offered meanwhile" });
    throw error;
  }
}
