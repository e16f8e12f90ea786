// The pacer long synchronous work awaits (server/loop-turn.ts): a turn of the
// event loop once its interval has passed, none before.
import { describe, expect, it } from "vitest";
import { loopPacer } from "@/server/loop-turn";

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("loopPacer", () => {
  it("lets what waits for the event loop run once the interval has passed, and not before", async () => {
    const turn = loopPacer(20);
    let ran = 0;
    setImmediate(() => (ran += 1));
    spin(5);
    await turn();
    // Within the interval: no turn was given (the awaited promise resolves in the same turn).
    expect(ran).toBe(0);
    spin(25);
    await turn();
    expect(ran).toBe(1);
    // The interval counts again from that turn.
    setImmediate(() => (ran += 1));
    await turn();
    expect(ran).toBe(1);
  });
});
