// Who carried an order, for the one rule of completion (move-order.ts):
// "completed" (100) needs an order that a driver carried, whoever asks for it
// (issue 36).
//
// A driver of ours carried it when the order holds them at the move
// (orders.driver_id: set by an accepted offer, a dispatcher, the driver app,
// a take of an exchange order, or driver_id at creation, and kept at
// completion). Moving an order to 1, 2 or 4 through the dispatch API names no
// driver, so it makes nothing carried; an order given back to the free orders
// loses its driver, so a driver it once had does not count either.
//
// A trip outside our fleet is known only to the domain that reports it: the
// exchange, whose executor's driver carried an order of ours it took. That
// domain registers its check here at start-up (server/subscribers.ts), so
// orders/ imports nothing of it, and only its own reports (actor EXCHANGE)
// count it: the console, the dispatch API and the driver app do not see
// another server's trip (and a completion of theirs would be refused by the
// exchange, where only the executor completes a taken order).
//
// The registry lives on globalThis, as the move subscribers' does: the custom
// server and Next's bundle load their own copies of this module.
import type { Tx } from "../db";
import type { Actor, ActorType } from "../actor";

export type ForeignCarrierName = "exchange";
/** Whether a driver outside our fleet, known to that domain, carried the order. */
export type ForeignCarrier = (tx: Tx, orderId: number) => Promise<boolean>;

/** The actor whose reports may name a foreign carrier, and which one. */
const REPORTED_BY: Partial<Record<ActorType, ForeignCarrierName>> = { EXCHANGE: "exchange" };

const key = Symbol.for("taxi.orders.foreignCarriers");
type Holder = { [key]?: Map<ForeignCarrierName, ForeignCarrier> };

function registry(): Map<ForeignCarrierName, ForeignCarrier> {
  const holder = globalThis as Holder;
  holder[key] ??= new Map();
  return holder[key];
}

/** Registers (or replaces, on a hot reload) the check of that domain. */
export function onForeignCarrier(name: ForeignCarrierName, check: ForeignCarrier): void {
  registry().set(name, check);
}

/**
 * Whether the order was carried, as far as `actor` may say: a driver of ours
 * holds it, or the actor is the domain of a foreign carrier that carried it.
 */
export async function wasCarried(tx: Tx, order: { id: number; driverId: number | null }, actor: Actor): Promise<boolean> {
  if (order.driverId !== null) return true;
  const name = REPORTED_BY[actor.type];
  if (name === undefined) return false;
  const check = registry().get(name);
  if (!check) throw new Error(`the "${name}" carrier check is not registered: import server/subscribers.ts at start-up`);
  return check(tx, order.id);
}
