// The console's HTTP surface from a test: sign in through next-auth's
// credentials endpoint and call tRPC procedures directly (superjson bodies),
// exactly as a script bypassing the UI would.
import type { SuperJSONResult } from "superjson";
// The console's superjson, with its custom types registered (shared/board-wire.ts).
import { superjson } from "../../shared/board-wire";

export interface Session {
  cookie: string;
}

function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0] ?? "").filter(Boolean);
}

export async function signInApi(baseUrl: string, email: string, password: string): Promise<Session> {
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const jar = cookiesOf(csrfRes);
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const all = [...jar, ...cookiesOf(res)];
  if (!all.some((c) => c.includes("session-token="))) throw new Error(`sign-in of ${email} failed (${res.status})`);
  return { cookie: all.join("; ") };
}

export interface TrpcResult<T> {
  status: number;
  data?: T;
  error?: { message: string; code: string; domainCode: string | null; httpStatus: number };
}

export async function trpc<T = unknown>(
  baseUrl: string,
  session: Session | null,
  path: string,
  input: unknown,
  type: "query" | "mutation" = "query",
): Promise<TrpcResult<T>> {
  const encoded = superjson.serialize(input);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (session) headers.cookie = session.cookie;
  const res =
    type === "query"
      ? await fetch(`${baseUrl}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(encoded))}`, { headers })
      : await fetch(`${baseUrl}/api/trpc/${path}`, { method: "POST", headers, body: JSON.stringify(encoded) });
  const body = (await res.json()) as {
    result?: { data: SuperJSONResult };
    error?: { json: { message: string; data: { code: string; domainCode: string | null; httpStatus: number } } };
  };
  if (body.error) {
    const e = body.error.json;
    return { status: res.status, error: { message: e.message, code: e.data.code, domainCode: e.data.domainCode, httpStatus: e.data.httpStatus } };
  }
  return { status: res.status, data: body.result ? superjson.deserialize<T>(body.result.data) : undefined };
}

/** The dispatch API's order creation, as integrations call it. */
export async function apiCreateOrder(baseUrl: string, apiKey: string, params: Record<string, string>): Promise<{ uuid: string }> {
  const res = await fetch(`${baseUrl}/api/order`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ api_key: apiKey, ...params }),
  });
  const body = (await res.json()) as { status: string; response?: { uuid: string }; error?: { message: string } };
  if (body.status !== "DONE" || !body.response) throw new Error(`POST /api/order failed: ${JSON.stringify(body)}`);
  return body.response;
}

/** A phone number no other test uses (11 digits, 7...). */
export function uniquePhone(): string {
  return `7916${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
}
