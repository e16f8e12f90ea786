// A rate limit on the integrators' reference (/docs): the page is rendered
// with the whole OpenAPI document (hundreds of milliseconds of the server's
// thread), so each client address may load it DOCS_PER_MINUTE times a minute
// (off when RATE_LIMIT_PER_ADDRESS is 0); beyond that 429 with Retry-After.
// A fixed window rather than the APIs' token buckets: a bucket refills while
// the server renders, so a burst of renders would never empty it.
import type { ServerResponse } from "node:http";
import { config } from "../config";

const DOCS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;
const windowsKey = Symbol.for("taxi.docsWindows");
type Window = { start: number; count: number };

function windows(): Map<string, Window> {
  const holder = globalThis as { [windowsKey]?: Map<string, Window> };
  holder[windowsKey] ??= new Map();
  return holder[windowsKey];
}

export function isDocsPath(path: string): boolean {
  return path === "/docs" || path.startsWith("/docs/");
}

/** true when the request may go on; otherwise the 429 has been sent. */
export function takeDocs(address: string, res: ServerResponse, now = Date.now()): boolean {
  if (config().RATE_LIMIT_PER_ADDRESS <= 0) return true;
  const all = windows();
  let window = all.get(address);
  if (!window || now - window.start >= WINDOW_MS) {
    if (all.size > 10_000) for (const [key, w] of all) if (now - w.start >= WINDOW_MS) all.delete(key);
    window = { start: now, count: 0 };
    all.set(address, window);
  }
  window.count += 1;
  if (window.count <= DOCS_PER_MINUTE) return true;
  const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
  res.writeHead(429, { "content-type": "text/plain; charset=utf-8", "retry-after": String(retryAfter) });
  res.end("Too many requests: try again later\n");
  return false;
}
