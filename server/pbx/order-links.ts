// New orders linked to the calls that led to them (linkCallsToOrders), in
// batches (server/events/spaced-batches.ts): one statement for whatever
// orders were created while the last one ran, at most one every MIN_GAP_MS.
// A lone order is linked at once; under a burst of orders (an integrator's
// import, the benchmark's 500 a second) the statements stay at most 50 a
// second instead of one an order. Every instance hears every order created
// (the relay); linking is idempotent, so each links them.
import type { Db } from "../db";
import { log } from "../log";
import { subscribe } from "../events/bus";
import { spacedBatches } from "../events/spaced-batches";
import { linkCallsToOrders } from "./calls";

/** Orders in one statement at most (the rest wait for the next). */
const MAX_BATCH = 500;
/** The least time between two statements' starts: a missed call leaves the consoles' list at most this much later. */
const MIN_GAP_MS = 20;

/** Starts linking; returns its stop (which waits for the statement running). `link` is the statement (a test counts its batches). */
export function startOrderLinks(db: Db, link: typeof linkCallsToOrders = linkCallsToOrders): () => Promise<void> {
  const batches = spacedBatches<number>(
    (orderIds) => link(db, orderIds).then(
      () => undefined,
      (error: unknown) => log.warn("pbx: linking calls to new orders failed", error),
    ),
    { gapMs: MIN_GAP_MS, maxBatch: MAX_BATCH },
  );
  const off = subscribe((event) => {
    if (event.type === "order.created") batches.push(event.orderId);
  });
  return async () => {
    off();
    await batches.drain();
  };
}
