// Where Prometheus scrapes (docs/metrics.md): a listener of its own
// (METRICS_PORT, bound to METRICS_HOST, 127.0.0.1 by default), and/or
// GET /metrics on the main listener for holders of METRICS_TOKEN (a bearer
// token, compared in constant time). With neither set nothing serves them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createHash, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import { checkConnectionsOften } from "../http/connection-check";
import { registerCollectors } from "./collectors";
import { metrics } from "./registry";

async function writeMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { registry } = metrics();
  try {
    const text = await registry.metrics();
    res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : text);
  } catch {
    res.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
    res.end("metrics unavailable\n");
  }
}

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Whether the request carries the token (Authorization: Bearer <token>); hashes make the comparison constant-time whatever the lengths. */
export function holdsMetricsToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? "";
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
}

/** GET /metrics on the public listener: only with the token. */
export function metricsRoute(token: string) {
  registerCollectors();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    req.resume();
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
      res.end("method not allowed\n");
      return;
    }
    if (!holdsMetricsToken(req, token)) {
      res.writeHead(401, { "www-authenticate": 'Bearer realm="metrics"', "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end("unauthorized\n");
      return;
    }
    await writeMetrics(req, res);
  };
}

/** The metrics listener: GET /metrics (a token too, when METRICS_TOKEN is set), nothing else. */
export async function startMetricsListener(options: { host: string; port: number; token?: string }): Promise<{ port: number; close: () => void }> {
  registerCollectors();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      req.resume();
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      res.end("not found: GET /metrics\n");
      return;
    }
    if (options.token) return void metricsRoute(options.token)(req, res);
    if (req.method !== "GET" && req.method !== "HEAD") {
      req.resume();
      res.writeHead(405, { allow: "GET, HEAD" });
      res.end();
      return;
    }
    void writeMetrics(req, res);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  checkConnectionsOften(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}
