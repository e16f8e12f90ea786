// Coalesces small writes that happen at about the same time into one
// statement: at most one flush is in flight; whatever is added meanwhile
// waits for it and goes in the next one. A lone write waits one turn of the
// event loop (setImmediate), so writes started together (the deliveries of
// one batch) go together. On this machine a round trip to the database costs
// about what the statement's work does (docs/performance.md), so under load
// N round trips become one without delaying anything by a timer.
export interface WriteBatcher<T> {
  /** Resolves when the batch holding this item is written; rejects with its error. */
  add(item: T): Promise<void>;
}

export function writeBatcher<T>(write: (items: T[]) => Promise<void>, maxItems = 500): WriteBatcher<T> {
  let waiting: Array<{ item: T; done: (error?: unknown) => void }> = [];
  let flushing = false;

  const flush = async (): Promise<void> => {
    flushing = true;
    try {
      while (waiting.length) {
        const batch = waiting.slice(0, maxItems);
        waiting = waiting.slice(batch.length);
        try {
          await write(batch.map((w) => w.item));
          for (const w of batch) w.done();
        } catch (error) {
          for (const w of batch) w.done(error ?? new Error("write failed"));
        }
      }
    } finally {
      flushing = false;
    }
  };

  return {
    add(item: T): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, done: (error) => (error === undefined ? resolve() : reject(error instanceof Error ? error : new Error(String(error)))) });
        if (!flushing && waiting.length === 1) setImmediate(() => void flush());
      });
    },
  };
}
