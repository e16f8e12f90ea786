// Requests, latency and errors of every interface, recorded in one place per
// interface: the node adapter for the protocols (/api, /exchange,
// /participant, /driver-app), the tRPC middleware for the console's
// procedures, and the hand-over to Next for pages. Label values come from
// closed lists (labels.ts: operation registries, protocols' error codes),
// checked here for every call site, never from what a client sent, so an
// attacker cannot grow the series without bound.
import { codeLabel, interfaceLabel, operationLabel, UNKNOWN } from "./labels";
import { metrics } from "./registry";

/** A reply's error code in the protocol's own form: the dispatch API's `"status":"ERROR"` body, the others' 4xx/5xx bodies. */
const CODE = /"code":"([A-Za-z_]{1,40})"/;

export function errorCodeOf(status: number, body: string): string | undefined {
  if (status < 400 && !body.startsWith('{"status":"ERROR"')) return undefined;
  return CODE.exec(body.slice(0, 400))?.[1] ?? String(status);
}

/**
 * The operation's name: what the router chose (its registry's method and
 * path), else "unknown". Never the request's path: a refusal before routing
 * (a body over the limit, a wrong method) has no operation.
 */
export function operationOf(named: string | undefined): string {
  return named ?? UNKNOWN;
}

/** Every label checked against the closed lists (labels.ts): a value outside them is "unknown" (or "other" for a code). */
export function recordRequest(iface: string, operation: string, seconds: number, errorCode: string | undefined): void {
  const m = metrics();
  const i = interfaceLabel(iface);
  const op = operationLabel(i, operation);
  m.requests.inc({ interface: i, operation: op, outcome: errorCode ? "error" : "ok" });
  m.duration.observe({ interface: i, operation: op }, seconds);
  if (errorCode) m.errors.inc({ interface: i, operation: op, code: codeLabel(errorCode) });
}

/** One outbox delivery attempt (server/notifications/worker.ts): its result, its duration, and, when delivered, its lag since the message was written. */
export function recordDelivery(channel: string, result: "delivered" | "retry" | "failed", lagSeconds: number, durationSeconds: number): void {
  const m = metrics();
  m.deliveries.inc({ channel, result });
  m.deliveryDuration.observe({ channel }, durationSeconds);
  if (result === "delivered") m.deliveryLag.observe({ channel }, lagSeconds);
}
