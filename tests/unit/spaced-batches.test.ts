// Work in spaced batches (server/events/spaced-batches.ts, the event relay's
// NOTIFYs and the calls' links): a lone item at once, what arrives while a
// batch runs together in the next, never two batches closer than the gap,
// a batch no larger than its bound, nothing lost when one fails.
import { describe, expect, it } from "vitest";
import { spacedBatches } from "@/server/events/spaced-batches";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("spaced batches", () => {
  it("a lone item at once; a stream of them in batches at least the gap apart, in order", async () => {
    const seen: Array<{ at: number; items: number[] }> = [];
    const start = Date.now();
    const batches = spacedBatches<number>(
      async (items) => {
        seen.push({ at: Date.now() - start, items });
        await sleep(2);
      },
      { gapMs: 50 },
    );
    batches.push(0);
    await batches.drain();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.at).toBeLessThan(20);
    // 40 items over ~200 ms: one batch at most every 50 ms, not one an item
    for (let i = 1; i <= 40; i += 1) {
      batches.push(i);
      await sleep(5);
    }
    await batches.drain();
    expect(seen.flatMap((s) => s.items)).toEqual(Array.from({ length: 41 }, (_, i) => i));
    expect(seen.length).toBeLessThanOrEqual(7);
    for (let k = 1; k < seen.length; k += 1) expect(seen[k]!.at - seen[k - 1]!.at).toBeGreaterThanOrEqual(49);
  });

  it("splits at the bound, and goes on after a batch that failed", async () => {
    const sizes: number[] = [];
    const batches = spacedBatches<number>(
      async (items) => {
        sizes.push(items.length);
        if (sizes.length === 1) throw new Error("the database is away");
      },
      { gapMs: 1, maxBatch: 4 },
    );
    for (let i = 0; i < 10; i += 1) batches.push(i);
    await batches.drain();
    expect(sizes).toEqual([1, 4, 4, 1]);
  });
});
