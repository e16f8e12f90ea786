// A small JSON client over node:http for the exchange tests: real requests,
// optionally from another loopback address (localAddress: "127.0.0.2"), so
// that the address binding of sessions can be tested.
import http from "node:http";

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  /** Put the token in the Authorization header instead of meta.token. */
  header?: boolean;
  localAddress?: string;
  headers?: Record<string, string>;
  /** A raw body (sent as is). */
  raw?: string;
}

export function request<T = Record<string, unknown>>(method: string, url: string, body?: unknown, options: RequestOptions = {}): Promise<Reply<T>> {
  const u = new URL(url);
  let payload: string | undefined = options.raw;
  if (payload === undefined && body !== undefined) {
    const withToken =
      options.token && !options.header && body && typeof body === "object" && !Array.isArray(body)
        ? { ...(body as Record<string, unknown>), meta: { ...(((body as Record<string, unknown>).meta as object | undefined) ?? {}), token: options.token } }
        : body;
    payload = JSON.stringify(withToken);
  }
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (payload !== undefined) headers["content-type"] ??= "application/json";
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  if (options.token && (options.header || body === undefined)) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers, ...(options.localAddress ? { localAddress: options.localAddress } : {}), agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          let parsed: unknown = {};
          try {
            parsed = text ? JSON.parse(text) : {};
          } catch {
            parsed = { unparsed: text };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as T, text });
        });
      },
    );
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export const post = <T = Record<string, unknown>>(url: string, body?: unknown, options?: RequestOptions) => request<T>("POST", url, body, options);
export const get = <T = Record<string, unknown>>(url: string, options?: RequestOptions) => request<T>("GET", url, undefined, options);

export interface ErrorBody {
  errors: Array<{ status: number; code: string; title: string; detail: string; source?: { pointer: string } }>;
  meta?: { vendor: string; status: number };
}

/** The exchange's error reply: its status and name. */
export function errorOf(reply: Reply): { status: number; code: string; detail: string; pointer?: string } {
  const body = reply.body as unknown as ErrorBody;
  const first = body.errors?.[0];
  return { status: reply.status, code: first?.code ?? "", detail: first?.detail ?? "", pointer: first?.source?.pointer };
}

export { until } from "../wait";
