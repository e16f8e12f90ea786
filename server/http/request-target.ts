// The one reading of a request's path that every routing decision uses, on
// every listener. Clients may spell one resource many ways: dot segments
// ("/x/../participant"), encoded dots ("%2e%2e"), backslashes, doubled
// slashes, percent-encoded letters ("/%70articipant"). Next resolves some of
// these itself, so a decision on the raw path and Next's own routing could
// disagree (a request the custom server thought was Next's reaching a
// protocol handler through Next). Here the path is read as a URL parser
// reads it (WHATWG: backslashes are slashes, "." and ".." segments, encoded
// or not, are resolved), each segment is percent-decoded once, and runs of
// slashes collapse; the decision is made on that canonical path, and the
// request is rewritten to it before anyone else (Next included) sees it.
// An encoded slash or backslash ("%2F", "%5C") stays inside its segment, as
// URL parsers and Next keep it: it never separates segments.
//
// Written by hand (a few lines): WHATWG URL resolves dot segments but neither
// decodes nor collapses slashes, and no maintained package does exactly this.
import type { IncomingMessage } from "node:http";

export interface RequestTarget {
  /** Canonical path: starts with "/", no dot or empty segments (but a trailing slash), each segment decoded once with "%", "/" and "\\" kept encoded. */
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
  return joinSegments(path.split("/"));
}

function joinSegments(segments: string[]): string {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  const last = segments[segments.length - 1];
  const trailing = out.length > 0 && (last === "" || last === "." || last === "..");
  return `/${out.join("/")}${trailing ? "/" : ""}`;
}

/**
 * One segment, decoded once; the characters that would change the path's
 * structure if left bare stay encoded: "%" (so a decoded "%2F" is not read as
 * an encoded slash), "/" and "\\". Undefined: not valid percent-encoding.
 */
function decodeSegment(raw: string): string | undefined {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return text.replace(/[%/\\]/g, (c) => (c === "%" ? "%25" : c === "/" ? "%2F" : "%5C"));
}

/** The canonical target, or undefined when the path is not a valid one (bad percent-encoding, control characters). */
export function requestTarget(rawUrl: string): RequestTarget | undefined {
  const parts = splitTarget(rawUrl);
  if (!parts) return undefined;
  const segments: string[] = [];
  for (const raw of parts.rawPath.replaceAll("\\", "/").split("/")) {
    const segment = decodeSegment(raw);
    if (segment === undefined || hasControlCharacter(segment)) return undefined;
    segments.push(segment);
  }
  return { path: joinSegments(segments), search: parts.search };
}

// What may stand bare in a path: RFC 3986's pchar, "/" and "%" (the escapes
// the canonical path keeps), and brackets (Next's static chunk names use them).
const PATH_SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%[\]]/;

/** Percent-encodes a canonical path for the request line (UTF-8, "?" and "#" included). */
export function encodePath(path: string): string {
  let out = "";
  for (const char of path) out += PATH_SAFE.test(char) ? char : encodeURIComponent(char);
  return out;
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
