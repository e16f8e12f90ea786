// The main listener's request handler: the one routing decision on the
// canonical target (request-target.ts), the handlers of the protocols and of
// the console's tRPC, and Next for everything else, with the limits Next
// lacks (next-guard.ts) and the client's address, taken from the socket by
// client-address.ts, handed to Next's code in a header that no client can set
// (it is removed first).
import type { IncomingMessage, ServerResponse } from "node:http";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "./client-address";
import { applyContentSecurityPolicy } from "./content-security";
import { removeHeaders, setInternalHeader } from "./headers";
import { limitNextBody } from "./next-guard";
import { isDocsPath, takeDocs } from "./docs-limit";
import { publicRoute } from "./public-routes";
import { canonicalizeRequest } from "./request-target";
import { recordRequest } from "../metrics/http";
import { refuseAuthFlood } from "./auth-limit";
import { refuseTrackingFlood } from "../tracking/api/routes";

/** A coarse kind of what Next serves, for the metrics (the console's tRPC is not Next's: server/http/console-trpc.ts measures it). */
function nextKind(path: string): string {
  if (path.startsWith("/_next/")) return "static";
  if (path.startsWith("/api/auth/")) return "auth";
  return "page";
}

export type NextHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Headers that only the server sets: removed from every incoming request on every listener. */
export const INTERNAL_HEADER_PREFIXES = ["x-panel-", "x-taxi-"] as const;

export function stripInternalHeaders(req: IncomingMessage): void {
  removeHeaders(req, (name) => INTERNAL_HEADER_PREFIXES.some((prefix) => name.startsWith(prefix)));
}


/** Hands a request to Next: body counted, client address from the socket, a CSP nonce for its scripts. */
export function toNext(next: NextHandler, req: IncomingMessage, res: ServerResponse): unknown {
  const target = canonicalizeRequest(req);
  const started = performance.now();
  const kind = nextKind(target?.path ?? "/");
  res.once("finish", () => recordRequest("next", kind, (performance.now() - started) / 1000, res.statusCode >= 500 || res.statusCode === 429 ? String(res.statusCode) : undefined));
  if (refuseAuthFlood(target?.path ?? "/", req, res)) return undefined;
  if (refuseTrackingFlood(target?.path ?? "/", req, res)) return undefined;
  if (isDocsPath(target?.path ?? "/") && !takeDocs(clientAddress(req), res)) return undefined;
  limitNextBody(target?.path ?? "/", req, res);
  setInternalHeader(req, CLIENT_ADDRESS_HEADER, clientAddress(req));
  applyContentSecurityPolicy(req, res);
  return next(req, res);
}

export function appHandler(next: NextHandler) {
  return (req: IncomingMessage, res: ServerResponse): unknown => {
    stripInternalHeaders(req);
    const handler = publicRoute(canonicalizeRequest(req), req.headers, req.url);
    return handler ? handler(req, res) : toNext(next, req, res);
  };
}
