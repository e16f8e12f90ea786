// The simulator's clients of the product's public interfaces: the dispatch
// API (passengers, as a call centre or an app back end would call it) and
// the driver app interface (each simulated driver with its own key). Plain
// HTTP, nothing else: the simulator never touches the database.
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { trimEndChar } from "../text/trim";

/** A refused or failed call: the interface's error code, or NETWORK / HTTP_<status>. */
export class CallError extends Error {
  constructor(
    readonly code: string,
    readonly httpStatus: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "CallError";
  }

  /** The outcome is unknown: the request may or may not have been applied. */
  get uncertain(): boolean {
    return this.code === "NETWORK" || this.code === "INTERNAL" || this.httpStatus >= 500;
  }
}

const TIMEOUT_MS = 30_000;

export interface TransportOptions {
  /** PEM of an extra authority to trust (a development TLS set). */
  ca?: string;
  /** Skip certificate checks: only for the server's own loopback (the simulator inside npm start). */
  insecure?: boolean;
}

// One keep-alive agent per kind: the simulated drivers share connections.
const agents = new Map<string, HttpAgent | HttpsAgent>();

function agentFor(url: URL, transport: TransportOptions): HttpAgent | HttpsAgent {
  const key = `${url.protocol}${transport.insecure ? ":insecure" : ""}${transport.ca ? `:${transport.ca.length}` : ""}`;
  let agent = agents.get(key);
  if (!agent) {
    agent =
      url.protocol === "https:"
        ? new HttpsAgent({ keepAlive: true, maxSockets: 64, ca: transport.ca, rejectUnauthorized: !transport.insecure })
        : new HttpAgent({ keepAlive: true, maxSockets: 64 });
    agents.set(key, agent);
  }
  return agent;
}

interface SendInit {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

function send(target: string, init: SendInit, transport: TransportOptions): Promise<{ status: number; body: unknown }> {
  const url = new URL(target);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  const payload = init.body === undefined ? undefined : Buffer.from(init.body, "utf8");
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method,
        agent: agentFor(url, transport),
        headers: { accept: "application/json", ...init.headers, ...(payload ? { "content-length": String(payload.length) } : {}) },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (error) => reject(new CallError("NETWORK", 0, `${init.method} ${url.pathname}: ${error.message}`)));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = res.statusCode ?? 0;
          try {
            resolve({ status, body: text ? (JSON.parse(text) as unknown) : {} });
          } catch {
            reject(new CallError(`HTTP_${status}`, status, `${init.method} ${url.pathname}: not JSON (${text.slice(0, 80)})`));
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no reply within ${TIMEOUT_MS} ms`)));
    req.on("error", (error) => reject(new CallError("NETWORK", 0, `${init.method} ${url.pathname}: ${error.message}`)));
    req.end(payload);
  });
}

type Params = Record<string, string | number | undefined>;

function search(params: Params): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) s.append(k, String(v));
  return s.toString();
}

/** The dispatch API (/api): DONE replies give `response`, ERROR replies throw a CallError with the code. */
export class DispatchClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly transport: TransportOptions = {},
  ) {}

  private unwrap(path: string, reply: { status: number; body: unknown }): Record<string, unknown> {
    const body = reply.body as { status?: string; response?: unknown; error?: { code?: string; message?: string } };
    if (reply.status !== 200) throw new CallError(`HTTP_${reply.status}`, reply.status, `/api/${path}: HTTP ${reply.status}`);
    if (body.status === "DONE") return (body.response ?? {}) as Record<string, unknown>;
    const code = body.error?.code ?? "UNKNOWN";
    throw new CallError(code, 200, `/api/${path}: ${code} ${body.error?.message ?? ""}`.trim());
  }

  async get(path: string, params: Params = {}): Promise<Record<string, unknown>> {
    return this.unwrap(path, await send(`${this.baseUrl}/api/${path}?${search({ api_key: this.apiKey, ...params })}`, { method: "GET" }, this.transport));
  }

  async post(path: string, params: Params = {}): Promise<Record<string, unknown>> {
    return this.unwrap(
      path,
      await send(`${this.baseUrl}/api/${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: search({ api_key: this.apiKey, ...params }),
      }, this.transport),
    );
  }
}

/** The driver app interface (/driver-app/v1) with one key: a driver's, or the provisioning key. */
export class DriverAppClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly transport: TransportOptions = {},
  ) {}

  private async call(method: "GET" | "POST", path: string, input: Params | Record<string, unknown>): Promise<Record<string, unknown>> {
    const url = `${this.baseUrl}/driver-app/v1/${path}`;
    const reply =
      method === "GET"
        ? await send(`${url}?${search(input as Params)}`, { method, headers: { authorization: `Bearer ${this.key}` } }, this.transport)
        : await send(url, { method, headers: { authorization: `Bearer ${this.key}`, "content-type": "application/json" }, body: JSON.stringify(input) }, this.transport);
    if (reply.status === 200) return reply.body as Record<string, unknown>;
    const error = (reply.body as { error?: Record<string, unknown> }).error ?? {};
    const code = typeof error.code === "string" ? error.code : `HTTP_${reply.status}`;
    throw new CallError(code, reply.status, `/driver-app/v1/${path}: ${code} ${typeof error.message === "string" ? error.message : ""}`.trim(), error);
  }

  get(path: string, params: Params = {}): Promise<Record<string, unknown>> {
    return this.call("GET", path, params);
  }

  post(path: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.call("POST", path, body);
  }
}

/**
 * The exchange API (/exchange) as a participant's server calls it: JSON
 * bodies `{meta: {token}, data}`; errors `{errors: [{status, code, detail}]}`
 * become a CallError with the error's name (Gone, Forbidden ...).
 */
export class ExchangeClient {
  constructor(
    private readonly exchangeUrl: string,
    private readonly transport: TransportOptions = {},
  ) {}

  async post(path: string, data: Record<string, unknown>, token?: string): Promise<Record<string, unknown>> {
    const reply = await send(
      `${trimEndChar(this.exchangeUrl, "/")}/${path}`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...(token ? { meta: { token } } : {}), data }) },
      this.transport,
    );
    if (reply.status === 200) return reply.body as Record<string, unknown>;
    const first = ((reply.body as { errors?: Array<Record<string, unknown>> }).errors ?? [])[0] ?? {};
    const code = typeof first.code === "string" ? first.code : `HTTP_${reply.status}`;
    throw new CallError(code, reply.status, `/exchange/${path}: ${reply.status} ${code} ${typeof first.detail === "string" ? first.detail : ""}`.trim(), first);
  }
}
