// Like write-batcher.ts, for writes whose callers need a result of their own
// (a position report's reply: the driver's state). One statement is in
// flight; whatever arrives meanwhile goes in the next one, so under load a
// statement carries what gathered during the previous round trip, and a lone
// item waits only one turn of the event loop (no timer: a timer of 100 ms
// would by itself exceed a p99 of 50 ms). When a quarter of maxItems has
// gathered, up to maxInFlight statements run at once. Items with the same key
// (one driver) never share a statement: the later one waits for the next, so
// a multi-row UPDATE touches each row once. (With several statements at once
// a key's items may commit out of order: the caller's statement must keep
// the newest, as position-write.ts does by the fix's time.)
export interface ResultBatcher<T, R> {
  /** Resolves with this item's result once the statement holding it has committed; rejects with its error, or at once when maxWaiting items wait. */
  add(item: T): Promise<R>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: Error) => void;
}

export function resultBatcher<T, R>(
  write: (items: T[]) => Promise<R[]>,
  options: { maxItems?: number; keyOf?: (item: T) => unknown; maxWaiting?: number; full?: () => Error; maxInFlight?: number } = {},
): ResultBatcher<T, R> {
  const maxItems = options.maxItems ?? 500;
  let waiting: Array<Waiting<T, R>> = [];
  const maxInFlight = options.maxInFlight ?? 1;
  let flushing = 0;

  /** The next statement's items: oldest first, one per key, at most maxItems; the rest stay in order. */
  const take = (): Array<Waiting<T, R>> => {
    if (!options.keyOf) {
      const batch = waiting.slice(0, maxItems);
      waiting = waiting.slice(batch.length);
      return batch;
    }
    const batch: Array<Waiting<T, R>> = [];
    const rest: Array<Waiting<T, R>> = [];
    const keys = new Set<unknown>();
    for (const w of waiting) {
      const k = options.keyOf(w.item);
      if (batch.length < maxItems && !keys.has(k)) {
        keys.add(k);
        batch.push(w);
      } else {
        // A later item of a key already deferred stays behind it.
        keys.add(k);
        rest.push(w);
      }
    }
    waiting = rest;
    return batch;
  };

  const flush = async (): Promise<void> => {
    flushing += 1;
    try {
      while (waiting.length) {
        const batch = take();
        try {
          const results = await write(batch.map((w) => w.item));
          batch.forEach((w, i) => w.resolve(results[i]!));
        } catch (error) {
          const e = error instanceof Error ? error : new Error(String(error));
          for (const w of batch) w.reject(e);
        }
      }
    } finally {
      flushing -= 1;
    }
  };

  return {
    add(item: T): Promise<R> {
      // A bounded queue: past maxWaiting items the caller is refused at once (the database is not keeping up).
      if (options.maxWaiting !== undefined && waiting.length >= options.maxWaiting) return Promise.reject(options.full?.() ?? new Error("the write queue is full"));
      return new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (flushing === 0 && waiting.length === 1) setImmediate(() => void flush());
        // Under load, more statements at once (up to maxInFlight), each taking what has gathered; one key per statement still, not across statements.
        else if (flushing > 0 && flushing < maxInFlight && waiting.length >= (options.maxItems ?? 500) / 4) void flush();
      });
    },
  };
}
