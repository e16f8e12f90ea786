// The console's tRPC endpoint, /api/trpc/<procedure>[,<procedure>…]: queries,
// mutations, batches and SSE subscriptions (httpBatchLink,
// httpSubscriptionLink), served by the custom server with tRPC's own node
// adapter, outside Next's request pipeline (docs/performance.md). The one
// door to the router: Next has no route for it.
//
// What the request went through under Next is kept here:
//   - the canonical path, matched exactly (case included) by
//     public-routes.ts; the procedure path is what follows "/api/trpc/";
//   - GET and POST only (HEAD and OPTIONS answered empty, others 405), a
//     POST only as application/json (415: tRPC's adapter would read form
//     data and octet streams too);
//   - bodies over 1 MiB refused, declared (guardNextRequest) or counted as
//     they arrive (limitNextBody), in tRPC's error form;
//   - the security headers Next added from next.config.js, and a content
//     security policy (a JSON reply loads nothing);
//   - the session from next-auth's cookie (server/auth/session-cookie.ts),
//     the operator re-read from the database on every call (server/trpc/init.ts).
// Internal headers (x-taxi-*) are removed before routing (app-handler.ts);
// no procedure reads the client's address.
// Replies are not compressed (Next gzipped them for clients that asked):
// gzip takes about 0.2 ms of the server's one thread per board page (~30 KB
// to 3 KB), a large share of a call's cost; a balancer in front may compress
// (docs/operations.md).
import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import { appRouter } from "../trpc/root";
import { createTrpcContext } from "../trpc/context";
import { TRPC_MAX_BATCH_SIZE } from "../../shared/trpc-limits";
import { recordRequest } from "../metrics/http";
import { guardNextRequest, limitNextBody } from "./next-guard";

export const TRPC_PREFIX = "/api/trpc/";

/** The headers next.config.js gave every reply, and a policy for a reply that is data. */
const SECURITY_HEADERS: Array<[string, string]> = [
  ["x-content-type-options", "nosniff"],
  ["x-frame-options", "DENY"],
  ["referrer-policy", "same-origin"],
  ["content-security-policy", "default-src 'none'; frame-ancestors 'none'"],
  // Operators' data: never kept by a browser's or a proxy's cache.
  ["cache-control", "no-store"],
];

/** Methods other than these were answered by Next (the route exported GET and POST): OPTIONS 204, the rest 405. */
const ALLOW = "GET, HEAD, OPTIONS, POST";
const METHOD_REFUSAL = JSON.stringify({ error: { json: { message: "Only GET and POST are served here", code: -32005, data: { code: "METHOD_NOT_SUPPORTED", httpStatus: 405 } } } });
/** tRPC's adapter also reads form data and raw octet streams (for procedures declared to take them; the console has none): a POST must be JSON. */
const MEDIA_REFUSAL = JSON.stringify({ error: { json: { message: "A POST must be application/json", code: -32015, data: { code: "UNSUPPORTED_MEDIA_TYPE", httpStatus: 415 } } } });

/** Whether a POST's Content-Type is JSON (the console's client sends "application/json"; parameters such as charset allowed). */
export function isJsonPost(contentType: string | undefined): boolean {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

/** The procedure path(s) of a canonical /api/trpc/... path, still percent-encoded as on the request line (tRPC decodes it once). */
function procedurePath(req: IncomingMessage): string {
  const url = req.url ?? TRPC_PREFIX;
  const q = url.indexOf("?");
  return (q === -1 ? url : url.slice(0, q)).slice(TRPC_PREFIX.length);
}

/** Requests to the endpoint as HTTP requests (a batch is one); each procedure is measured by tRPC's middleware (server/trpc/init.ts). */
function measure(res: ServerResponse): void {
  const started = performance.now();
  res.once("close", () => {
    const stream = String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");
    const code = res.statusCode >= 400 ? String(res.statusCode) : undefined;
    // A stream's duration is its life, kept apart from the calls' latency.
    recordRequest("console_http", stream ? "stream" : "call", (performance.now() - started) / 1000, code);
  });
}

export async function handleConsoleTrpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
  measure(res);
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "POST" && method !== "HEAD") {
    req.resume();
    if (method === "OPTIONS") res.writeHead(204, { allow: ALLOW }).end();
    else res.writeHead(405, { allow: ALLOW, "content-type": "application/json" }).end(METHOD_REFUSAL);
    return;
  }
  // A declared body over the limit: refused before anything reads it.
  const refusal = guardNextRequest(TRPC_PREFIX, req.headers);
  if (refusal) return refusal(req, res);
  if (method === "POST" && !isJsonPost(req.headers["content-type"])) {
    req.resume();
    res.writeHead(415, { "content-type": "application/json" }).end(MEDIA_REFUSAL);
    return;
  }
  const path = procedurePath(req);
  limitNextBody(TRPC_PREFIX, req, res);
  // The adapter's promise settles when a reply finishes, and never for a
  // stream the client closed: this one settles on either.
  const done = new Promise<void>((resolve) => res.once("close", resolve));
  void nodeHTTPRequestHandler({
    req,
    res,
    path,
    router: appRouter,
    maxBatchSize: TRPC_MAX_BATCH_SIZE,
    createContext: ({ req: request }) => createTrpcContext(request),
  });
  await done;
}
