// Console sign-in (next-auth 4): email and password checked against the
// scrypt hash, a signed JWT session cookie (httpOnly, SameSite=Lax, Secure
// behind https) that lasts SESSION_MAX_AGE_SECONDS, absolute: a session older
// than that is refused even if it was refreshed. The token carries only the
// user's id, the time of sign-in and the user's session epoch; roles, the
// disabled flag and the current epoch are read from the database on every
// request (server/trpc/init.ts, server/console/session.ts), so sign-out, a
// password reset, a role change and disabling end a session at once
// (server/auth/session-epoch.ts).
// Sign-in and sign-out are next-auth's routes in Next (app/api/auth); the
// console's tRPC calls read the cookie in the custom server
// (server/auth/session-cookie.ts).
import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { db } from "../db";
import { writeAudit } from "../audit/write-audit";
import { decoyPasswordHash, verifyPassword } from "./passwords";
import { MAX_ATTEMPTS_PER_ACCOUNT, releaseSignInAttempt, reserveSignInAttempt } from "./sign-in-throttle";
import { revokeUserSessions } from "./session-epoch";
import { metrics } from "../metrics/registry";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";
import type { UserRole } from "../generated/prisma/enums";
import { sameOriginTarget } from "../../shared/safe-redirect";

export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

declare module "next-auth" {
  interface Session {
    user: { id: number; email: string; name: string; roles: UserRole[] };
    loginAt: number;
    /** The user's session epoch at sign-in (server/auth/session-epoch.ts). */
    epoch?: number;
  }
  interface User {
    epoch?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: number;
    /** Milliseconds since the epoch of the sign-in (absolute expiry). */
    loginAt?: number;
    /** The user's session epoch at sign-in: the session ends when it changes (server/auth/session-epoch.ts). */
    epoch?: number;
  }
}

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().max(200).pipe(z.email()),
  password: z.string().min(1).max(200),
});

/** Whether a failure is written to the audit log: the first ones of a window, and the one that locks (not every guess). */
function auditFailure(attempts: number): boolean {
  return attempts <= 3 || attempts === MAX_ATTEMPTS_PER_ACCOUNT;
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
  const signIns = metrics().signIns;
  // Reserved before the slow work: a burst of guesses cannot all pass the check (sign-in-throttle.ts).
  const reservation = await reserveSignInAttempt(db(), email, address);
  if (!reservation.allowed) {
    signIns.inc({ result: "throttled" });
    if (reservation.firstRefusal) await writeAudit(db(), { userId: null, action: "auth.signInThrottled", entity: "user", details: { email, address } });
    return null;
  }
  const user = await db().user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true, disabled: true, roles: true, sessionEpoch: true },
  });
  // An unknown email costs the same scrypt as a known one: the time of the reply does not tell which emails exist.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !ok || user.disabled) {
    signIns.inc({ result: "rejected" });
    if (auditFailure(reservation.accountAttempts)) {
      await writeAudit(db(), {
        userId: user?.id ?? null,
        action: "auth.signInFailed",
        entity: "user",
        entityId: user?.id ?? null,
        details: { email, address, failures: reservation.accountAttempts, reason: !user || !ok ? "bad credentials" : "disabled" },
      });
    }
    return null;
  }
  signIns.inc({ result: "accepted" });
  await releaseSignInAttempt(db(), email, address);
  await writeAudit(db(), { userId: user.id, action: "auth.signIn", entity: "user", entityId: user.id, details: { email } });
  return { id: String(user.id), email: user.email, name: user.name, epoch: user.sessionEpoch };
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
      // Where next-auth sends the browser (callbackUrl, its cookie): only on the console's own origin.
      redirect({ url, baseUrl }) {
        return sameOriginTarget(url, baseUrl);
      },
      jwt({ token, user }) {
        if (user) {
          token.uid = Number(user.id);
          token.loginAt = Date.now();
          token.epoch = user.epoch ?? 0;
        }
        return token;
      },
      session({ session, token }) {
        // Only identity here; roles are read fresh from the database by the
        // console's session helper.
        session.loginAt = token.loginAt ?? 0;
        session.epoch = token.epoch;
        session.user = { id: token.uid ?? 0, email: token.email ?? "", name: token.name ?? "", roles: [] };
        return session;
      },
    },
    events: {
      async signOut({ token }) {
        if (!token?.uid) return;
        // The cookie a browser drops is still a valid token until it expires: signing out ends it (and the user's other sessions).
        await revokeUserSessions(db(), token.uid, token.epoch ?? 0);
        await writeAudit(db(), { userId: token.uid, action: "auth.signOut", entity: "user", entityId: token.uid });
      },
    },
  };
}
