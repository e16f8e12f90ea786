// The Prometheus endpoint (docs/metrics.md): the real server with a metrics
// listener and a token; requests of each interface, then a scrape that must
// show them, and the public listener that must not serve the figures to
// anyone without the token.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type StartedServer } from "../support/server";

const TOKEN = "metrics-token-0123456789abcdef";
let app: StartedServer;
let metricsUrl: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
    srv.on("error", reject);
  });
}

/** The value of one series (exact labels as written), or undefined. */
function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(url: string, token?: string): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") };
}

beforeAll(async () => {
  const port = await freePort();
  app = await startServer({ seedDemo: false, env: { METRICS_PORT: String(port), METRICS_TOKEN: TOKEN, DEMO_EXCHANGE: "0" } });
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
});

afterAll(async () => {
  await app?.stop();
});

describe("metrics endpoint", () => {
  it("counts each interface's operations, latencies and errors by code", async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${app.url}/api/version`)).status).toBe(200);
    const bad = (await (await fetch(`${app.url}/api/order?api_key=wrong-key-000000&uuid=x`)).json()) as { error: { code: string } };
    expect(bad.error.code).toBe("BAD_API_KEY");
    expect((await fetch(`${app.url}/api/no/such/operation`)).status).toBe(404);
    const x = await fetch(`${app.url}/exchange/order`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ data: { id: "1", type: "order", attributes: {} } }) });
    expect(x.status).toBe(401);
    const trpc = await fetch(`${app.url}/api/trpc/orders.board?input=${encodeURIComponent(JSON.stringify({ json: { filter: { group: "active" }, limit: 10 } }))}`);
    expect(trpc.status).toBe(401);
    // A made-up path must not become a series of its own.
    await fetch(`${app.url}/api/attacker-${Date.now()}`);

    const { status, text, type } = await scrape(metricsUrl, TOKEN);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(value(text, 'taxi_requests_total{interface="dispatch",operation="GET version",outcome="ok"}')).toBeGreaterThanOrEqual(3);
    expect(value(text, 'taxi_request_duration_seconds_count{interface="dispatch",operation="GET version"}')).toBeGreaterThanOrEqual(3);
    expect(value(text, 'taxi_request_duration_seconds_bucket{le="+Inf",interface="dispatch",operation="GET version"}')).toBeGreaterThanOrEqual(3);
    expect(value(text, 'taxi_request_errors_total{interface="dispatch",operation="GET order",code="BAD_API_KEY"}')).toBe(1);
    expect(value(text, 'taxi_request_errors_total{interface="dispatch",operation="unknown",code="NOT_FOUND"}')).toBeGreaterThanOrEqual(2);
    expect(value(text, 'taxi_request_errors_total{interface="exchange",operation="POST order",code="Unauthorized"}')).toBe(1);
    expect(value(text, 'taxi_request_errors_total{interface="console",operation="orders.board",code="UNAUTHORIZED"}')).toBe(1);
    // The console's endpoint as HTTP (served by the custom server, not Next): the call, with its status.
    expect(value(text, 'taxi_request_errors_total{interface="console_http",operation="call",code="401"}')).toBe(1);
    expect(text).not.toContain('operation="trpc"');
    expect(text).not.toContain("attacker-");
    // The rest of the figures: event loop, memory, database pool, outbox, live streams.
    expect(value(text, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(value(text, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(value(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(1_000_000);
    expect(value(text, 'taxi_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'taxi_outbox_pending{channel="exchange"}')).toBe(0);
    expect(value(text, 'taxi_outbox_oldest_pending_seconds{channel="callback"}')).toBe(0);
    expect(value(text, "taxi_live_streams_open")).toBe(0);
    expect(text).toContain("# TYPE taxi_outbox_delivery_lag_seconds histogram");
  });

  it("asks for the token on the metrics listener too, and serves nothing else there", async () => {
    expect((await scrape(metricsUrl)).status).toBe(401);
    expect((await scrape(metricsUrl, "wrong-token-0123456789")).status).toBe(401);
    expect((await fetch(metricsUrl.replace("/metrics", "/api/version"))).status).toBe(404);
  });

  it("does not serve the figures on the public listener without the token", async () => {
    for (const token of [undefined, "wrong-token-0123456789", `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const r = await scrape(`${app.url}/metrics`, token);
      expect(r.status).toBe(401);
      expect(r.text).not.toContain("taxi_requests_total");
      expect(r.text).not.toContain("process_resident_memory_bytes");
    }
    const basic = await fetch(`${app.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` } });
    expect(basic.status).toBe(401);
    const post = await fetch(`${app.url}/metrics`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(post.status).toBe(405);
    const ok = await scrape(`${app.url}/metrics`, TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain("taxi_requests_total");
  });
});
