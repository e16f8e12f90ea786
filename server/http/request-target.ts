// The one reading of a request's path that every routing decision uses, on
// every listener. Clients may spell one resource many ways: dot segments
// ("/x/../participant"), encoded dots and slashes ("%2e%2e", "%2f"),
// backslashes, doubled slashes, percent-encoded letters ("/%70articipant").
// Next resolves some of these itself, so a decision on the raw path and
// Next's own routing could disagree (a request the custom server thought was
// Next's reaching a protocol handler through Next). Here the path is decoded
// once, backslashes become slashes, dot segments are resolved and runs of
// slashes collapse; the decision is made on that canonical path, and the
// request is rewritten to it before anyone else (Next included) sees it.
//
// Written by hand (a few lines): WHATWG URL resolves dot segments but neither
// decodes nor collapses slashes, and no maintained package does exactly this.
import type { IncomingMessage } from "node:http";

export interface RequestTarget {
  /** Canonical, percent-decoded path: starts with "/", no dot segments, no empty segments but a trailing one. */
  path: string;
  /** The query string with its "?", as the client sent it ("" without one). */
  search: string;
}

/** Splits the request-target; an absolute-form target ("http://host/x") keeps only its path. */
function splitTarget(rawUrl: string): { rawPath: string; search: string } | undefined {
  let value = rawUrl;
  if (!value.startsWith("/")) {
    if (!/^https?:\/\//i.test(value)) return undefined;
    try {
      const u = new URL(value);
      value = `${u.pathname}${u.search}`;
    } catch {
      return undefined;
    }
  }
  const q = value.indexOf("?");
  return q === -1 ? { rawPath: value, search: "" } : { rawPath: value.slice(0, q), search: value.slice(q) };
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Resolves "." and ".." and drops empty segments (a trailing slash is kept). */
export function resolveSegments(path: string): string {
  const out: string[] = [];
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  const last = segments[segments.length - 1];
  const trailing = out.length > 0 && (last === "" || last === "." || last === "..");
  return `/${out.join("/")}${trailing ? "/" : ""}`;
}

/** The canonical target, or undefined when the path is not a valid one (bad percent-encoding, control characters). */
export function requestTarget(rawUrl: string): RequestTarget | undefined {
  const parts = splitTarget(rawUrl);
  if (!parts) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(parts.rawPath);
  } catch {
    return undefined;
  }
  if (hasControlCharacter(decoded)) return undefined;
  return { path: resolveSegments(decoded.replaceAll("\\", "/")), search: parts.search };
}

/** Percent-encodes a canonical path for the request line ("?" and "#" too; brackets stay: Next's static chunk names use them). */
export function encodePath(path: string): string {
  return encodeURI(path).replaceAll("%5B", "[").replaceAll("%5D", "]").replaceAll("?", "%3F").replaceAll("#", "%23");
}

/**
 * Whether the canonical path is under a prefix such as "/participant",
 * compared without regard to case: "/Participant/x" is still a protocol
 * path (its handler answers for it), never a page of Next's.
 */
export function underPrefix(path: string, prefix: string): boolean {
  const head = path.slice(0, prefix.length + 1).toLowerCase();
  return head === prefix || head === `${prefix}/`;
}

/** The canonical path below a prefix, without leading or trailing slashes. */
export function pathBelow(path: string, prefix: string): string {
  return trimSlashes(path.slice(prefix.length));
}

/** Trims leading and trailing slashes in linear time (a regular expression here was quadratic). */
export function trimSlashes(path: string): string {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 0x2f) start++;
  while (end > start && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(start, end);
}

const targetKey = Symbol("taxi.requestTarget");
type WithTarget = IncomingMessage & { [targetKey]?: RequestTarget | null };

/**
 * Reads the request's target once and rewrites `req.url` to its canonical
 * form, so that every later reader (our handlers, Next) sees the same path.
 * Undefined: the path is invalid and the request must be refused.
 */
export function canonicalizeRequest(req: IncomingMessage): RequestTarget | undefined {
  const holder = req as WithTarget;
  if (holder[targetKey] !== undefined) return holder[targetKey] ?? undefined;
  const target = requestTarget(req.url ?? "/");
  holder[targetKey] = target ?? null;
  if (target) req.url = `${encodePath(target.path)}${target.search}`;
  return target;
}
