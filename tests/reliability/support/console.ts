// The operator console over HTTP, as a browser would use it: next-auth's
// CSRF token and credentials sign-in, tRPC calls with the session cookie,
// and the live events' SSE stream.
import http from "node:http";
import { send, type RawReply } from "./http";

export interface SignIn {
  /** The Cookie header that carries the session (empty when refused). */
  cookie: string;
  /** Set-Cookie headers of the sign-in reply. */
  setCookies: string[];
  reply: RawReply;
}

function setCookiesOf(reply: RawReply): string[] {
  const raw = reply.headers["set-cookie"];
  return Array.isArray(raw) ? raw : raw ? [raw] : [];
}

function pairs(setCookies: string[]): string[] {
  return setCookies.map((c) => c.split(";")[0] ?? "").filter((c) => c.includes("=") && !c.endsWith("="));
}

export async function csrf(base: string, localAddress?: string): Promise<{ token: string; cookie: string; setCookies: string[] }> {
  const reply = await send(base, { method: "GET", path: "/api/auth/csrf", localAddress });
  const token = (JSON.parse(reply.text) as { csrfToken: string }).csrfToken;
  const setCookies = setCookiesOf(reply);
  return { token, cookie: pairs(setCookies).join("; "), setCookies };
}

export async function signIn(base: string, email: string, password: string, options: { csrfToken?: string | null; localAddress?: string } = {}): Promise<SignIn> {
  const c = await csrf(base, options.localAddress);
  const form = new URLSearchParams({ email, password, json: "true", callbackUrl: "/" });
  const token = options.csrfToken === undefined ? c.token : options.csrfToken;
  if (token !== null) form.set("csrfToken", token);
  const reply = await send(base, {
    method: "POST",
    path: "/api/auth/callback/credentials",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: c.cookie },
    body: form.toString(),
    localAddress: options.localAddress,
  });
  const setCookies = setCookiesOf(reply);
  const session = pairs(setCookies).filter((p) => /session-token/.test(p));
  return { cookie: session.join("; "), setCookies, reply };
}

export interface TrpcReply {
  status: number;
  body: unknown;
  /** result.data.json of a success, error.json of a failure */
  data?: unknown;
  error?: { message: string; code: number; data: { code: string; httpStatus: number; domainCode?: string | null } };
}

function trpcReply(reply: RawReply): TrpcReply {
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    body = reply.text;
  }
  const b = body as { result?: { data?: { json?: unknown } }; error?: { json?: TrpcReply["error"] } };
  return { status: reply.status, body, data: b?.result?.data?.json, error: b?.error?.json };
}

export async function trpcQuery(base: string, path: string, input: unknown, cookie?: string): Promise<TrpcReply> {
  const q = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  return trpcReply(await send(base, { method: "GET", path: `/api/trpc/${path}${q}`, headers: cookie ? { cookie } : {} }));
}

export async function trpcMutation(base: string, path: string, input: unknown, cookie?: string, headers: Record<string, string> = {}): Promise<TrpcReply> {
  return trpcReply(
    await send(base, {
      method: "POST",
      path: `/api/trpc/${path}`,
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}), ...headers },
      body: JSON.stringify({ json: input }),
    }),
  );
}

export interface LiveStream {
  /** The events received so far, each on its own (a message's batch taken apart), and any other `data:` payload parsed whole. */
  events: unknown[];
  status: number;
  close(): void;
}

/** Opens live.events (SSE) and collects its events. Resolves once the stream answered. */
export function openLiveEvents(base: string, cookie: string): Promise<LiveStream> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const events: unknown[] = [];
    const req = http.request(
      { host: u.hostname, port: u.port, path: "/api/trpc/live.events", method: "GET", headers: { cookie, accept: "text/event-stream" } },
      (res) => {
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let at: number;
          while ((at = buffer.indexOf("\n\n")) !== -1) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const data = block
              .split("\n")
              .filter((l) => l.startsWith("data:"))
              .map((l) => l.slice(5).trim())
              .join("\n");
            if (!data) continue;
            try {
              // A message carries the events gathered since the last one (tRPC's {json: {events}}): each is kept on its own.
              const parsed: unknown = JSON.parse(data);
              const batch = (parsed as { json?: { events?: unknown } } | null)?.json?.events;
              if (Array.isArray(batch)) events.push(...(batch as unknown[]));
              else events.push(parsed);
            } catch {
              events.push(data);
            }
          }
        });
        res.on("error", () => undefined);
        resolve({ events, status: res.statusCode ?? 0, close: () => req.destroy() });
      },
    );
    req.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
    });
    req.end();
  });
}
