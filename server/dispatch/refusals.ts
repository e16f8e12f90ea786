// Drivers' refusals of their offers, several to one transaction. Each
// refusal was a transaction of its own (the order's lock, the offer's, the
// offer closed, the order back to FREE, its escalation: about six
// statements); when every round makes its offers in a few statements
// (offer.ts), the answers are what grows with the offers: in the fleet's
// benchmark, where every phone refuses, they outgrew the positions' own
// statements (docs/performance.md, "The answers set-wise"). Refusals that
// arrive while one set is in its transaction go in the next (resultBatcher:
// no timer; a lone refusal waits one turn of the event loop), each judged as
// one would be: under its order's lock, the driver's live offer of it closed,
// the order back to FREE and escalated (closeOffersInTx). A set whose
// transaction fails as a whole is refused one at a time, each a set of one.
import type { Db } from "../db";
import type { Actor } from "../actor";
import { OrderError } from "../errors";
import { log } from "../log";
import { lockOrdersByUuid, publishMoves } from "../orders/move-order";
import { resultBatcher, type ResultBatcher } from "../db/result-batcher";
import { sqlQuery } from "../db/sql";
import { closeOffersInTx, OFFER_COLUMNS, type ClosingOffer, type OfferAnswerer, type RawOfferRow } from "./answer-offer";
import { publishOffer } from "./offer";

interface Refusal {
  driver: OfferAnswerer;
  uuid: string;
  reason?: string;
}

/** One refusal's outcome: its order's id, none (the driver holds no live offer of that order), or its own error. */
type Refused = { orderId: number } | { none: true } | { error: unknown };

/** Refusals a set holds at most (one per order: a second refusal of an order waits for the next set). */
const REFUSALS_PER_SET = 64;

const batchers = new WeakMap<Db, ResultBatcher<Refusal, Refused>>();

/**
 * Refuses the driver's live offer of the order, with the driver's reason, in
 * a set with the refusals that arrive meanwhile. Undefined: no live offer.
 * Throws what a refusal on its own would (an order that does not exist).
 */
export async function refuseOfferInSet(db: Db, driver: OfferAnswerer, orderRef: { uuid: string }, reason?: string): Promise<{ orderId: number } | undefined> {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = resultBatcher((items: Refusal[]) => refuseSet(db, items), { maxItems: REFUSALS_PER_SET, keyOf: (r) => r.uuid });
    batchers.set(db, batcher);
  }
  const outcome = await batcher.add({ driver, uuid: orderRef.uuid, ...(reason ? { reason } : {}) });
  if ("error" in outcome) throw outcome.error;
  return "none" in outcome ? undefined : outcome;
}

function reasonOf(r: Refusal): string {
  return `refused by ${r.driver.callSign}${r.reason ? `: ${r.reason}` : ""}`;
}

async function refuseSet(db: Db, items: readonly Refusal[]): Promise<Refused[]> {
  try {
    return await refuseTogether(db, items);
  } catch (error) {
    if (items.length === 1) return [{ error }];
    log.info("dispatch: a set of refusals failed, refused one at a time instead", { refusals: items.length, error: error instanceof Error ? error.message : String(error) });
    return Promise.all(items.map((i) => refuseTogether(db, [i]).then((r) => r[0]!, (e: unknown): Refused => ({ error: e }))));
  }
}

/** The refusals in one transaction, each judged as one on its own; their outcomes in their order. */
async function refuseTogether(db: Db, items: readonly Refusal[]): Promise<Refused[]> {
  const { closed, moves, found } = await db.$transaction(async (tx) => {
    // The orders' locks in id order, then their drivers' live offers of them.
    const orders = await lockOrdersByUuid(tx, items.map((i) => i.uuid));
    const byUuid = new Map(orders.map((o) => [o.uuid, o]));
    const pairs = items.flatMap((item) => {
      const order = byUuid.get(item.uuid);
      return order ? [{ item, order }] : [];
    });
    const offers = await sqlQuery<RawOfferRow>(
      tx,
      `SELECT ${OFFER_COLUMNS} FROM dispatch_offer
        WHERE (order_id, driver_id) IN (SELECT * FROM unnest($1::int[], $2::int[])) AND state = 'LIVE' ORDER BY id FOR UPDATE`,
      [pairs.map((p) => p.order.id), pairs.map((p) => p.item.driver.id)],
    );
    const offerOf = new Map(offers.map(({ deadlineMs, ...offer }) => [`${offer.orderId}:${offer.driverId}`, { ...offer, deadline: new Date(deadlineMs) }]));
    const closed = new Map<Refusal, ClosingOffer>();
    for (const { item, order } of pairs) {
      const offer = offerOf.get(`${order.id}:${item.driver.id}`);
      const actor: Actor = { type: "DRIVER", id: item.driver.callSign };
      if (offer) closed.set(item, { offer, reason: reasonOf(item), actor, locked: order });
    }
    return { closed, moves: await closeOffersInTx(tx, [...closed.values()], "REFUSED"), found: new Set(byUuid.keys()) };
  });
  publishMoves(moves);
  for (const { offer } of closed.values()) publishOffer({ ...offer, offerId: offer.id }, "REFUSED");
  return items.map((i): Refused => {
    if (!found.has(i.uuid)) return { error: new OrderError("NOT_FOUND", { what: "Order", id: i.uuid }) };
    const c = closed.get(i);
    return c ? { orderId: c.offer.orderId } : { none: true };
  });
}
