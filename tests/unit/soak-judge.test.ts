// The soak's verdict (scripts/bench/soak.ts): a steady rise of memory or p99
// after the warm-up fails it; noise around a flat line does not.
import { describe, expect, it } from "vitest";
import { judge } from "../../scripts/bench/soak";

const minute = (i: number, rssMb: number, heapUsedMb: number, p99 = 20) => ({
  minute: i + 1,
  rssMb,
  heapUsedMb,
  externalMb: 12,
  p99: { "GET /api/order": p99 },
  rps: { "GET /api/order": 100 },
  failed: 0,
  liveStreams: 8,
});

describe("soak verdict", () => {
  it("passes a flat run with noise, the first minutes' warm-up ignored", () => {
    const noise = [0, 6, -4, 3, -6, 5, -2, 4, -5, 1];
    const run = noise.map((n, i) => minute(i, (i === 0 ? 250 : 340) + n, (i === 0 ? 90 : 130) + n / 2, 20 + (n > 0 ? n : 0)));
    expect(judge(run)).toMatchObject({ ok: true, reasons: [] });
  });

  it("fails a heap that grows 5 MB a minute", () => {
    const run = Array.from({ length: 10 }, (_, i) => minute(i, 340 + i * 5, 130 + i * 5));
    const v = judge(run);
    expect(v.ok).toBe(false);
    expect(v.reasons.join(" ")).toMatch(/V8 heap rises 5\.0 MB\/min/);
    expect(v.reasons.join(" ")).toMatch(/resident memory rises/);
  });

  it("fails a p99 that keeps rising", () => {
    const run = Array.from({ length: 10 }, (_, i) => minute(i, 340, 130, 20 + i * 10));
    const v = judge(run);
    expect(v.ok).toBe(false);
    expect(v.reasons.join(" ")).toMatch(/GET \/api\/order p99 rises/);
  });

  it("does not judge a run too short to show a trend", () => {
    const v = judge(Array.from({ length: 3 }, (_, i) => minute(i, 300 + i * 50, 100 + i * 50)));
    expect(v.ok).toBe(true);
    expect(v.reasons[0]).toMatch(/too short/);
  });
});
