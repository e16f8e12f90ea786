// Work that arrives item by item and is cheaper in batches (an event relay's
// NOTIFYs, the calls linked to new orders): one batch at a time, holding
// whatever arrived while the last ran, at most one every `gapMs`. A lone item
// goes at once; a stream of them goes in batches of `gapMs`' worth, so the
// statements they cost stay bounded however fast the items come.
//
// What waits is bounded too. When the work is slower than the items (the
// database loaded), they would wait without end: in the fleet's soak the
// relay held 234,000 cars' moves, two minutes of them, and the instance's
// heap rose 15 MB a minute (docs/performance.md). Items with a key
// (`keyOf`: a car's latest state) replace the waiting one of the same key,
// in its place; past `maxWaiting` the oldest are dropped and counted.
export interface SpacedBatches<T> {
  push(item: T): void;
  /** Resolves when nothing is running or waiting (a stop waits for it). */
  drain(): Promise<void>;
  /** Items waiting for a batch (not the one running). */
  waiting(): number;
}

export interface SpacedBatchOptions<T> {
  gapMs: number;
  maxBatch?: number;
  /** Items of one key where only the latest matters: a newer one takes the waiting one's place. */
  keyOf?: (item: T) => string | number | undefined;
  /** At most this many wait; beyond it the oldest are dropped (`onDrop` is told how many). */
  maxWaiting?: number;
  onDrop?: (count: number) => void;
}

export function spacedBatches<T>(handle: (items: T[]) => Promise<void>, options: SpacedBatchOptions<T>): SpacedBatches<T> {
  const maxBatch = options.maxBatch ?? Infinity;
  const maxWaiting = options.maxWaiting ?? Infinity;
  let waiting: T[] = [];
  // Where each key's item waits in `waiting`, while it waits.
  let placeOf = new Map<string | number, number>();
  let running: Promise<void> | null = null;
  let lastAt = -Infinity;
  const reindex = (): void => {
    placeOf = new Map();
    if (!options.keyOf) return;
    waiting.forEach((item, i) => {
      const key = options.keyOf!(item);
      if (key !== undefined) placeOf.set(key, i);
    });
  };
  const run = (): void => {
    if (running || waiting.length === 0) return;
    running = (async () => {
      const gap = lastAt + options.gapMs - Date.now();
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      lastAt = Date.now();
      const batch = waiting.length > maxBatch ? waiting.slice(0, maxBatch) : waiting;
      waiting = waiting.length > maxBatch ? waiting.slice(maxBatch) : [];
      reindex();
      // `handle` reports its own failures; one that escapes is dropped here
      // rather than left unhandled, and the next batch goes on.
      await handle(batch).catch(() => undefined);
    })().finally(() => {
      running = null;
      run();
    });
  };
  return {
    push(item) {
      const key = options.keyOf?.(item);
      if (key !== undefined) {
        const place = placeOf.get(key);
        if (place !== undefined) {
          waiting[place] = item;
          return;
        }
        placeOf.set(key, waiting.length);
      }
      waiting.push(item);
      if (waiting.length > maxWaiting) {
        // Dropped in bulk (a tenth of the bound), so that a flood costs one copy per many items, not one each.
        const drop = waiting.length - Math.floor(maxWaiting * 0.9);
        waiting = waiting.slice(drop);
        reindex();
        options.onDrop?.(drop);
      }
      run();
    },
    async drain() {
      while (running) await running;
    },
    waiting: () => waiting.length,
  };
}
