// Raw HTTP for the reliability suites: any method, any bytes, any headers,
// from any loopback address, with a deadline (a reply that does not come is
// a hang, reported as such), never throwing on an HTTP status.
import http from "node:http";

export interface RawRequest {
  method: string;
  /** Path and query, sent as given (already percent-encoded). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Send the body in chunks without a content-length. */
  chunked?: boolean;
  localAddress?: string;
  timeoutMs?: number;
}

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  ms: number;
}

const agents = new Map<string, http.Agent>();
function agentFor(localAddress: string | undefined): http.Agent {
  const key = localAddress ?? "";
  let agent = agents.get(key);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 32, ...(localAddress ? { localAddress } : {}) });
    agents.set(key, agent);
  }
  return agent;
}

export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

export class HangError extends Error {}

export function send(base: string, request: RawRequest): Promise<RawReply> {
  const u = new URL(base);
  const started = Date.now();
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, "utf8");
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  if (body !== undefined && !request.chunked) headers["content-length"] = String(body.length);
  if (request.chunked) headers["transfer-encoding"] = "chunked";
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: request.path,
        method: request.method,
        headers,
        agent: agentFor(request.localAddress),
        insecureHTTPParser: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8"), ms: Date.now() - started });
        });
        res.on("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new HangError(`no reply within ${request.timeoutMs ?? 15_000} ms: ${request.method} ${request.path.slice(0, 200)}`));
    }, request.timeoutMs ?? 15_000);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (body !== undefined) {
      if (request.chunked) {
        const step = 16 * 1024;
        for (let i = 0; i < body.length; i += step) req.write(body.subarray(i, i + step));
      } else req.write(body);
    }
    req.end();
  });
}

/** Percent-encodes a string's UTF-8 bytes (lone surrogates become U+FFFD, as any client would send). */
export function encode(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export { until } from "../../support/wait";

/** Signs of an internal error leaking out: stack frames, source paths. */
export const STACK_TRACE = /\bat [\w$.<>[\] ]*\(?(?:file:\/\/)?\/?[\w./-]+\.(?:ts|js|mjs|cjs|tsx):\d+:\d+|node_modules\/|\/work\/|webpack-internal|PrismaClient[A-Za-z]*Error|Invalid `prisma\./;
