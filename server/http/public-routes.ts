// Which paths the custom server serves itself (the public APIs, skipping
// Next's pipeline) and with which handler. The same handlers are exported by
// the route files under app/, so both ways run one implementation.
import type { IncomingMessage, ServerResponse } from "node:http";
import { handleDispatchApi } from "../dispatch-api/router";
import { handleExchangeApi } from "../exchange-api/router";
import { handleParticipantApi } from "../participant-api/router";
import { toNodeHandler } from "./node-adapter";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const dispatch = toNodeHandler("/api", handleDispatchApi);
const exchange = toNodeHandler("/exchange", handleExchangeApi);
const participant = toNodeHandler("/participant", handleParticipantApi);

/** Console paths under /api that belong to Next (next-auth, tRPC). */
const NEXT_API_PREFIXES = ["/api/auth/", "/api/trpc/"];

export function publicRoute(url: string): NodeHandler | undefined {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (path === "/api" || path.startsWith("/api/")) {
    if (NEXT_API_PREFIXES.some((prefix) => path.startsWith(prefix))) return undefined;
    return dispatch;
  }
  if (path === "/exchange" || path.startsWith("/exchange/")) return exchange;
  if (path === "/participant" || path.startsWith("/participant/")) return participant;
  return undefined;
}
