// Metric labels come only from closed lists (server/metrics/labels.ts), on
// every interface and every refusal path: many requests with made-up paths,
// wrong methods and declared bodies over the limit, to every prefix (/api,
// /exchange, /driver-app, /participant, /api/trpc, Next's pages and
// /api/auth), from many addresses and without credentials. Then a scrape:
// the number of request series does not grow with the number of distinct
// paths, and every label value is one of the registries' (or "unknown").
// Before the fix, a body over the limit or a wrong method under /exchange,
// /driver-app or /participant made the request's path a label: a new series
// per request.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB } from "../reliability/support/db";
import "@/server/dispatch-api/router";
import "@/server/exchange-api/router";
import "@/server/participant-api/router";
import "@/server/driver-app/api/router";
import "@/server/trpc/root";
import { INTERFACES, knownOperations, UNKNOWN } from "@/server/metrics/labels";
import { closeAgents, send } from "../reliability/support/http";
import { freshAddress, scrape, startWithMetrics, type Started } from "./support/round-three";

let s: Started;

beforeAll(async () => {
  s = await startWithMetrics();
}, 300_000);

afterAll(async () => {
  closeAgents();
  await s?.app.stop();
  await s?.database.drop();
});

const PREFIXES = ["/api", "/exchange", "/driver-app", "/driver-app/v1", "/participant", "/participant/on", "/participant/control", "/api/trpc", "/api/auth", "/orders", "/_next/static"];
/** Paths with a parameter, answered "wrong method" rather than "not found" when the method does not fit. */
const PARAMETERISED = ["/exchange/order/{x}", "/exchange/drivers/{x}", "/participant/on/order/{x}", "/driver-app/v1/orders/{x}", "/api/trpc/orders.get{x}"];

/** One round: each prefix with `n` distinct random paths, each as a GET, a wrong method, and a declared body over the limit. */
async function round(n: number): Promise<void> {
  const big = Buffer.alloc(300 * 1024, "a");
  const jobs: Array<() => Promise<unknown>> = [];
  for (let i = 0; i < n; i++) {
    const mark = `zz${randomBytes(6).toString("hex")}`;
    const paths = [...PREFIXES.map((p) => `${p}/${mark}`), ...PARAMETERISED.map((p) => p.replace("{x}", mark))];
    for (const path of paths) {
      const localAddress = freshAddress();
      for (const method of ["GET", "DELETE", "PATCH", "PUT"]) jobs.push(() => send(s.app.url, { method, path, localAddress, timeoutMs: 30_000 }));
      jobs.push(() => send(s.app.url, { method: "POST", path, localAddress, headers: { "content-type": "application/json" }, body: big, timeoutMs: 30_000 }));
      jobs.push(() => send(s.app.url, { method: "POST", path: `${path}?${mark}=1`, localAddress, headers: { "content-type": "multipart/form-data; boundary=x" }, body: "--x--", timeoutMs: 30_000 }));
    }
  }
  // A few at a time: the point is the number of distinct paths, not load.
  for (let i = 0; i < jobs.length; i += 16) await Promise.all(jobs.slice(i, i + 16).map((job) => job().catch(() => undefined)));
}

/** The request series of a scrape and their label values. */
function requestSeries(text: string): { series: Set<string>; labels: Array<Record<string, string>> } {
  const series = new Set<string>();
  const labels: Array<Record<string, string>> = [];
  for (const line of text.split("\n")) {
    const m = /^(taxi_request[a-z_]*)\{([^}]*)\}/.exec(line);
    if (!m) continue;
    series.add(`${m[1]}{${m[2]}}`);
    const l: Record<string, string> = {};
    for (const pair of m[2]!.matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) l[pair[1]!] = pair[2]!;
    labels.push(l);
  }
  return { series, labels };
}

// On PostgreSQL only: labels come from closed lists before any statement, the same on either database (issue 35).
describe.skipIf(TEST_DB !== "postgres")("metric labels from closed lists", () => {
  it("made-up paths, wrong methods and bodies over the limit on every prefix add no series", async () => {
    await round(3);
    const first = requestSeries(await scrape(s.metricsUrl));
    await round(12);
    const text = await scrape(s.metricsUrl);
    const second = requestSeries(text);
    const added = [...second.series].filter((x) => !first.series.has(x));
    expect(added, "series created by the second round's new paths").toEqual([]);
    expect(text).not.toMatch(/zz[0-9a-f]{12}/);

    for (const l of second.labels) {
      expect(INTERFACES as readonly string[], JSON.stringify(l)).toContain(l.interface);
      if (l.operation !== undefined && l.operation !== UNKNOWN) {
        expect(knownOperations(l.interface as (typeof INTERFACES)[number]).has(l.operation), JSON.stringify(l)).toBe(true);
      }
      if (l.code !== undefined) expect(l.code, JSON.stringify(l)).toMatch(/^(?:[A-Za-z_]{1,40}|[1-5]\d\d|other)$/);
    }
    // The refusals were counted, as "unknown": nothing was lost, only the client's words.
    expect(second.labels.some((l) => l.interface === "exchange" && l.operation === UNKNOWN && l.code === "PayloadTooLarge")).toBe(true);
    expect(second.labels.some((l) => l.interface === "participant" && l.operation === UNKNOWN)).toBe(true);
    expect(second.labels.some((l) => l.interface === "driver_app" && l.operation === UNKNOWN)).toBe(true);
  });
});
