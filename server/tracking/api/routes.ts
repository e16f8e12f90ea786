// How the custom server routes the tracking link's paths: /t/<token>/<op>
// to the data handler (router.ts), /t/<token> to Next's page, with the page
// taken from the same per-address limit as the APIs (each load reads the
// database). server/http/public-routes.ts and app-handler.ts call these.
import type { IncomingMessage, ServerResponse } from "node:http";
import { config } from "../../config";
import { clientAddress } from "../../http/client-address";
import { toNodeHandler } from "../../http/node-adapter";
import { rateLimits } from "../../http/rate-limit";
import { handleTracking } from "./router";

export const TRACKING_PREFIX = "/t";

/** A data path of a tracking link: /t/<anything>/<anything>. */
export function isTrackingDataPath(path: string): boolean {
  return /^\/t\/[^/]+\/./.test(path);
}

export const trackingDataHandler = toNodeHandler(TRACKING_PREFIX, handleTracking);

/** Answers 429 for the tracking page when the address is over its limit; true when it did. */
export function refuseTrackingFlood(path: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (!/^\/t\/[^/]+\/?$/.test(path)) return false;
  const cfg = config();
  if (rateLimits({ perKey: cfg.RATE_LIMIT_PER_KEY, perAddress: cfg.RATE_LIMIT_PER_ADDRESS }).byAddress.take(clientAddress(req))) return false;
  req.resume();
  res.writeHead(429, { "content-type": "text/plain; charset=utf-8", "retry-after": "10", "cache-control": "no-store" });
  res.end("Too Many Requests");
  return true;
}
