// Serves an ApiHandler from node:http without Next's pipeline (the fast path).
import type { IncomingMessage, ServerResponse } from "node:http";
import { clientAddress } from "./client-address";
import { errorCodeOf, operationOf, recordRequest } from "../metrics/http";
import { canonicalizeRequest, pathBelow, type RequestTarget } from "./request-target";
import { MAX_BODY_BYTES, type ApiHandler, type ApiRequest } from "./types";
import { yieldAdmission } from "./load-shed";

function readBody(req: IncomingMessage): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      resolve({ body: Buffer.alloc(0), tooLarge: true });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve({ body: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge }));
    req.on("error", reject);
  });
}

function rawTarget(url: string): RequestTarget {
  const q = url.indexOf("?");
  return q === -1 ? { path: url, search: "" } : { path: url.slice(0, q), search: url.slice(q) };
}

/** The metrics' name of each protocol (server/metrics/http.ts). */
const INTERFACE: Record<string, string> = { "/api": "dispatch", "/exchange": "exchange", "/participant": "participant", "/driver-app": "driver_app" };

export function toNodeHandler(prefix: string, handler: ApiHandler) {
  const iface = INTERFACE[prefix] ?? prefix.slice(1);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    // A target that does not decode comes here only when its raw path is under
    // this prefix: the raw remainder matches no operation, so the protocol
    // answers it as an unknown path, in its own error form.
    const target = canonicalizeRequest(req) ?? rawTarget(req.url ?? "/");
    const { body, tooLarge } = await readBody(req);
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const request: ApiRequest = {
      method: req.method ?? "GET",
      path: pathBelow(target.path, prefix),
      query: new URLSearchParams(target.search),
      headers,
      body,
      remoteAddress: clientAddress(req),
      bodyTooLarge: tooLarge,
      yieldAdmission: () => yieldAdmission(req),
    };
    const reply = await handler(request);
    res.writeHead(reply.status, reply.headers);
    // Recorded when the reply starts: a live stream's latency is its first byte, not its life.
    const code = errorCodeOf(reply.status, reply.body);
    recordRequest(iface, operationOf(request.operation), (performance.now() - started) / 1000, code);
    if (reply.stream) {
      const gone = new AbortController();
      res.on("close", () => gone.abort());
      res.write(reply.body);
      await reply.stream((chunk) => void res.write(chunk), gone.signal).catch(() => undefined);
    }
    res.end(reply.stream ? undefined : reply.body);
  };
}
