// Console sign-in (next-auth 4): email and password checked against the
// scrypt hash, a signed JWT session cookie (httpOnly, SameSite=Lax, Secure
// behind https) that lasts SESSION_MAX_AGE_SECONDS, absolute: a session older
// than that is refused even if it was refreshed. The token carries only the
// user's id and the time of sign-in; roles and the disabled flag are read from
// the database on every request (server/trpc/init.ts, server/console/session.ts).
// Sign-in and sign-out are next-auth's routes in Next (app/api/auth); the
// console's tRPC calls read the cookie in the custom server
// (server/auth/session-cookie.ts).
import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { db } from "../db";
import { writeAudit } from "../audit/write-audit";
import { decoyPasswordHash, verifyPassword } from "./passwords";
import { checkSignInThrottle, clearSignInFailures, MAX_FAILURES_PER_ACCOUNT, recordSignInFailure } from "./sign-in-throttle";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";
import type { UserRole } from "../generated/prisma/enums";

export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

declare module "next-auth" {
  interface Session {
    user: { id: number; email: string; name: string; roles: UserRole[] };
    loginAt: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: number;
    /** Milliseconds since the epoch of the sign-in (absolute expiry). */
    loginAt?: number;
  }
}

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().max(200).pipe(z.email()),
  password: z.string().min(1).max(200),
});

/** Whether a failure is written to the audit log: the first ones of a window, and the one that locks (not every guess). */
function auditFailure(failures: number): boolean {
  return failures <= 3 || failures === MAX_FAILURES_PER_ACCOUNT;
}

/** The client's address as the custom server found it (server/http/app-handler.ts sets the header; clients cannot). */
function addressOf(headers: Record<string, unknown> | undefined): string {
  const value = headers?.[CLIENT_ADDRESS_HEADER];
  return typeof value === "string" && value ? value : "unknown";
}

/** The user for a correct email and password of an enabled account, else null. */
export async function authenticateCredentials(raw: unknown, headers?: Record<string, unknown>): Promise<User | null> {
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const address = addressOf(headers);
  const throttle = checkSignInThrottle(email, address);
  if (throttle.throttled) {
    if (throttle.firstRefusal) await writeAudit(db(), { userId: null, action: "auth.signInThrottled", entity: "user", details: { email, address } });
    return null;
  }
  const user = await db().user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true, disabled: true, roles: true },
  });
  // An unknown email costs the same scrypt as a known one: the time of the reply does not tell which emails exist.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !ok || user.disabled) {
    const failures = recordSignInFailure(email, address);
    if (auditFailure(failures)) {
      await writeAudit(db(), {
        userId: user?.id ?? null,
        action: "auth.signInFailed",
        entity: "user",
        entityId: user?.id ?? null,
        details: { email, address, failures, reason: !user || !ok ? "bad credentials" : "disabled" },
      });
    }
    return null;
  }
  clearSignInFailures(email);
  await writeAudit(db(), { userId: user.id, action: "auth.signIn", entity: "user", entityId: user.id, details: { email } });
  return { id: String(user.id), email: user.email, name: user.name };
}

function useSecureCookies(): boolean {
  return (process.env.NEXTAUTH_URL ?? "").startsWith("https://");
}

/** The session cookie's name as next-auth gives it (its defaultCookies): with the "__Secure-" prefix behind https. */
export function sessionCookieName(): string {
  return `${useSecureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

/** Built per request: the secret and URL are set by server/main.ts at start-up. */
export function getAuthOptions(): NextAuthOptions {
  return {
    secret: process.env.NEXTAUTH_SECRET,
    useSecureCookies: useSecureCookies(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 15 * 60 },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: (credentials, req) => authenticateCredentials(credentials, req.headers),
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.uid = Number(user.id);
          token.loginAt = Date.now();
        }
        return token;
      },
      session({ session, token }) {
        // Only identity here; roles are read fresh from the database by the
        // console's session helper.
        session.loginAt = token.loginAt ?? 0;
        session.user = { id: token.uid ?? 0, email: token.email ?? "", name: token.name ?? "", roles: [] };
        return session;
      },
    },
    events: {
      async signOut({ token }) {
        if (token?.uid) await writeAudit(db(), { userId: token.uid, action: "auth.signOut", entity: "user", entityId: token.uid });
      },
    },
  };
}
