// Which paths the custom server serves itself (the public APIs, skipping
// Next's pipeline) and with which handler. The same handlers are exported by
// the route files under app/, so both ways run one implementation. Requests
// that would make Next answer 500 are refused here (next-guard.ts).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { handleDispatchApi } from "../dispatch-api/router";
import { handleExchangeApi } from "../exchange-api/router";
import { handleParticipantApi } from "../participant-api/router";
import { handleDriverApp } from "../driver-app/api/router";
import { handleHealth } from "./health";
import { guardNextRequest } from "./next-guard";
import { toNodeHandler } from "./node-adapter";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const dispatch = toNodeHandler("/api", handleDispatchApi);
const exchange = toNodeHandler("/exchange", handleExchangeApi);
const participant = toNodeHandler("/participant", handleParticipantApi);
const driverApp = toNodeHandler("/driver-app", handleDriverApp);

/** Console paths under /api that belong to Next (next-auth, tRPC). */
const NEXT_API_PREFIXES = ["/api/auth/", "/api/trpc/"];

export function publicRoute(url: string, headers?: IncomingHttpHeaders): NodeHandler | undefined {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (path === "/api" || path.startsWith("/api/")) {
    if (NEXT_API_PREFIXES.some((prefix) => path.startsWith(prefix))) return guardNextRequest(url, headers);
    return dispatch;
  }
  if (path === "/exchange" || path.startsWith("/exchange/")) return exchange;
  if (path === "/participant" || path.startsWith("/participant/")) return participant;
  if (path === "/driver-app" || path.startsWith("/driver-app/")) return driverApp;
  if (path === "/healthz") return handleHealth;
  // Everything else is Next's, unless it would make Next fail (next-guard.ts).
  return guardNextRequest(url, headers);
}
