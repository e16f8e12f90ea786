// next-auth's endpoints (sign-in, sign-out, session, CSRF).
import NextAuth from "next-auth";
import { getAuthOptions } from "@/server/auth/next-auth";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, context: RouteContext): Promise<Response> {
  return NextAuth(req as never, context as never, getAuthOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
