// Waiting on a condition instead of a fixed sleep: the test goes on as soon
// as the state it needs is there, and a slow machine only makes it wait
// longer, never pass without the state. A negative check ("X did not
// happen") first waits for a positive marker that proves the decision was
// made (the outbox settled, a later event arrived), then looks.

/** Waits until `probe` gives a value (not undefined or false); throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? `: ${last.message}` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Reads `read` until `check` holds or `timeoutMs` pass, and returns the last reading (for the assertion that follows to show it). */
export async function eventually<T>(read: () => Promise<T> | T, check: (value: T) => boolean, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || performance.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
