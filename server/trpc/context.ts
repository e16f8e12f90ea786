// The outer tRPC context of a console call over HTTP (server/http/console-trpc.ts):
// the session's claims from next-auth's cookie, decrypted by the custom
// server (server/auth/session-cookie.ts), and the locale cookie.
import type { IncomingMessage } from "node:http";
import { sessionClaims } from "../auth/session-cookie";
import { localeFromCookieHeader } from "../console/locale";
import { createContextInner, type TrpcContext } from "./init";

export async function createTrpcContext(req: IncomingMessage): Promise<TrpcContext> {
  const cookie = req.headers.cookie;
  return createContextInner({ claims: await sessionClaims(cookie), locale: localeFromCookieHeader(cookie) });
}
