// The console's and the panel's content security policy, with a fresh nonce
// per request instead of 'unsafe-inline' scripts: Next reads the nonce from
// the request's Content-Security-Policy header (which the custom server sets,
// replacing any a client sent) and puts it on every script it renders, and
// the same policy goes out on the reply. Inline styles stay allowed (Leaflet
// positions its panes with them; styles cannot run code).
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { removeHeaders, setInternalHeader } from "./headers";

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "connect-src 'self'",
    "font-src 'self' data:",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/** Sets the policy with a new nonce on the request (for Next) and on the reply. */
export function applyContentSecurityPolicy(req: IncomingMessage, res: ServerResponse): void {
  const policy = contentSecurityPolicy(randomBytes(16).toString("base64"));
  // A policy the client sent would choose the nonce Next uses: replaced.
  removeHeaders(req, (name) => name.startsWith("content-security-policy"));
  setInternalHeader(req, "content-security-policy", policy);
  res.setHeader("content-security-policy", policy);
}
