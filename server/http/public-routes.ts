// Which handler serves a request on the main listener, decided once on the
// request's canonical target (request-target.ts): the public APIs straight
// from their handler modules (skipping Next's pipeline), everything else Next.
// Protocol paths are decided without regard to case or spelling, so no
// spelling of /participant/... (or /api, /exchange, /driver-app) reaches Next:
// Next has no route files for them (the one place the protocols are served).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { handleDispatchApi } from "../dispatch-api/router";
import { handleExchangeApi } from "../exchange-api/router";
import { handleParticipantApi } from "../participant-api/router";
import { handleDriverApp } from "../driver-app/api/router";
import { handleHealth } from "./health";
import { config } from "../config";
import { metricsRoute } from "../metrics/endpoint";
import { guardNextRequest, invalidTarget } from "./next-guard";
import { toNodeHandler } from "./node-adapter";
import { underPrefix, type RequestTarget } from "./request-target";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The protocols the custom server serves itself, by path prefix. */
const protocols: Array<[prefix: string, handler: NodeHandler]> = [
  ["/api", toNodeHandler("/api", handleDispatchApi)],
  ["/exchange", toNodeHandler("/exchange", handleExchangeApi)],
  ["/participant", toNodeHandler("/participant", handleParticipantApi)],
  ["/driver-app", toNodeHandler("/driver-app", handleDriverApp)],
];

let metricsHandler: { token: string; handler: NodeHandler } | undefined;

/** Console paths under /api that belong to Next (next-auth, tRPC); "/api/trpc" itself is no procedure (the dispatch API's unknown path). */
const NEXT_API_PREFIXES = ["/api/auth/", "/api/trpc/"];

/** Whether Next serves this canonical path under /api (exact case: Next's routes are case-sensitive). */
function isNextApiPath(path: string): boolean {
  return NEXT_API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * The handler for a request, or undefined to let Next have it. `target`
 * undefined: the path was not a valid target (refused).
 */
export function publicRoute(target: RequestTarget | undefined, headers?: IncomingHttpHeaders, rawUrl = ""): NodeHandler | undefined {
  if (!target) {
    // Not a valid target: the protocol whose prefix it starts with (as sent) refuses it in its own form; nothing else sees it.
    const protocol = protocols.find(([prefix]) => rawUrl === prefix || rawUrl.startsWith(`${prefix}/`) || rawUrl.startsWith(`${prefix}?`));
    return protocol && !(protocol[0] === "/api" && isNextApiPath(rawUrl)) ? protocol[1] : invalidTarget;
  }
  const { path } = target;
  for (const [prefix, handler] of protocols) {
    if (!underPrefix(path, prefix)) continue;
    if (prefix === "/api" && isNextApiPath(path)) return guardNextRequest(path, headers, target.search);
    return handler;
  }
  if (path === "/healthz") return handleHealth;
  if (path === "/metrics") {
    // Only with METRICS_TOKEN (docs/metrics.md); without it the path is Next's (a 404 page).
    const token = config().METRICS_TOKEN;
    if (token) return (metricsHandler ??= { token, handler: metricsRoute(token) }).handler;
  }
  // Everything else is Next's, unless it would make Next fail (next-guard.ts).
  return guardNextRequest(path, headers, target.search);
}
