// An offer stream's time (server/driver-app/offers.ts): between four and five
// minutes as docs/driver-app.md says, and spread over that range, so that
// phones that connected together do not all reconnect together again.
import { describe, expect, it } from "vitest";
import { STREAM_SECONDS, streamSeconds } from "@/server/driver-app/offers";

describe("an offer stream's time", () => {
  it("is between 80% and 100% of STREAM_SECONDS, the ends included", () => {
    expect(streamSeconds(0)).toBe(STREAM_SECONDS * 0.8);
    expect(streamSeconds(0.999_999)).toBeLessThanOrEqual(STREAM_SECONDS);
    expect(STREAM_SECONDS).toBe(300);
  });

  it("spreads 10,000 streams opened together over the whole minute", () => {
    const ends = Array.from({ length: 10_000 }, () => streamSeconds());
    const seconds = new Set(ends.map((s) => Math.floor(s)));
    // 60 whole seconds between 240 and 299: nearly all of them taken, none outside.
    expect(Math.min(...ends)).toBeGreaterThanOrEqual(240);
    expect(Math.max(...ends)).toBeLessThanOrEqual(300);
    expect(seconds.size).toBeGreaterThanOrEqual(55);
  });
});
