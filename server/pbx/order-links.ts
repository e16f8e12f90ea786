// New orders linked to the calls that led to them (linkCallsToOrders), in
// batches: one statement for whatever orders were created while the last
// one ran. A lone order is linked at once; under a burst of orders (an
// integrator's import, the benchmark's 500 a second) the statements stay a
// few a second instead of one an order. Every instance hears every order
// created (the relay); linking is idempotent, so each links them.
import type { Db } from "../db";
import { log } from "../log";
import { subscribe } from "../events/bus";
import { linkCallsToOrders } from "./calls";

/** Orders in one statement at most (the rest wait for the next). */
const MAX_BATCH = 500;

/** Starts linking; returns its stop (which waits for the statement running). `link` is the statement (a test counts its batches). */
export function startOrderLinks(db: Db, link: typeof linkCallsToOrders = linkCallsToOrders): () => Promise<void> {
  let pending: number[] = [];
  let running: Promise<void> | null = null;
  const run = (): void => {
    if (running || pending.length === 0) return;
    const batch = pending.slice(0, MAX_BATCH);
    pending = pending.slice(MAX_BATCH);
    running = link(db, batch)
      .then(
        () => undefined,
        (error: unknown) => log.warn("pbx: linking calls to new orders failed", error),
      )
      .finally(() => {
        running = null;
        run();
      });
  };
  const off = subscribe((event) => {
    if (event.type !== "order.created") return;
    pending.push(event.orderId);
    run();
  });
  return async () => {
    off();
    while (running) await running;
  };
}
