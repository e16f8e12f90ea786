// Work that arrives item by item and is cheaper in batches (an event relay's
// NOTIFYs, the calls linked to new orders): one batch at a time, holding
// whatever arrived while the last ran, at most one every `gapMs`. A lone item
// goes at once; a stream of them goes in batches of `gapMs`' worth, so the
// statements they cost stay bounded however fast the items come.
export interface SpacedBatches<T> {
  push(item: T): void;
  /** Resolves when nothing is running or waiting (a stop waits for it). */
  drain(): Promise<void>;
}

export function spacedBatches<T>(handle: (items: T[]) => Promise<void>, options: { gapMs: number; maxBatch?: number }): SpacedBatches<T> {
  const maxBatch = options.maxBatch ?? Infinity;
  let waiting: T[] = [];
  let running: Promise<void> | null = null;
  let lastAt = -Infinity;
  const run = (): void => {
    if (running || waiting.length === 0) return;
    running = (async () => {
      const gap = lastAt + options.gapMs - Date.now();
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      lastAt = Date.now();
      const batch = waiting.length > maxBatch ? waiting.slice(0, maxBatch) : waiting;
      waiting = waiting.length > maxBatch ? waiting.slice(maxBatch) : [];
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
      waiting.push(item);
      run();
    },
    async drain() {
      while (running) await running;
    },
  };
}
