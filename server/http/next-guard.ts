// Requests the custom server refuses before Next sees them:
//   - a path that is not valid percent-encoding: Next's router throws while
//     decoding a dynamic segment (e.g. /api/trpc/%FF) and answers 500; here
//     it is a 400;
//   - a body declared larger than NEXT_MAX_BODY_BYTES: Next's route handlers
//     (tRPC, next-auth) would read any size into memory; here it is a 413.
// Answered with a small JSON body (tRPC's error shape under /api/trpc, so
// that its client reads it as an ordinary error).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

/** The console's requests are small forms and JSON; 1 MiB is Next's own limit for server actions. */
export const NEXT_MAX_BODY_BYTES = 1024 * 1024;

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export type Refusal = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

function refusal(path: string, status: number, message: string): Refusal {
  const code = status === 413 ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST";
  const body = path.startsWith("/api/trpc/")
    ? { error: { json: { message, code: -32600, data: { code, httpStatus: status } } } }
    : { error: status === 413 ? "Payload Too Large" : "Bad Request", message };
  return async (req, res) => {
    req.resume();
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };
}

/** A refusal for a request bound for Next that Next would mishandle; undefined to let Next have it. */
export function guardNextRequest(url: string, headers: IncomingHttpHeaders = {}): Refusal | undefined {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (!decodable(path)) return refusal(path, 400, "The URL is not valid percent-encoding");
  if (Number(headers["content-length"] ?? 0) > NEXT_MAX_BODY_BYTES) return refusal(path, 413, `The body is larger than ${NEXT_MAX_BODY_BYTES} bytes`);
  return undefined;
}
