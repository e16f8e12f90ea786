// The one HTTP client for calls the server makes to addresses it was given:
// integrators' status callbacks, the exchange's notifications and checks of
// participants' servers, our participant client's calls to the exchange.
// Those addresses come from outside, so every call:
//   - follows no redirect: a 3xx is a failed attempt (a receiver cannot send
//     the call, with our address and trust, to somewhere else);
//   - connects only to an address the policy allows, checked on the address
//     actually connected to (after DNS), by request-filtering-agent: loopback,
//     private, link-local, carrier-grade NAT, metadata and other non-public
//     ranges are refused unless OUTGOING_ALLOW names them; OUTGOING_DENY
//     refuses more;
//   - has one deadline for the whole exchange (connect, headers, body), so a
//     slow drip cannot hold a worker;
//   - reads at most OUTGOING_MAX_BYTES of the reply, then stops;
//   - fails with a category (OutgoingError), never raw socket text, which is
//     what participants see in their delivery logs.
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { config, type Config } from "../config";
import { log } from "../log";

export type OutgoingFailure = "bad_url" | "address_refused" | "redirect" | "timeout" | "connection_failed" | "tls" | "too_large";

/** What each failure means, for logs and participants' delivery logs. */
export const OUTGOING_FAILURE_TEXT: Record<OutgoingFailure, string> = {
  bad_url: "the URL is not an http(s) URL",
  address_refused: "the address is not allowed for outgoing calls",
  redirect: "the receiver answered with a redirect (redirects are not followed)",
  timeout: "no complete reply in time",
  connection_failed: "could not connect to the receiver",
  tls: "the receiver's TLS certificate was not accepted",
  too_large: "the reply was larger than allowed",
};

export class OutgoingError extends Error {
  constructor(
    readonly category: OutgoingFailure,
    readonly status?: number,
  ) {
    super(`${OUTGOING_FAILURE_TEXT[category]}${status ? ` (HTTP ${status})` : ""}`);
    this.name = "OutgoingError";
  }
}

export interface OutgoingRequest {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Deadline for the whole call. */
  timeoutMs?: number;
  /** Reply bodies above this fail as too_large (default OUTGOING_MAX_BYTES). */
  maxBytes?: number;
}

export interface OutgoingReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * The demo's own addresses (localhost), where its exchange and participants
 * live: only these, not all of 127.0.0.0/8, so that a demo still refuses the
 * other loopback addresses a callback URL may name.
 */
const DEMO_LOOPBACK = ["127.0.0.1/32", "::1"];

/**
 * The demo is its own exchange (server/seed/demo-exchange.ts): its
 * participant client and the exchange's checks of its participants call this
 * machine. Decided when the demo's exchange is set up, not from EXCHANGE_URL
 * being unset (the set-up fills EXCHANGE_URL in before the first call). Kept in
 * the configuration itself (and the environment, which a re-read parses), so
 * every reader of the policy agrees.
 */
export function allowDemoLoopback(cfg: Config = config()): void {
  const allow = [...list(cfg.OUTGOING_ALLOW)];
  for (const range of DEMO_LOOPBACK) if (!allow.includes(range)) allow.push(range);
  cfg.OUTGOING_ALLOW = allow.join(",");
  process.env.OUTGOING_ALLOW = cfg.OUTGOING_ALLOW;
}

function list(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter(Boolean);
}

/** The address policy in force: the settings (with loopback once the demo's own exchange is set up). */
export function outgoingPolicy(cfg: Config = config()): { allow: string[]; deny: string[] } {
  return { allow: list(cfg.OUTGOING_ALLOW), deny: list(cfg.OUTGOING_DENY) };
}

interface Agents {
  key: string;
  http: http.Agent;
  https: https.Agent;
}
const agentsKey = Symbol.for("taxi.outgoingAgents");
type Holder = { [agentsKey]?: Agents };

function agents(): Agents {
  const holder = globalThis as Holder;
  const policy = outgoingPolicy();
  const key = JSON.stringify(policy);
  if (holder[agentsKey]?.key === key) return holder[agentsKey];
  holder[agentsKey]?.http.destroy();
  holder[agentsKey]?.https.destroy();
  const options = { keepAlive: true, maxSockets: 16, allowPrivateIPAddress: false, allowMetaIPAddress: false, allowIPAddressList: policy.allow, denyIPAddressList: policy.deny };
  holder[agentsKey] = { key, http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
  if (policy.allow.length) log.info("outgoing calls: non-public addresses allowed", { allow: policy.allow });
  return holder[agentsKey];
}

function categoryOf(error: unknown): OutgoingFailure {
  if (error instanceof OutgoingError) return error.category;
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  const message = typeof e.message === "string" ? e.message : "";
  // request-filtering-agent's refusal has no code of its own, only this wording.
  if (/^DNS lookup .* is not allowed/.test(message)) return "address_refused";
  if (code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT") return "timeout";
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_CERT)/.test(code)) return "tls";
  return "connection_failed";
}

/** One call, no retry. Resolves with any status but 3xx; rejects with an OutgoingError. */
export function sendOutgoing(request: OutgoingRequest): Promise<OutgoingReply> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.reject(new OutgoingError("bad_url"));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.reject(new OutgoingError("bad_url"));
  const maxBytes = request.maxBytes ?? config().OUTGOING_MAX_BYTES;
  const timeoutMs = request.timeoutMs ?? 10_000;
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
  const transport = url.protocol === "https:" ? https : http;
  const pool = agents();

  return new Promise<OutgoingReply>((resolve, reject) => {
    let settled = false;
    const finish = (error: OutgoingError | undefined, reply?: OutgoingReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve(reply!);
    };
    const req = transport.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        agent: url.protocol === "https:" ? pool.https : pool.http,
        headers: {
          ...(request.headers ?? {}),
          ...(body ? { "content-length": String(body.length) } : {}),
          ...(url.username ? { authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}` } : {}),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          finish(new OutgoingError("redirect", status));
          res.destroy();
          return;
        }
        const declared = Number(res.headers["content-length"] ?? 0);
        if (declared > maxBytes) {
          finish(new OutgoingError("too_large", status));
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            // Settled first: destroying emits "aborted"/"error", which must not name the failure.
            finish(new OutgoingError("too_large", status));
            res.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => finish(undefined, { status, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (error) => finish(new OutgoingError(categoryOf(error), status)));
        res.on("aborted", () => finish(new OutgoingError("connection_failed", status)));
      },
    );
    const deadline = setTimeout(() => {
      finish(new OutgoingError("timeout"));
      req.destroy();
    }, timeoutMs);
    req.on("error", (error) => finish(new OutgoingError(categoryOf(error))));
    req.end(body);
  });
}

/** The reply's body as a JSON object ({} when it is not one). */
export function replyObject(reply: OutgoingReply): Record<string, unknown> {
  try {
    const parsed: unknown = reply.text ? JSON.parse(reply.text) : {};
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
