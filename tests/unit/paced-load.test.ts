// The benchmark's fixed rate (scripts/bench/paced.ts) against a plain HTTP
// server: requests arrive evenly spaced, not in bursts, and a request's
// latency runs from the moment it was due, so a server slower than the rate
// shows the queue (what autocannon's per-second allowance hid).
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { runPaced } from "../../scripts/bench/paced";

let server: Server | undefined;

async function serve(delayMs: number, arrivals: number[]): Promise<string> {
  server = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    setTimeout(() => res.end(req.url?.includes("bad") ? "nope" : '{"status":"DONE"}'), delayMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe("the paced fixed rate", () => {
  it("sends evenly spaced requests at the rate and counts only the expected replies", async () => {
    const arrivals: number[] = [];
    const url = await serve(0, arrivals);
    const variants = Array.from({ length: 10 }, (_, i) => ({ path: i === 9 ? "/bad" : `/ok/${i}` }));
    const result = await runPaced({ url, method: "GET", path: "/", variants, connections: 20, duration: 2, overallRate: 100, expect: '"DONE"' });
    expect(result.requests).toBe(200);
    expect(arrivals).toHaveLength(200);
    expect(result.ok).toBe(180);
    expect(result.bad).toBe(20);
    expect(result.firstBad).toContain("nope");
    // 100/s is one every 10 ms. autocannon's per-second allowance sent 100
    // at once: 99 gaps of ~0 ms a second. The pacer sends each when due, so
    // most gaps are near 10 ms; a stall of this process (a loaded machine)
    // is caught up by sending what fell due together, which is right (the
    // latency counts from the due time), so the test bounds the share of
    // short gaps, not the longest burst.
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
    const short = gaps.filter((gap) => gap < 4).length;
    expect(short / gaps.length).toBeLessThan(0.5);
    // Never ahead of the schedule: the last request was due at 1.99 s.
    const span = arrivals[arrivals.length - 1]! - arrivals[0]!;
    expect(span).toBeGreaterThan(1_800);
  });

  it("measures from when a request was due: a server slower than the rate shows its queue", async () => {
    const arrivals: number[] = [];
    // One connection, 50 ms a reply: 20/s served against 50/s asked for, for one second.
    const url = await serve(50, arrivals);
    const result = await runPaced({ url, method: "GET", path: "/", connections: 1, duration: 1, overallRate: 50 });
    expect(result.ok).toBe(50);
    // The last request was due at ~1 s and answered after ~2.5 s: its wait counts.
    expect(result.latency.max).toBeGreaterThan(1_000);
    expect(result.latency.p50).toBeGreaterThan(300);
  });
});
