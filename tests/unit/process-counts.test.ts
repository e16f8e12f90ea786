// The open files and active resources (server/metrics/process-counts.ts):
// the same series as prom-client's defaults, once each, with true counts,
// counted at most every COUNT_EVERY_MS however often the endpoint is scraped.
import { closeSync, openSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { collectDefaultMetrics, Registry } from "prom-client";
import { COUNT_EVERY_MS, registerProcessCounts } from "@/server/metrics/process-counts";

function valueOf(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("process counts", () => {
  it("replaces the default series once each, with the process's real counts, and counts again only after COUNT_EVERY_MS", async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    registerProcessCounts(registry);
    const text = await registry.metrics();
    for (const series of ["process_open_fds", "nodejs_active_resources_total"]) {
      expect(text.split("\n").filter((l) => l.startsWith(`# TYPE ${series} `)), series).toHaveLength(1);
    }
    // The handles' pair lists the same sockets again: left out.
    expect(text).not.toMatch(/^nodejs_active_handles/m);
    expect(text).toMatch(/^nodejs_active_resources\{type="[A-Za-z]+"\} \d+$/m);
    const counted = valueOf(text, "process_open_fds")!;
    expect(Math.abs(counted - (readdirSync("/proc/self/fd").length - 1))).toBeLessThanOrEqual(3);

    // Twenty more files open: a scrape within COUNT_EVERY_MS still gives the count it made.
    const files = Array.from({ length: 20 }, () => openSync("/proc/self/stat", "r"));
    try {
      expect(valueOf(await registry.metrics(), "process_open_fds")).toBe(counted);
    } finally {
      for (const fd of files) closeSync(fd);
    }
    expect(COUNT_EVERY_MS).toBeLessThanOrEqual(15_000);
  });
});
