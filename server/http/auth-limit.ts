// A per-address limit in front of next-auth's routes (/api/auth/*: CSRF,
// sign-in, sign-out, session): AUTH_RATE_PER_ADDRESS requests a minute from
// one client address, bursts of as many, refused with 429 before Next reads
// anything. The sign-in brake (server/auth/sign-in-throttle.ts) bounds the
// guesses per account and address in the database; this bounds the work a
// flood makes (a password hash, a token decryption per request) in each
// instance's memory, as the APIs' limits do (rate-limit.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { config } from "../config";
import { clientAddress } from "./client-address";
import { RateLimiter } from "./rate-limit";

export const AUTH_PREFIX = "/api/auth/";

const limiterKey = Symbol.for("taxi.authRateLimit");
type Holder = { [limiterKey]?: RateLimiter };

function limiter(): RateLimiter {
  const holder = globalThis as Holder;
  const perMinute = config().AUTH_RATE_PER_ADDRESS;
  holder[limiterKey] ??= new RateLimiter(perMinute / 60, perMinute);
  return holder[limiterKey];
}

/** Answers 429 (in the form of the route's other refusals) when the address is over its limit; true when it did. */
export function refuseAuthFlood(path: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (!path.startsWith(AUTH_PREFIX) || limiter().take(clientAddress(req))) return false;
  req.resume();
  res.writeHead(429, { "content-type": "application/json", "retry-after": "60", "cache-control": "no-store" });
  res.end(JSON.stringify({ error: "Too Many Requests", message: "too many sign-in requests from this address; try again in a minute" }));
  return true;
}
