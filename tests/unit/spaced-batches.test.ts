// Work in spaced batches (server/events/spaced-batches.ts, the event relay's
// NOTIFYs and the calls' links): a lone item at once, what arrives while a
// batch runs together in the next, never two batches closer than the gap,
// a batch no larger than its bound, nothing lost when one fails; while the
// work is slower than the items, a key's newer item takes its waiting one's
// place and what waits stays under its bound (the oldest dropped, counted).
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

  /** A handler held until released: the database slower than the items. */
  function held() {
    const batches: Array<Array<{ key?: number; n: number }>> = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    return { batches, release, handle: async (items: Array<{ key?: number; n: number }>) => { batches.push(items); await gate; } };
  }

  it("while a batch runs, a key's newer item replaces its waiting one, in its place; items without a key all wait, in order", async () => {
    const h = held();
    const batches = spacedBatches(h.handle, { gapMs: 1, keyOf: (item) => item.key });
    batches.push({ n: -1 }); // runs at once and is held
    await sleep(5);
    for (let n = 0; n < 1_000; n += 1) batches.push(n % 100 === 0 ? { n } : { key: n % 10, n });
    // 10 cars' latest moves and the 10 items without a key, not 1,000
    expect(batches.waiting()).toBe(20);
    h.release();
    await batches.drain();
    expect(h.batches).toHaveLength(2);
    const second = h.batches[1]!;
    // In the order of first arrival (item 0 has no key, 1..9 are keys 1..9, 10 is key 0), each key with its latest item.
    const hundreds = [100, 200, 300, 400, 500, 600, 700, 800, 900];
    expect(second.map((i) => [i.key ?? null, i.n])).toEqual([
      [null, 0],
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => [k, 990 + k]),
      [0, 990],
      ...hundreds.map((n) => [null, n]),
    ]);
  });

  it("past its bound the oldest waiting items are dropped and counted, and the newest still go", async () => {
    const h = held();
    const dropped: number[] = [];
    const batches = spacedBatches(h.handle, { gapMs: 1, maxWaiting: 100, onDrop: (n) => dropped.push(n) });
    batches.push({ n: -1 });
    await sleep(5);
    for (let n = 0; n < 1_000; n += 1) batches.push({ n });
    expect(batches.waiting()).toBeLessThanOrEqual(100);
    const sum = dropped.reduce((a, b) => a + b, 0);
    expect(sum + batches.waiting()).toBe(1_000);
    // In bulk, not one by one.
    expect(dropped.length).toBeLessThan(100);
    h.release();
    await batches.drain();
    const sent = h.batches[1]!.map((i) => i.n);
    expect(sent.at(-1)).toBe(999);
    expect(sent).toEqual(Array.from({ length: sent.length }, (_, k) => 1_000 - sent.length + k));
  });

  it("after a drop, a keyed item replaces its own waiting one at its new place, and never another item", async () => {
    const h = held();
    const batches = spacedBatches(h.handle, { gapMs: 1, maxWaiting: 10, keyOf: (item) => item.key });
    batches.push({ n: -1 });
    await sleep(5);
    batches.push({ key: 7, n: 0 }); // the oldest: dropped by the flood below
    for (let n = 1; n <= 5; n += 1) batches.push({ n });
    batches.push({ key: 8, n: 6 }); // survives the drop, at a new place
    for (let n = 7; n <= 11; n += 1) batches.push({ n }); // the 11th waiting item: the two oldest are dropped
    batches.push({ key: 7, n: 100 }); // key 7's old place now holds another item; 11 again: two more dropped
    batches.push({ key: 8, n: 101 });
    h.release();
    await batches.drain();
    const second = h.batches[1]!.map((i) => [i.key ?? null, i.n]);
    // Items 0..3 dropped (key 7's first among them); key 8 in its moved place with its latest; key 7 new at the end.
    expect(second).toEqual([[null, 4], [null, 5], [8, 101], [null, 7], [null, 8], [null, 9], [null, 10], [null, 11], [7, 100]]);
  });
});
