// Which paths the custom server serves itself (the public APIs, skipping
// Next's pipeline) and with which handler. The same handlers are exported by
// the route files under app/, so both ways run one implementation.
import type { IncomingMessage, ServerResponse } from "node:http";
import { handleDispatchApi } from "../dispatch-api/router";
import { toNodeHandler } from "./node-adapter";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const dispatch = toNodeHandler("/api", handleDispatchApi);

/** Console paths under /api that belong to Next (next-auth, tRPC). */
const NEXT_API_PREFIXES = ["/api/auth/", "/api/trpc/"];

export function publicRoute(url: string): NodeHandler | undefined {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (path === "/api" || path.startsWith("/api/")) {
    if (NEXT_API_PREFIXES.some((prefix) => path.startsWith(prefix))) return undefined;
    return dispatch;
  }
  return undefined;
}
