// New orders linked to the calls that led to them (linkCallsToOrders), in
// batches: one statement for whatever orders were created while the last
// one ran, at most one every MIN_GAP_MS. A lone order is linked at once;
// under a burst of orders (an integrator's import, the benchmark's 500 a
// second) the statements stay at most 50 a second instead of one an order.
// Every instance hears every order created (the relay); linking is
// idempotent, so each links them.
import type { Db } from "../db";
import { log } from "../log";
import { subscribe } from "../events/bus";
import { linkCallsToOrders } from "./calls";

/** Orders in one statement at most (the rest wait for the next). */
const MAX_BATCH = 500;
/** The least time between two statements' starts: a missed call leaves the consoles' list at most this much later. */
const MIN_GAP_MS = 20;

/** Starts linking; returns its stop (which waits for the statement running). `link` is the statement (a test counts its batches). */
export function startOrderLinks(db: Db, link: typeof linkCallsToOrders = linkCallsToOrders): () => Promise<void> {
  let pending: number[] = [];
  let running: Promise<void> | null = null;
  let lastAt = 0;
  const run = (): void => {
    if (running || pending.length === 0) return;
    running = (async () => {
      const gap = lastAt + MIN_GAP_MS - Date.now();
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      lastAt = Date.now();
      const batch = pending.slice(0, MAX_BATCH);
      pending = pending.slice(MAX_BATCH);
      await link(db, batch).catch((error: unknown) => log.warn("pbx: linking calls to new orders failed", error));
    })().finally(() => {
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
