// Requests the custom server refuses before Next (or the console's tRPC
// endpoint, server/http/console-trpc.ts) sees them:
//   - a path that is not a valid target (bad percent-encoding, control
//     characters): Next's router throws while decoding a dynamic segment
//     (e.g. /x/%FF) and answers 500; here it is a 400;
//   - a query holding control characters under /api/auth: next-auth copies
//     query values into its redirects' Location header, and a NUL or newline
//     there is a 500 (the console's pages encode what they redirect with);
//   - a body larger than NEXT_MAX_BODY_BYTES, declared or not: Next's route
//     handlers (next-auth) and tRPC would read any size into memory. A
//     declared one is refused at once (its body, up to 8 MiB, then read and
//     dropped so that the client sees the reply); a chunked one is counted as
//     it arrives and the request is cut off at the limit (limitNextBody).
// Answered with a small JSON body (tRPC's error shape under /api/trpc, so
// that its client reads it as an ordinary error).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

/** The console's requests (Next's and tRPC's) are small forms and JSON; 1 MiB is Next's own limit for server actions. */
export const NEXT_MAX_BODY_BYTES = 1024 * 1024;

export type Refusal = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

function refusalBody(path: string, status: number, message: string): string {
  const code = status === 413 ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST";
  const body = path.startsWith("/api/trpc/")
    ? { error: { json: { message, code: -32600, data: { code, httpStatus: status } } } }
    : { error: status === 413 ? "Payload Too Large" : "Bad Request", message };
  return JSON.stringify(body);
}

/**
 * A refused body declared this large or smaller is read and thrown away after
 * the reply (a lingering close, as nginx does), so that a client still
 * sending it reads the 413: closing at once makes the kernel answer the rest
 * with a reset, and the client then sees EPIPE or ECONNRESET instead. Node
 * reads no more than the declared length. A larger one is cut off at once.
 */
const DISCARD_MAX_BYTES = 8 * 1024 * 1024;

function refusal(path: string, status: number, message: string): Refusal {
  const body = refusalBody(path, status, message);
  return async (req, res) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    const close = status === 413 && !(declared <= DISCARD_MAX_BYTES);
    req.resume();
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...(close ? { connection: "close" } : {}) });
    res.end(body);
  };
}

/** The refusal of a request whose target is not valid. */
export const invalidTarget: Refusal = refusal("/", 400, "The URL is not a valid request target");
/** The same under /api/trpc/, in tRPC's error form. */
export const invalidTrpcTarget: Refusal = refusal("/api/trpc/", 400, "The URL is not a valid request target");

/** Whether a query's names or values hold a control character (a CR, LF or NUL would end up in a header Next writes: next-auth's redirects). */
function queryHoldsControl(search: string): boolean {
  for (const [name, value] of new URLSearchParams(search)) {
    for (const text of [name, value]) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
      }
    }
  }
  return false;
}

/** A refusal for a request bound for Next that Next would mishandle; undefined to let Next have it. */
export function guardNextRequest(path: string, headers: IncomingHttpHeaders = {}, search = ""): Refusal | undefined {
  if (search && path.startsWith("/api/auth/") && queryHoldsControl(search)) return refusal(path, 400, "The query holds a control character");
  if (Number(headers["content-length"] ?? 0) > NEXT_MAX_BODY_BYTES) return refusal(path, 413, `The body is larger than ${NEXT_MAX_BODY_BYTES} bytes`);
  return undefined;
}

/**
 * Counts the body's bytes as Node's parser hands them to the request, before
 * any reader sees them, and cuts the request off past the limit (a 413 when
 * no reply was started). The count sits on the request's own `push`, so it
 * holds whatever the headers claim (chunked, no length) and whoever reads
 * the body (Next, next-auth, tRPC's adapter), without reading it for them.
 */
export function limitNextBody(path: string, req: IncomingMessage, res: ServerResponse, limit = NEXT_MAX_BODY_BYTES): void {
  let size = 0;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (chunk !== null && chunk !== undefined) {
      size += Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? chunk.length : String(chunk).length;
      if (size > limit) {
        req.push = () => false;
        if (!res.headersSent) {
          res.writeHead(413, { "content-type": "application/json; charset=utf-8", connection: "close" });
          res.end(refusalBody(path, 413, `The body is larger than ${limit} bytes`), () => req.socket.destroy());
        } else {
          req.socket.destroy();
        }
        return false;
      }
    }
    return push(chunk, encoding);
  };
}
