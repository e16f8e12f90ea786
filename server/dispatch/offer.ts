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

interface LockedDriver {
  id: number;
  state: string;
  active: boolean;
  call_sign: string;
}

export async function lockDriverRow(tx: Tx, id: number): Promise<LockedDriver | undefined> {
  const rows = await sqlQuery<LockedDriver>(tx, `SELECT id, state::text AS state, active, call_sign FROM driver WHERE id = $1 FOR NO KEY UPDATE`, [id]);
  return rows[0];
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
  const control = await tx.dispatchOrder.upsert({
    where: { orderId: order.id },
    create: { orderId: order.id },
    update: {},
    select: { paused: true, attempts: true },
  });
  if (control.paused && !input.ignorePause) throw new OfferRefused("CONFLICT", { reason: "automatic dispatch of the order is paused" });
  const live = await tx.dispatchOffer.findFirst({ where: { orderId: order.id, state: "LIVE" }, select: { id: true } });
  if (live) throw new OfferRefused("CONFLICT", { reason: "the order is already offered to a driver", reasonKey: "alreadyOffered" });
  const driver = await lockDriverRow(tx, input.driverId);
  if (!driver || !driver.active) throw new OfferRefused("NOT_FOUND", { what: "Driver", id: input.driverId });
  if (!DRIVER_STATE_OF[input.kind].includes(driver.state)) {
    throw new OfferRefused("CONFLICT", { reason: `the driver is ${driver.state}`, reasonKey: "driverNotFree" });
  }
  const busy = await tx.dispatchOffer.findFirst({ where: { driverId: driver.id, state: "LIVE" }, select: { id: true } });
  if (busy) throw new OfferRefused("CONFLICT", { reason: "the driver is answering another offer", reasonKey: "driverOffered" });
  // A driver on a break is offered nothing (issue 34); the break is taken under the same row lock.
  const onBreak = await tx.driverBreak.findUnique({ where: { driverId: driver.id }, select: { driverId: true } });
  if (onBreak) throw new OfferRefused("CONFLICT", { reason: "the driver is on a break", reasonKey: "driverOnBreak", callSign: driver.call_sign });
  // Taken after the locks: an offer starts after the previous one of this order or driver ended.
  const sentAt = new Date();
  const deadline = new Date(sentAt.getTime() + input.acceptSeconds * 1000);
  const offer = await tx.dispatchOffer.create({
    data: {
      orderId: order.id,
      driverId: driver.id,
      attempt: control.attempts + 1,
      kind: input.kind,
      source: input.source,
      arrivalSeconds: input.arrivalSeconds,
      sentAt,
      deadline,
      actorId: input.actor.type === "USER" ? (input.actor.id ?? "") : "",
    },
    select: { id: true },
  });
  await tx.dispatchOrder.update({ where: { orderId: order.id }, data: { attempts: { increment: 1 } }, select: { orderId: true } });
  const moves: MovedOrder[] = [];
  if (input.kind === "LIVE") {
    // A radio order goes back to FREE first: the reference allows SENT_TO_DRIVER from FREE, not from ORDER_ON_RADIO.
    if (order.state === "ORDER_ON_RADIO") {
      moves.push(await moveOrderInTx(tx, { orderId: order.id, to: "FREE", actor: input.actor, reason: `offered to ${driver.call_sign}` }));
    }
    moves.push(
      await moveOrderInTx(tx, {
        orderId: order.id,
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
