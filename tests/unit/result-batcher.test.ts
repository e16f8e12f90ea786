// The batcher of writes with a result each (server/db/result-batcher.ts): the
// position reports' (server/driver-app/position-write.ts).
import { describe, expect, it } from "vitest";
import { resultBatcher } from "../../server/db/result-batcher";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("resultBatcher", () => {
  it("writes what arrives together in one statement and gives each its own result", async () => {
    const statements: number[][] = [];
    const b = resultBatcher<number, number>(async (items) => {
      statements.push(items);
      await tick();
      return items.map((x) => x * 10);
    });
    const results = await Promise.all([1, 2, 3].map((x) => b.add(x)));
    expect(results).toEqual([10, 20, 30]);
    expect(statements).toEqual([[1, 2, 3]]);
  });

  it("puts what arrives during a write in the next statement, at most maxItems a statement", async () => {
    const statements: number[][] = [];
    const b = resultBatcher<number, number>(
      async (items) => {
        statements.push(items);
        await tick();
        return items;
      },
      { maxItems: 2 },
    );
    const first = b.add(1);
    await new Promise((r) => setImmediate(r));
    const later = [2, 3, 4].map((x) => b.add(x));
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3, 4]);
    expect(statements).toEqual([[1], [2, 3], [4]]);
  });

  it("never puts two items of one key in a statement, and keeps each key's items in order", async () => {
    const statements: Array<Array<{ k: string; v: number }>> = [];
    const b = resultBatcher<{ k: string; v: number }, number>(
      async (items) => {
        statements.push(items);
        return items.map((i) => i.v);
      },
      { keyOf: (i) => i.k },
    );
    const items = [
      { k: "a", v: 1 },
      { k: "b", v: 2 },
      { k: "a", v: 3 },
      { k: "c", v: 4 },
      { k: "a", v: 5 },
    ];
    expect(await Promise.all(items.map((i) => b.add(i)))).toEqual([1, 2, 3, 4, 5]);
    expect(statements.map((s) => s.map((i) => i.v))).toEqual([[1, 2, 4], [3], [5]]);
  });

  it("rejects every item of a failed statement, and goes on with the next", async () => {
    let calls = 0;
    const b = resultBatcher<number, number>(async (items) => {
      calls++;
      if (calls === 1) throw new Error("deadlock");
      return items;
    });
    const failed = await Promise.allSettled([b.add(1), b.add(2)]);
    expect(failed.map((f) => f.status)).toEqual(["rejected", "rejected"]);
    expect(await b.add(3)).toBe(3);
  });

  it("refuses at once past maxWaiting items waiting, and takes items again once they are written", async () => {
    const b = resultBatcher<number, number>(
      async (items) => {
        await tick();
        return items;
      },
      { maxWaiting: 2, full: () => new Error("full") },
    );
    const admitted = [b.add(1), b.add(2)];
    await expect(b.add(3)).rejects.toThrow("full");
    expect(await Promise.all(admitted)).toEqual([1, 2]);
    expect(await b.add(4)).toBe(4);
  });

  it("runs up to maxInFlight statements at once when items pile up, each item written once", async () => {
    let running = 0;
    let most = 0;
    const written: number[] = [];
    const b = resultBatcher<number, number>(
      async (items) => {
        running++;
        most = Math.max(most, running);
        await tick();
        written.push(...items);
        running--;
        return items;
      },
      { maxItems: 8, maxInFlight: 3 },
    );
    const first = b.add(0);
    await new Promise((r) => setImmediate(r));
    const rest = Array.from({ length: 40 }, (_, i) => b.add(i + 1));
    expect(await Promise.all([first, ...rest])).toEqual(Array.from({ length: 41 }, (_, i) => i));
    expect(most).toBe(3);
    expect(written.sort((x, y) => x - y)).toEqual(Array.from({ length: 41 }, (_, i) => i));
  });
});
