// Requests, latency and errors of every interface, recorded in one place per
// interface: the node adapter for the protocols (/api, /exchange,
// /participant, /driver-app), the tRPC middleware for the console's
// procedures, and the hand-over to Next for pages. Label values come from
// closed lists (operation registries, protocols' error codes), never from
// what a client sent, so an attacker cannot grow the series without bound.
import { metrics } from "./registry";

/** A reply's error code in the protocol's own form: the dispatch API's `"status":"ERROR"` body, the others' 4xx/5xx bodies. */
const CODE = /"code":"([A-Za-z_]{1,40})"/;
const ID_SEGMENT = /^(?:\d+|[0-9a-f-]{20,}|[A-Za-z0-9_-]{24,})$/i;

export function errorCodeOf(status: number, body: string): string | undefined {
  if (status < 400 && !body.startsWith('{"status":"ERROR"')) return undefined;
  return CODE.exec(body.slice(0, 400))?.[1] ?? String(status);
}

/**
 * The operation's name: what the router chose (its registry's method and
 * path), else the path's shape (ids replaced) when the protocol knew the path,
 * else "unknown".
 */
export function operationOf(named: string | undefined, method: string, path: string, status: number, code: string | undefined): string {
  if (named) return named;
  if (status === 404 && (code === "NotFound" || code === "NOT_FOUND" || code === "404")) return "unknown";
  const shape = path.split("/").slice(0, 4).map((s) => (ID_SEGMENT.test(s) ? ":id" : s.slice(0, 40))).join("/");
  return `${method === "HEAD" ? "GET" : method} ${shape}`;
}

export function recordRequest(iface: string, operation: string, seconds: number, errorCode: string | undefined): void {
  const m = metrics();
  m.requests.inc({ interface: iface, operation, outcome: errorCode ? "error" : "ok" });
  m.duration.observe({ interface: iface, operation }, seconds);
  if (errorCode) m.errors.inc({ interface: iface, operation, code: errorCode });
}

/** One outbox delivery attempt (server/notifications/worker.ts): its result, its duration, and, when delivered, its lag since the message was written. */
export function recordDelivery(channel: string, result: "delivered" | "retry" | "failed", lagSeconds: number, durationSeconds: number): void {
  const m = metrics();
  m.deliveries.inc({ channel, result });
  m.deliveryDuration.observe({ channel }, durationSeconds);
  if (result === "delivered") m.deliveryLag.observe({ channel }, lagSeconds);
}
