// Requests the custom server refuses before Next sees them, because Next
// would answer them with a 500 instead of a client error: a path that is not
// valid percent-encoding (Next's router throws while decoding a dynamic
// segment, e.g. /api/trpc/%FF or /api/auth/%FF). Answered 400 with a small
// JSON body (tRPC's error shape under /api/trpc, so that its client reads it
// as an ordinary error).
import type { IncomingMessage, ServerResponse } from "node:http";

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export type Refusal = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** A refusal for a request bound for Next that Next would fail on; undefined to let Next have it. */
export function guardNextRequest(url: string): Refusal | undefined {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (decodable(path)) return undefined;
  const message = "The URL is not valid percent-encoding";
  const body = path.startsWith("/api/trpc/")
    ? { error: { json: { message, code: -32600, data: { code: "BAD_REQUEST", httpStatus: 400 } } } }
    : { error: "Bad Request", message };
  return async (req, res) => {
    req.resume();
    res.writeHead(400, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };
}
