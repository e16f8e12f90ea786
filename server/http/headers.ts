// Editing a request's headers in place, in both forms Node keeps them
// (parsed and raw), before Next or a handler reads them.
import type { IncomingMessage } from "node:http";

/** Removes every header whose lower-case name matches, from both the parsed and the raw headers. */
export function removeHeaders(req: IncomingMessage, matches: (lowerCaseName: string) => boolean): void {
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (matches((raw[i] ?? "").toLowerCase())) raw.splice(i, 2);
  for (const name of Object.keys(req.headers)) if (matches(name)) delete req.headers[name];
}

export function setInternalHeader(req: IncomingMessage, name: string, value: string): void {
  req.headers[name] = value;
  req.rawHeaders.push(name, value);
}
