// The driver app's pause between tries of its offline queue
// (app/components/driver/replay-backoff.ts), on cases worked out by hand.
import { describe, expect, it } from "vitest";
import { FIRST_PAUSE_MS, MAX_PAUSE_MS, ReplayBackoff } from "@/app/components/driver/replay-backoff";

describe("the offline queue's retry pause", () => {
  it("doubles from 5 s to the 2-minute cap, each pause between half and all of its ceiling", () => {
    const highest = new ReplayBackoff(() => 1);
    const lowest = new ReplayBackoff(() => 0);
    const ceilings = [5_000, 10_000, 20_000, 40_000, 80_000, 120_000, 120_000, 120_000];
    for (const ceiling of ceilings) {
      expect(highest.failed(0)).toBe(ceiling);
      expect(lowest.failed(0)).toBe(ceiling / 2);
    }
    expect(ceilings[0]).toBe(FIRST_PAUSE_MS);
    expect(ceilings.at(-1)).toBe(MAX_PAUSE_MS);
  });

  it("is not ready before its time, and ready at it", () => {
    const b = new ReplayBackoff(() => 1);
    expect(b.ready(0)).toBe(true);
    const next = b.failed(1_000);
    expect(next).toBe(6_000);
    expect(b.ready(5_999)).toBe(false);
    expect(b.ready(6_000)).toBe(true);
  });

  it("waits at least the server's Retry-After, still within the cap", () => {
    const b = new ReplayBackoff(() => 0);
    expect(b.failed(0, 30)).toBe(30_000);
    expect(b.failed(0, 1)).toBe(5_000); // second failure: ceiling 10 s, half of it
    expect(b.failed(0, 3_600)).toBe(MAX_PAUSE_MS);
  });

  it("starts over after a success or when the connection returns", () => {
    const b = new ReplayBackoff(() => 1);
    for (let i = 0; i < 6; i++) b.failed(0);
    expect(b.ready(100_000)).toBe(false);
    b.reset();
    expect(b.ready(0)).toBe(true);
    expect(b.failed(0)).toBe(FIRST_PAUSE_MS);
  });

  it("spreads phones cut off together: their first pauses differ", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647);
    const pauses = new Set(Array.from({ length: 50 }, () => new ReplayBackoff(random).failed(0)));
    expect(pauses.size).toBeGreaterThan(40);
  });
});
