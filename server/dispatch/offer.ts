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
import { lockOrder, moveOrderInTx, publishMoves, type MovedOrder } from "../orders/move-order";
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

export async function makeOfferInTx(tx: Tx, input: MakeOfferInput): Promise<MadeOffer> {
  const order = await lockOrder(tx, { orderId: input.orderId });
  if (!OFFERABLE_STATES[input.kind].includes(order.state as never)) {
    throw new OfferRefused("CONFLICT", { reason: `the order is no longer free (${order.state})`, reasonKey: "orderNotFree" });
  }
  // The checks in one statement under the order's lock (an offer is made
  // ~300 times a round: docs/performance.md, "A fleet of ten thousand"): the
  // order's dispatch row (made when missing), a live offer of the order, the
  // driver under their row lock, a live offer of the driver, a break. They
  // are judged in the order they always were.
  const checked = (
    await sqlQuery<OfferChecks>(
      tx,
      `WITH made AS (INSERT INTO dispatch_order (order_id) VALUES ($1) ON CONFLICT (order_id) DO NOTHING RETURNING paused, attempts),
            control AS (SELECT paused, attempts FROM made UNION ALL SELECT paused, attempts FROM dispatch_order WHERE order_id = $1),
            dr AS (SELECT id, state::text AS state, active, call_sign FROM driver WHERE id = $2 FOR NO KEY UPDATE)
       SELECT c.paused, c.attempts,
              EXISTS (SELECT 1 FROM dispatch_offer WHERE order_id = $1 AND state = 'LIVE') AS order_offered,
              dr.id AS driver_id, dr.state AS driver_state, dr.active AS driver_active, dr.call_sign,
              EXISTS (SELECT 1 FROM dispatch_offer WHERE driver_id = $2 AND state = 'LIVE') AS driver_offered,
              EXISTS (SELECT 1 FROM driver_break WHERE driver_id = $2) AS on_break
         FROM (SELECT * FROM control LIMIT 1) c LEFT JOIN dr ON true`,
      [order.id, input.driverId],
    )
  )[0]!;
  if (checked.paused && !input.ignorePause) throw new OfferRefused("CONFLICT", { reason: "automatic dispatch of the order is paused" });
  if (checked.order_offered) throw new OfferRefused("CONFLICT", { reason: "the order is already offered to a driver", reasonKey: "alreadyOffered" });
  if (checked.driver_id === null || !checked.driver_active) throw new OfferRefused("NOT_FOUND", { what: "Driver", id: input.driverId });
  const driver = { id: checked.driver_id, state: checked.driver_state!, call_sign: checked.call_sign! };
  if (!DRIVER_STATE_OF[input.kind].includes(driver.state)) {
    throw new OfferRefused("CONFLICT", { reason: `the driver is ${driver.state}`, reasonKey: "driverNotFree" });
  }
  if (checked.driver_offered) throw new OfferRefused("CONFLICT", { reason: "the driver is answering another offer", reasonKey: "driverOffered" });
  // A driver on a break is offered nothing (issue 34); the break is taken under the same row lock.
  if (checked.on_break) throw new OfferRefused("CONFLICT", { reason: "the driver is on a break", reasonKey: "driverOnBreak", callSign: driver.call_sign });
  const control = { attempts: checked.attempts };
  // Taken after the locks: an offer starts after the previous one of this order or driver ended.
  const sentAt = new Date();
  const deadline = new Date(sentAt.getTime() + input.acceptSeconds * 1000);
  // The offer and the order's attempt count in one statement; the partial unique indexes (one live offer per order, per driver) still decide.
  const offer = (
    await sqlQuery<{ id: number }>(
      tx,
      `WITH o AS (
         INSERT INTO dispatch_offer (order_id, driver_id, attempt, kind, source, arrival_seconds, sent_at, deadline, actor_id)
         VALUES ($1, $2, $3, $4::"DispatchOfferKind", $5, $6, $7::timestamp, $8::timestamp, $9) RETURNING id),
       a AS (UPDATE dispatch_order SET attempts = attempts + 1 WHERE order_id = $1)
       SELECT id FROM o`,
      [
        order.id,
        driver.id,
        control.attempts + 1,
        input.kind,
        input.source,
        input.arrivalSeconds,
        sentAt.toISOString(),
        deadline.toISOString(),
        input.actor.type === "USER" ? (input.actor.id ?? "") : "",
      ],
    )
  )[0]!;
  const moves: MovedOrder[] = [];
  if (input.kind === "LIVE") {
    // A radio order goes back to FREE first: the reference allows SENT_TO_DRIVER from FREE, not from ORDER_ON_RADIO.
    if (order.state === "ORDER_ON_RADIO") {
      moves.push(await moveOrderInTx(tx, { orderId: order.id, to: "FREE", actor: input.actor, reason: `offered to ${driver.call_sign}` }));
    }
    moves.push(
      await moveOrderInTx(tx, {
        orderId: order.id,
        // Locked above, and moved only by the move just before when it was on the radio.
        ...(order.state === "ORDER_ON_RADIO" ? {} : { locked: order }),
        to: "SENT_TO_DRIVER",
        driverId: driver.id,
        actor: input.actor,
        reason: `offered to ${driver.call_sign}, answer within ${input.acceptSeconds} s (attempt ${control.attempts + 1}, ${input.source})`,
      }),
    );
  }
  return { offerId: offer.id, orderId: order.id, driverId: driver.id, kind: input.kind, deadline, moves };
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
