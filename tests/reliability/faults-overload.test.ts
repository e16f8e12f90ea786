// Fault: a burst far above what the instance can serve. It used to queue
// everything (medians of 6–11 s, clients timing out after the work was done
// anyway), refuse nothing, and answer /healthz 503 because its query waited
// behind the queue. Now (server/http/load-shed.ts) the work in progress and
// the wait are bounded: the excess is refused at once in each protocol's
// own form with Retry-After, the rest is served within the queue's wait plus
// its own time, and /healthz answers throughout (server/http/health.ts).
// The limits are set low here so that a burst the test machine can send
// overloads the instance for certain.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "./support/db";
import { freshDatabase, startInstance, template, type AppInstance } from "./support/instance";

const IN_FLIGHT = 4;
const QUEUED = 8;
const WAIT_MS = 1_000;
const BURST = 240;

interface Reply {
  kind: string;
  status: number;
  retryAfter?: string;
  body: string;
  ms: number;
}

/** One request on a connection of its own (a burst of clients, not one client's pipeline). */
function request(base: string, kind: string, method: string, path: string, body?: string): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, agent: false, headers: body ? { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) } : {} }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString("utf8")));
      res.on("end", () => resolve({ kind, status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], body: text, ms: performance.now() - started }));
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`no reply within 60 s: ${path}`)));
    req.on("error", reject);
    req.end(body);
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe("overload: fast refusals, bounded waits, health answering", () => {
  let database: TestDatabase;
  let app: AppInstance;

  beforeAll(async () => {
    database = await freshDatabase();
    app = await startInstance(database, {
      env: { MAX_REQUESTS_IN_FLIGHT: String(IN_FLIGHT), MAX_REQUESTS_QUEUED: String(QUEUED), MAX_QUEUE_WAIT_MS: String(WAIT_MS), RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" },
    });
  });

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
  });

  it("refuses the excess in each protocol's form, serves the rest within bounds, and /healthz answers 200 throughout", async () => {
    const key = template().apiKey;
    const preCost = new URLSearchParams({ api_key: key, phone: "89161234567", way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }, { lat: 55.78, lon: 37.6 }]) }).toString();
    const create = new URLSearchParams({ api_key: key, phone: "89161234567", street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no" }).toString();
    const health: Reply[] = [];
    let bursting = true;
    const healthLoop = (async () => {
      while (bursting) {
        health.push(await request(app.url, "health", "GET", "/healthz"));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const kinds: Array<() => Promise<Reply>> = [
      () => request(app.url, "dispatch", "GET", `/api/order/pre_cost?${preCost}`),
      () => request(app.url, "dispatch", "POST", "/api/order", create),
      () => request(app.url, "exchange", "GET", "/exchange/order/list"),
      () => request(app.url, "trpc", "GET", "/api/trpc/orders.board?input=%7B%7D"),
      () => request(app.url, "page", "GET", "/login"),
    ];
    const replies = await Promise.all(Array.from({ length: BURST }, (_, i) => kinds[i % kinds.length]!()));
    bursting = false;
    await healthLoop;

    const refused = (r: Reply) => r.retryAfter !== undefined;
    // Every refusal in its protocol's own form.
    for (const r of replies.filter(refused)) {
      if (r.kind === "dispatch") expect([r.status, JSON.parse(r.body)]).toMatchObject([200, { status: "ERROR", error: { code: "RATE_LIMITED" } }]);
      if (r.kind === "exchange") expect([r.status, JSON.parse(r.body)]).toMatchObject([429, { errors: [{ code: "TooManyRequests" }] }]);
      if (r.kind === "trpc") expect([r.status, JSON.parse(r.body)]).toMatchObject([429, { error: { json: { data: { code: "TOO_MANY_REQUESTS" } } } }]);
      if (r.kind === "page") expect(r.status).toBe(503);
    }
    const served = replies.filter((r) => !refused(r));
    const refusals = replies.filter(refused);
    console.log(
      `faults-overload: ${BURST} at once, ${refusals.length} refused (p50 ${Math.round(percentile(refusals.map((r) => r.ms), 50))} ms), ` +
        `${served.length} served (p50 ${Math.round(percentile(served.map((r) => r.ms), 50))} ms, p99 ${Math.round(percentile(served.map((r) => r.ms), 99))} ms), ` +
        `health max ${Math.round(Math.max(...health.map((r) => r.ms)))} ms over ${health.length}`,
    );
    // The excess was refused, not queued (before the limiter, nothing was). How much of the burst is excess depends
    // on how fast the test's own process sends it against how fast the instance serves: 212 of 240 on a quiet
    // machine, 17 on a loaded CI machine (2026-11-28), where the burst arrived slowly enough to be mostly served.
    expect(refusals.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThan(0);
    // Served replies are real answers of their protocol (not errors of the overload).
    for (const r of served.filter((x) => x.kind === "dispatch")) expect(JSON.parse(r.body)).toMatchObject({ status: "DONE" });
    // A served request waited at most the queue's wait before its own work (a loose bound: a slow machine, not a speed target).
    expect(percentile(served.map((r) => r.ms), 99)).toBeLessThan(WAIT_MS + 15_000);
    // The health check was answered, 200, every time.
    expect(health.length).toBeGreaterThan(0);
    expect(health.filter((r) => r.status !== 200)).toEqual([]);
  });
});
