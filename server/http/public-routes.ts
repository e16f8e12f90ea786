// Which handler serves a request on the main listener, decided once on the
// request's canonical target (request-target.ts): the public APIs and the
// console's tRPC straight from their handler modules (skipping Next's
// pipeline), everything else Next (pages, next-auth's /api/auth/).
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
import { handleConsoleTrpc, TRPC_PREFIX } from "./console-trpc";
import { guardNextRequest, invalidTarget, invalidTrpcTarget } from "./next-guard";
import { toNodeHandler } from "./node-adapter";
import { underPrefix, type RequestTarget } from "./request-target";
import { handleReportExport, REPORT_EXPORT_PATH } from "./reports-export";
import { isTrackingDataPath, trackingDataHandler } from "../tracking/api/routes";
import { isSmsReceiptPath, smsReceiptHandler } from "../sms/api/receipt-route";
import { handlePbxWebhook, PBX_PREFIX } from "../pbx/api/router";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The protocols the custom server serves itself, by path prefix. */
const protocols: Array<[prefix: string, handler: NodeHandler]> = [
  ["/api", toNodeHandler("/api", handleDispatchApi)],
  ["/exchange", toNodeHandler("/exchange", handleExchangeApi)],
  ["/participant", toNodeHandler("/participant", handleParticipantApi)],
  ["/driver-app", toNodeHandler("/driver-app", handleDriverApp)],
];

/** Cloud PBXs' incoming-call webhooks (server/pbx/api/router.ts); the console has no /pbx pages. */
const pbxWebhook = toNodeHandler(PBX_PREFIX, handlePbxWebhook);

let metricsHandler: { token: string; handler: NodeHandler } | undefined;

/**
 * The console's paths under /api: next-auth's (Next) and tRPC's (console-trpc.ts).
 * Exact case, as Next's routes were: "/API/trpc/..." or "/api/TRPC/..." is the
 * dispatch API's unknown path, and "/api/trpc" itself is no procedure.
 */
const NEXT_AUTH_PREFIX = "/api/auth/";
function isConsoleApiPath(path: string): boolean {
  return path.startsWith(NEXT_AUTH_PREFIX) || path.startsWith(TRPC_PREFIX);
}

/**
 * The handler for a request, or undefined to let Next have it. `target`
 * undefined: the path was not a valid target (refused).
 */
export function publicRoute(target: RequestTarget | undefined, headers?: IncomingHttpHeaders, rawUrl = ""): NodeHandler | undefined {
  if (!target) {
    // Not a valid target: the protocol whose prefix it starts with (as sent) refuses it in its own form; nothing else sees it.
    if (rawUrl.startsWith(TRPC_PREFIX)) return invalidTrpcTarget;
    const protocol = protocols.find(([prefix]) => rawUrl === prefix || rawUrl.startsWith(`${prefix}/`) || rawUrl.startsWith(`${prefix}?`));
    return protocol && !(protocol[0] === "/api" && isConsoleApiPath(rawUrl)) ? protocol[1] : invalidTarget;
  }
  const { path } = target;
  for (const [prefix, handler] of protocols) {
    if (!underPrefix(path, prefix)) continue;
    if (prefix !== "/api" || !isConsoleApiPath(path)) return handler;
    if (path.startsWith(TRPC_PREFIX)) return handleConsoleTrpc;
    return guardNextRequest(path, headers, target.search);
  }
  if (isTrackingDataPath(path)) return trackingDataHandler;
  if (isSmsReceiptPath(path)) return smsReceiptHandler;
  if (underPrefix(path, PBX_PREFIX)) return pbxWebhook;
  if (path === "/healthz") return handleHealth;
  if (REPORT_EXPORT_PATH.test(path)) return handleReportExport;
  if (path === "/metrics") {
    // Only with METRICS_TOKEN (docs/metrics.md); without it the path is Next's (a 404 page).
    const token = config().METRICS_TOKEN;
    if (token) return (metricsHandler ??= { token, handler: metricsRoute(token) }).handler;
  }
  // Everything else is Next's, unless it would make Next fail (next-guard.ts).
  return guardNextRequest(path, headers, target.search);
}
