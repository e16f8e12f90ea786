// next-auth's endpoints (sign-in, sign-out, session, CSRF). The options are
// built per request: the secret and URL are set by server/main.ts at start-up.
import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/server/auth/next-auth";

export const dynamic = "force-dynamic";

/** next-auth's own test of a callback URL: a path, or an absolute http(s) URL. */
function validCallbackUrl(value: string): boolean {
  try {
    return /^https?:/.test(new URL(value, value.startsWith("/") ? "http://localhost" : undefined).protocol);
  } catch {
    return false;
  }
}

const refuse = (status: number, message: string) => Response.json({ error: status === 405 ? "Method Not Allowed" : "Bad Request", message }, { status });

/** Requests next-auth would answer 500 (it takes them for a configuration error, or fails reading them). */
async function refusal(req: NextRequest, action: string): Promise<Response | undefined> {
  if (req.method === "GET" && action.startsWith("callback/credentials")) return refuse(405, "use POST");
  const urls: unknown[] = [req.nextUrl.searchParams.get("callbackUrl"), req.cookies.get("next-auth.callback-url")?.value, req.cookies.get("__Secure-next-auth.callback-url")?.value];
  const type = req.headers.get("content-type") ?? "";
  if (req.method === "POST" && type.includes("application/json")) {
    const body: unknown = await req.clone().json().catch(() => undefined);
    if (!body || typeof body !== "object" || Array.isArray(body)) return refuse(400, "the body must be a JSON object");
    urls.push((body as Record<string, unknown>).callbackUrl);
  } else if (req.method === "POST" && type.includes("application/x-www-form-urlencoded")) {
    // The body's callbackUrl too: next-auth answered 500 for one that is no URL.
    urls.push(new URLSearchParams(await req.clone().text().catch(() => "")).get("callbackUrl"));
  }
  // Where a valid one may lead is decided by the redirect callback (shared/safe-redirect.ts): only the console's origin.
  if (urls.some((value) => value !== undefined && value !== null && value !== "" && (typeof value !== "string" || !validCallbackUrl(value)))) {
    return refuse(400, "callbackUrl must be a path or an http(s) URL");
  }
  return undefined;
}

async function handler(req: NextRequest, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  const refused = await refusal(req, (await context.params).nextauth.join("/"));
  if (refused) return refused;
  const response: Response = await NextAuth(req, context, getAuthOptions());
  return response;
}

export { handler as GET, handler as POST };
