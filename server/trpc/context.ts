// The outer tRPC context: the session from next-auth's cookie (verified JWT)
// and the locale cookie of the request.
import { getServerSession } from "next-auth/next";
import { getAuthOptions } from "../auth/next-auth";
import { localeFromCookieHeader } from "../console/locale";
import { createContextInner, type TrpcContext } from "./init";

export async function createTrpcContext(req: Request): Promise<TrpcContext> {
  const session = await getServerSession(getAuthOptions());
  const claims = session?.user?.id ? { userId: session.user.id, loginAt: session.loginAt } : null;
  return createContextInner({ claims, locale: localeFromCookieHeader(req.headers.get("cookie")) });
}
