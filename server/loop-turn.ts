// Long synchronous work in the request process (a dispatch round's road
// searches, the region hint's plan) gives the event loop a turn every few
// milliseconds, so that the requests arriving meanwhile (a fleet's
// positions) wait at most that long (docs/performance.md, "A fleet of ten
// thousand").

/** How long such work runs before the event loop gets a turn. */
export const TURN_AFTER_MS = 8;

/** A pacer: `await turn()` in the work's loop gives the event loop a turn once TURN_AFTER_MS have passed since the last. */
export function loopPacer(afterMs = TURN_AFTER_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since <= afterMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
