// Serves an ApiHandler from a Next.js route file (Web Request/Response).
import { MAX_BODY_BYTES, trimSlashes, type ApiHandler } from "./types";

export function toRouteHandler(prefix: string, handler: ApiHandler) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const declared = Number(request.headers.get("content-length") ?? 0);
    let body = Buffer.alloc(0);
    let tooLarge = declared > MAX_BODY_BYTES;
    if (!tooLarge && request.body) {
      body = Buffer.from(await request.arrayBuffer());
      tooLarge = body.length > MAX_BODY_BYTES;
    }
    const headers: Record<string, string | undefined> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const reply = await handler({
      method: request.method,
      path: trimSlashes(url.pathname.slice(prefix.length)),
      query: url.searchParams,
      headers,
      body: tooLarge ? Buffer.alloc(0) : body,
      // Next does not expose the socket; the proxy header is all there is here.
      remoteAddress: headers["x-forwarded-for"]?.split(",")[0]?.trim() ?? "",
      bodyTooLarge: tooLarge,
    });
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}
