// A round's offers, several to one transaction: each offer in a savepoint of
// its own, so one that fails (the order or the driver taken meanwhile by
// another instance, a unique index, a deadlock between two instances'
// batches) rolls back only its own writes, and the others commit together.
// Each offer is still made by makeOfferInTx (the order's and the driver's row
// locks, the checks, the one live offer per order and per driver, the move
// through the state machine with its history): only the transactions are
// fewer. Before, 300 offers were 300 transactions one after another, the
// longest part of a round over a fleet (docs/performance.md, "Round four").
import type { Db, Tx } from "../db";
import { isUniqueViolation } from "../errors";
import { sqlExecute } from "../db/sql";
import { publishMoves } from "../orders/move-order";
import { makeOfferInTx, OfferRefused, publishOffer, type MadeOffer, type MakeOfferInput } from "./offer";

/**
 * Offers a batch holds at most: its savepoints are subtransactions, and a
 * transaction with more than 64 of them that wrote makes every other
 * session's snapshot slower (PostgreSQL's subtransaction cache overflows).
 */
export const OFFERS_PER_BATCH = 32;

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
  const outcomes: OfferOutcome[] = [];
  while (outcomes.length < inputs.length) {
    const from = outcomes.length;
    let batch: OfferOutcome[];
    try {
      batch = await db.$transaction((tx) => offerBatch(tx, inputs, from));
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
