// Fault: a burst far above what the instance can serve. It used to queue
// everything (medians of 6–11 s, clients timing out after the work was done
// anyway), refuse nothing, and answer /healthz 503 because its query waited
// behind the queue. Now (server/http/load-shed.ts) the work in progress and
// the wait are bounded: the excess is refused at once in each protocol's
// own form with Retry-After, the rest is served within the queue's wait plus
// its own time, and /healthz answers throughout (server/http/health.ts).
// The limits are set low here so that a burst the test machine can send
// overloads the instance for certain; the burst's connections are opened
// first and its requests then written in one go, so that it arrives at once
// however slow the test's own process is (written connection by connection
// on a loaded CI machine, it arrived slowly enough to be mostly served: 17
// refusals of 240 one day, none another).
import http from "node:http";
import net from "node:net";
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

/** A connection opened ahead of its request. */
function connect(base: string): Promise<net.Socket> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** One request on a connection of its own (a burst of clients, not one client's pipeline): the given open one, or a new one. */
function request(base: string, kind: string, method: string, path: string, body?: string, socket?: net.Socket): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, agent: false, ...(socket ? { createConnection: () => socket } : {}), headers: body ? { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) } : {} }, (res) => {
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

    const kinds: Array<(socket: net.Socket) => Promise<Reply>> = [
      (s) => request(app.url, "dispatch", "GET", `/api/order/pre_cost?${preCost}`, undefined, s),
      (s) => request(app.url, "dispatch", "POST", "/api/order", create, s),
      (s) => request(app.url, "exchange", "GET", "/exchange/order/list", undefined, s),
      (s) => request(app.url, "trpc", "GET", "/api/trpc/orders.board?input=%7B%7D", undefined, s),
      (s) => request(app.url, "page", "GET", "/login", undefined, s),
    ];
    const sockets = await Promise.all(Array.from({ length: BURST }, () => connect(app.url)));
    const replies = await Promise.all(sockets.map((socket, i) => kinds[i % kinds.length]!(socket)));
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
    // on how fast the instance reads it against how fast it serves: 97–212 of 240 here on a quiet machine.
    expect(refusals.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThan(0);
    // Served replies are real answers of their protocol (not errors of the overload).
    for (const r of served.filter((x) => x.kind === "dispatch")) expect(JSON.parse(r.body)).toMatchObject({ status: "DONE" });
    // A served request waited at most the queue's wait before its own work (a loose bound: a slow machine, not a speed target).
    expect(percentile(served.map((r) => r.ms), 99)).toBeLessThan(WAIT_MS + 15_000);
    // The health check was answered, 200, every time.
    expect(health.length).toBeGreaterThan(0);
    // As text, so that a failure prints the verdict the check gave (its body) and how long it took.
    expect(health.filter((r) => r.status !== 200).map((r) => `${r.status} after ${Math.round(r.ms)} ms: ${r.body}`)).toEqual([]);
  });
});
