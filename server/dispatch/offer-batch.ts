// A round's offers, many to one transaction. Where the round's pairs share
// no order and no driver (a round offers each once), a set of up to
// OFFERS_PER_SET is made in a constant number of statements
// (makeOffersInTx: the locks, the checks, the offers, the moves), and a pair
// refused under the locks (the order or the driver taken meanwhile) is left
// out while the others land. Made one offer at a time, ~5 statements each,
// a round's 300 offers took about a second even alone (docs/performance.md,
// "The round's offers set-wise"). A set whose transaction fails (a deadlock
// between two instances, a unique index another instance's offer won) is
// made again one offer at a time: each in a savepoint of its own, so one
// that fails rolls back only its own writes, and the others commit together.
import type { Db, Tx } from "../db";
import { isUniqueViolation } from "../errors";
import { sqlExecute } from "../db/sql";
import { publishMoves } from "../orders/move-order";
import { log } from "../log";
import { makeOfferInTx, makeOffersInTx, OfferRefused, publishOffer, type MadeOffer, type MakeOfferInput } from "./offer";

/**
 * Offers a batch holds at most: its savepoints are subtransactions, and a
 * transaction with more than 64 of them that wrote makes every other
 * session's snapshot slower (PostgreSQL's subtransaction cache overflows).
 */
export const OFFERS_PER_BATCH = 32;

/**
 * Offers a set holds at most: its statements take longer the more it holds,
 * and its orders' and drivers' rows stay locked (the drivers' position
 * reports skip a locked row and come back) until it commits.
 */
export const OFFERS_PER_SET = 64;

/**
 * A batch is committed after this long even when it has room: its offers
 * reach their drivers only at the commit, and the rows it locked (orders,
 * drivers) wait for it too.
 */
export const BATCH_MILLISECONDS = 250;

/** One offer's outcome: made, refused (taken meanwhile: expected), or failed (worth a warning). */
export type OfferOutcome = { made: MadeOffer } | { refused: unknown } | { failed: unknown };

function expected(error: unknown): boolean {
  return error instanceof OfferRefused || isUniqueViolation(error);
}

/**
 * How many of a round's transactions of offers go at once (DISPATCH_OFFER_LANES). An offer's statements wait
 * on the database and on the instance's event loop more than they compute, so batches on separate connections
 * overlap those waits: three lanes took a round's offers from 1.6-1.7 s to 1.25-1.3 s at the median with
 * 10,000 drivers reporting, but on two cores shared with PostgreSQL the positions paid for it (ten times the
 * refused reports), so the default is one (docs/performance.md, "Round seven"). A third of the pool at most,
 * so that the positions and requests keep the rest; one on the embedded database, which has one connection.
 */
export function offerLanes(postgres: boolean, poolSize: number, wanted: number): number {
  return postgres ? Math.max(1, Math.min(wanted, Math.floor(poolSize / 3))) : 1;
}

/**
 * Makes the offers, in transactions of at most OFFERS_PER_BATCH and about
 * BATCH_MILLISECONDS each, `lanes` transactions at once, and tells each
 * offer's driver (and the consoles) after its transaction commits. One
 * outcome per input, in the inputs' order.
 *
 * The lanes share no order and no driver (when an order or a driver appears
 * twice, all the inputs go in one lane), so their transactions lock
 * disjoint rows: they neither wait for each other nor deadlock, and two
 * offers of one order or driver are judged in order, as in one lane.
 */
export async function makeOffers(db: Db, inputs: readonly MakeOfferInput[], lanes = 1): Promise<OfferOutcome[]> {
  const split = splitLanes(inputs, lanes);
  if (split.length <= 1) return offersInOneLane(db, inputs);
  const outcomes: OfferOutcome[] = new Array<OfferOutcome>(inputs.length);
  await Promise.all(
    split.map(async (indexes) => {
      const made = await offersInOneLane(db, indexes.map((k) => inputs[k]!));
      made.forEach((outcome, j) => (outcomes[indexes[j]!] = outcome));
    }),
  );
  return outcomes;
}

/** The inputs' indexes in `lanes` interleaved lanes; one lane when an order or a driver appears twice. */
export function splitLanes(inputs: readonly MakeOfferInput[], lanes: number): number[][] {
  const all = inputs.map((_, k) => k);
  if (lanes <= 1 || inputs.length < 2) return [all];
  const orders = new Set(inputs.map((i) => i.orderId));
  const drivers = new Set(inputs.map((i) => i.driverId));
  if (orders.size < inputs.length || drivers.size < inputs.length) return [all];
  const count = Math.min(lanes, inputs.length);
  return Array.from({ length: count }, (_, lane) => all.filter((k) => k % count === lane));
}

async function offersInOneLane(db: Db, inputs: readonly MakeOfferInput[]): Promise<OfferOutcome[]> {
  const setwise = distinctPairs(inputs);
  const outcomes: OfferOutcome[] = [];
  while (outcomes.length < inputs.length) {
    const from = outcomes.length;
    let batch: OfferOutcome[] | undefined = setwise ? await offerSet(db, inputs.slice(from, from + OFFERS_PER_SET)) : undefined;
    try {
      batch ??= await db.$transaction((tx) => offerBatch(tx, inputs, from));
    } catch (error) {
      // The transaction itself failed (its commit, the connection): nothing of it was made, and the rest is not tried.
      // The next round reads the state again.
      while (outcomes.length < inputs.length) outcomes.push({ failed: error });
      break;
    }
    // The consoles told of the batch's moves at once (one read of the drivers' new states, not one an offer).
    publishMoves(batch.flatMap((outcome) => ("made" in outcome ? outcome.made.moves : [])));
    for (const outcome of batch) {
      if ("made" in outcome) publishOffer(outcome.made, "LIVE");
      outcomes.push(outcome);
    }
  }
  return outcomes;
}

/** Whether no order and no driver appears twice (then the offers can be made set-wise). */
function distinctPairs(inputs: readonly MakeOfferInput[]): boolean {
  return new Set(inputs.map((i) => i.orderId)).size === inputs.length && new Set(inputs.map((i) => i.driverId)).size === inputs.length;
}

/** A set of offers in one transaction; undefined when it failed (nothing of it was made: the caller makes them one at a time). */
async function offerSet(db: Db, inputs: readonly MakeOfferInput[]): Promise<OfferOutcome[] | undefined> {
  try {
    return await db.$transaction((tx) => makeOffersInTx(tx, inputs));
  } catch (error) {
    log.info("dispatch: a set of offers failed, made one at a time instead", { offers: inputs.length, error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

async function offerBatch(tx: Tx, inputs: readonly MakeOfferInput[], from: number): Promise<OfferOutcome[]> {
  const out: OfferOutcome[] = [];
  const started = performance.now();
  for (let k = from; k < inputs.length && out.length < OFFERS_PER_BATCH; k++) {
    if (out.length > 0 && performance.now() - started > BATCH_MILLISECONDS) break;
    // Never released: they all end with the commit, and one statement less an offer.
    const savepoint = `offer_${out.length}`;
    await sqlExecute(tx, `SAVEPOINT ${savepoint}`);
    try {
      out.push({ made: await makeOfferInTx(tx, inputs[k]!) });
    } catch (error) {
      await sqlExecute(tx, `ROLLBACK TO SAVEPOINT ${savepoint}`);
      out.push(expected(error) ? { refused: error } : { failed: error });
    }
  }
  return out;
}
