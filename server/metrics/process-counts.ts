// The process's open files and active resources, counted at most every
// COUNT_EVERY_MS and without holding the event loop. prom-client's default
// collectors count them on every scrape, synchronously: with a fleet's
// 10,000 open streams a scrape read /proc/self/fd (10,000 entries) and listed
// every handle twice and every resource twice, 40–130 ms of the main thread
// each time, while the phones' positions waited (a CPU profile of the fleet
// benchmark, docs/performance.md). The same series, the same names; the
// handles' pair (an older API listing the same sockets again) is left out:
// nodejs_active_resources_total counts them.
import { readdir } from "node:fs/promises";
import { Gauge, type Registry } from "prom-client";

/** How stale a count may be: well under any scrape interval's use of it (Prometheus scrapes every 15–60 s). */
export const COUNT_EVERY_MS = 10_000;

/** prom-client's default series this module replaces (registered by collectDefaultMetrics first). */
export const REPLACED_DEFAULTS = ["process_open_fds", "nodejs_active_handles", "nodejs_active_handles_total", "nodejs_active_resources", "nodejs_active_resources_total"] as const;

interface Counts {
  at: number;
  openFiles: number | null;
  resources: Map<string, number>;
  resourcesTotal: number;
}

export function registerProcessCounts(registry: Registry): void {
  for (const name of REPLACED_DEFAULTS) registry.removeSingleMetric(name);
  let counts: Counts | null = null;
  let pending: Promise<Counts> | null = null;
  const read = async (): Promise<Counts> => {
    // The directory is read on libuv's threads; only its names come back to the loop.
    const openFiles = process.platform === "linux" ? await readdir("/proc/self/fd").then((fds) => fds.length - 1, () => null) : null;
    const info = process.getActiveResourcesInfo();
    const resources = new Map<string, number>();
    for (const type of info) resources.set(type, (resources.get(type) ?? 0) + 1);
    return { at: Date.now(), openFiles, resources, resourcesTotal: info.length };
  };
  // One count at a time, shared by the series of one scrape and by scrapes that overlap.
  const current = (): Promise<Counts> => {
    if (counts && Date.now() - counts.at < COUNT_EVERY_MS) return Promise.resolve(counts);
    // A failed count is not kept: the next scrape tries again.
    pending ??= read()
      .then((c) => (counts = c))
      .finally(() => (pending = null));
    return pending;
  };
  const registers = [registry];
  new Gauge({
    name: "process_open_fds",
    help: `Number of open file descriptors (counted at most every ${COUNT_EVERY_MS / 1000} s).`,
    registers,
    async collect() {
      const c = await current();
      if (c.openFiles !== null) this.set(c.openFiles);
    },
  });
  new Gauge({
    name: "nodejs_active_resources",
    help: `Number of active resources that are currently keeping the event loop alive, grouped by async resource type (counted at most every ${COUNT_EVERY_MS / 1000} s).`,
    labelNames: ["type"] as const,
    registers,
    async collect() {
      const c = await current();
      this.reset();
      for (const [type, n] of c.resources) this.set({ type }, n);
    },
  });
  new Gauge({
    name: "nodejs_active_resources_total",
    help: `Total number of active resources (counted at most every ${COUNT_EVERY_MS / 1000} s).`,
    registers,
    async collect() {
      this.set((await current()).resourcesTotal);
    },
  });
}
