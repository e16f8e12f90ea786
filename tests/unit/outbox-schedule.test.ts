// The retry schedule of the outbox (server/notifications/schedule.ts): the
// delays double from half a second to the cap, with jitter within the upper
// half of each step, and a failing message is retried until the horizon
// (three days by default), not given up after an hour as before.
import { describe, expect, it } from "vitest";
import { nextAttemptDelayMs, retryDelayMs, retryPolicy } from "@/server/notifications/schedule";

const policy = retryPolicy({ maxBackoffSeconds: 3600, retryHours: 72 });

describe("outbox retry schedule", () => {
  it("doubles from 0.5 s up to the cap, jitter within the upper half of each step", () => {
    const ceilings = [500, 1000, 2000, 4000, 8000];
    ceilings.forEach((ceiling, i) => {
      expect(retryDelayMs(policy, i + 1, 0)).toBe(ceiling / 2);
      expect(retryDelayMs(policy, i + 1, 0.999999)).toBeLessThanOrEqual(ceiling);
      expect(retryDelayMs(policy, i + 1, 0.999999)).toBeGreaterThan(ceiling * 0.99);
    });
    for (const attempts of [14, 20, 60, 500, 10_000]) {
      expect(retryDelayMs(policy, attempts, 0.999999)).toBeLessThanOrEqual(3_600_000);
      expect(retryDelayMs(policy, attempts, 0)).toBe(1_800_000);
    }
  });

  it("spreads messages that failed together", () => {
    const delays = new Set(Array.from({ length: 50 }, (_, i) => retryDelayMs(policy, 10, i / 50)));
    expect(delays.size).toBe(50);
  });

  it("keeps retrying a message for the horizon, then gives it up", () => {
    // Simulate a receiver down for good: attempt, fail, wait, as the worker does.
    let age = 0;
    let attempts = 0;
    for (;;) {
      attempts++;
      const delay = nextAttemptDelayMs(policy, attempts, age, 0.5);
      if (delay === null) break;
      age += delay;
    }
    // Not after an hour (the old 60 attempts): after three days, and not much later.
    expect(age).toBeGreaterThanOrEqual(72 * 3_600_000);
    expect(age).toBeLessThan(73 * 3_600_000);
    expect(attempts).toBeGreaterThan(60);
    expect(attempts).toBeLessThan(200);
    // Two hours in, after 60 attempts, it still has a next attempt, at least half an hour ahead.
    expect(nextAttemptDelayMs(policy, 60, 2 * 3_600_000, 0)).toBe(1_800_000);
    expect(nextAttemptDelayMs(policy, 60, 72 * 3_600_000, 0)).toBeNull();
  });

  it("the last attempt lands on the horizon, never past it", () => {
    expect(nextAttemptDelayMs(policy, 80, 72 * 3_600_000 - 60_000, 0.9)).toBe(60_000);
  });

  it("the horizon is a setting", () => {
    const day = retryPolicy({ maxBackoffSeconds: 600, retryHours: 24 });
    expect(nextAttemptDelayMs(day, 100, 23 * 3_600_000, 0.999)).toBeLessThanOrEqual(600_000);
    expect(nextAttemptDelayMs(day, 100, 24 * 3_600_000, 0)).toBeNull();
  });
});
