// The fixed-rate load: an open loop that sends request i at start + i/rate,
// whatever the replies do, and measures each latency from that intended
// moment (wrk2's method), so a request that waited for a free connection or
// for the server counts its wait.
//
// Why not autocannon's `overallRate`: its rate is a per-second allowance per
// connection, reset by a timer every second, so at each second's start every
// connection sends its allowance back to back (20 connections at 200/s: bursts
// of 20 in flight, then idle). Its p99 then measured the server at saturation,
// not at the rate (docs/performance.md, round four). loadtest's `--rps` paces,
// but measures from the actual send, which hides a generator or pool that falls
// behind. Saturation stays with autocannon (load.ts).
import http from "node:http";
import type { LoadJob, LoadResult } from "./load";

const TIMEOUT_MS = 10_000;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

export function runPaced(job: LoadJob & { overallRate: number }): Promise<LoadResult> {
  const target = new URL(job.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const interval = 1000 / job.overallRate;
  const total = Math.max(1, Math.round(job.overallRate * job.duration));
  const latencies: number[] = [];
  const result = { ok: 0, bad: 0, non2xx: 0, errors: 0, timeouts: 0, firstBad: undefined as string | undefined };
  const baseHeaders = { ...(job.method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...job.headers };
  const variants = job.variants && job.variants.length > 0 ? job.variants : undefined;

  return new Promise((resolve) => {
    const start = performance.now() + 20;
    let issued = 0;
    let finished = 0;
    let lastEnd = start;

    const finish = (intended: number, outcome: "ok" | "bad" | "error" | "timeout", detail?: string) => {
      const now = performance.now();
      lastEnd = Math.max(lastEnd, now);
      latencies.push(now - intended);
      if (outcome === "ok") result.ok++;
      else {
        if (outcome === "bad") result.bad++;
        else if (outcome === "error") result.errors++;
        else result.timeouts++;
        result.firstBad ??= detail;
      }
      if (++finished === total) {
        agent.destroy();
        latencies.sort((a, b) => a - b);
        const seconds = (lastEnd - start) / 1000;
        resolve({
          requests: total,
          seconds,
          rps: seconds > 0 ? result.ok / seconds : 0,
          ok: result.ok,
          bad: result.bad,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          latency: {
            mean: round1(latencies.reduce((s, x) => s + x, 0) / latencies.length),
            p50: round1(percentile(latencies, 50)),
            p90: round1(percentile(latencies, 90)),
            p99: round1(percentile(latencies, 99)),
            max: round1(latencies[latencies.length - 1]!),
          },
          ...(result.firstBad ? { firstBad: result.firstBad } : {}),
        });
      }
    };

    const send = (n: number, intended: number) => {
      const variant = variants?.[n % variants.length];
      const body = variant?.body ?? job.body;
      // Each request ends exactly once: a reply read to its end, an error, a timeout or a connection closed mid-reply.
      let settled = false;
      const settle = (outcome: "ok" | "bad" | "error" | "timeout", detail?: string) => {
        if (settled) return;
        settled = true;
        finish(intended, outcome, detail);
      };
      const req = http.request(
        { agent, host: target.hostname, port: target.port, method: job.method, path: variant?.path ?? job.path, headers: body === undefined ? baseHeaders : { ...baseHeaders, "content-length": Buffer.byteLength(body) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const status = res.statusCode ?? 0;
            if (status >= 300) result.non2xx++;
            const text = Buffer.concat(chunks).toString("utf8");
            if (status < 300 && (!job.expect || text.includes(job.expect))) settle("ok");
            else settle("bad", `${status} ${text.slice(0, 300)}`);
          });
          res.on("error", (error) => settle("error", error.message));
          res.on("close", () => settle("error", "connection closed during the reply"));
        },
      );
      req.setTimeout(TIMEOUT_MS, () => {
        settle("timeout", "timeout");
        req.destroy();
      });
      req.on("error", (error) => settle("error", error.message));
      req.end(body);
    };

    // Sends every request whose moment has come, then sleeps until the next one.
    const tick = () => {
      const now = performance.now();
      while (issued < total && start + issued * interval <= now) {
        send(issued, start + issued * interval);
        issued++;
      }
      if (issued < total) setTimeout(tick, Math.max(0, start + issued * interval - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
}
