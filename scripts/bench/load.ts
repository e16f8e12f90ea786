// The load generator, in a process of its own (so that it does not share a
// core's event loop with the orchestrator or the server): autocannon for
// saturation, the paced open loop of paced.ts for a fixed rate.
//   tsx scripts/bench/load.ts <job.json>
// The job (LoadJob) names the target and how to load it; the result
// (LoadResult) is printed as one JSON line on stdout, prefixed LOAD_RESULT.
// `variants` are cycled through, one per request, so that each request can
// carry a different path or body (uuids to read, a fresh price token per
// order, a new exchange order id). A variant used again (tokens used up)
// fails, and failures are not counted in the throughput.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { runPaced } from "./paced";

export interface LoadJob {
  url: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  variants?: Array<{ path?: string; body?: string }>;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Requests per second from all connections, evenly spaced (a fixed rate, paced.ts); absent: as fast as possible. */
  overallRate?: number;
  /** A reply body that contains this text counts as a success. */
  expect?: string;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  ok: number;
  bad: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  firstBad?: string;
}

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest | undefined;
  onResponse?: (status: number, body: string) => void;
}

interface AutocannonResult {
  duration: number;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  requests: { total: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
}

type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => unknown;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

export function runLoad(job: LoadJob): Promise<LoadResult> {
  if (job.overallRate) return runPaced({ ...job, overallRate: job.overallRate });
  let next = 0;
  let ok = 0;
  let bad = 0;
  let firstBad: string | undefined;
  const variants = job.variants;
  const request: AutocannonRequest = {
    method: job.method,
    path: job.path,
    headers: { ...(job.method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...job.headers },
    body: job.body,
    setupRequest: (req) => {
      if (!variants || variants.length === 0) return req;
      const v = variants[next++ % variants.length]!;
      return { ...req, path: v.path ?? req.path, body: v.body ?? req.body };
    },
    onResponse: (status, body) => {
      if (status < 300 && (!job.expect || body.includes(job.expect))) ok++;
      else {
        bad++;
        firstBad ??= `${status} ${body.slice(0, 300)}`;
      }
    },
  };
  const options: Record<string, unknown> = {
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    requests: [request],
    timeout: 10,
  };
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => {
      if (error) return reject(error);
      const seconds = result.duration;
      resolve({
        requests: result.requests.total,
        seconds,
        rps: seconds > 0 ? ok / seconds : 0,
        ok,
        bad,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        latency: { mean: result.latency.mean, p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
        ...(firstBad ? { firstBad } : {}),
      });
    });
  });
}

if (process.argv[1] && /load\.ts$/.test(process.argv[1])) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: load.ts <job.json>");
  const job = JSON.parse(readFileSync(file, "utf8")) as LoadJob;
  runLoad(job)
    .then((result) => {
      process.stdout.write(`LOAD_RESULT ${JSON.stringify(result)}\n`);
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
