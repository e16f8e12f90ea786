// Console sign-in (next-auth 4): email and password checked against the
// scrypt hash, a signed JWT session cookie (httpOnly, SameSite=Lax, Secure
// behind https) that lasts SESSION_MAX_AGE_SECONDS, absolute: a session older
// than that is refused even if it was refreshed. The token carries only the
// user's id and the time of sign-in; roles and the disabled flag are read from
// the database on every request (server/trpc/init.ts, server/console/session.ts).
import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { db } from "../db";
import { writeAudit } from "../audit/write-audit";
import { verifyPassword } from "./passwords";
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

// Failed attempts per email: after MAX_FAILURES within WINDOW_MS further
// attempts are refused until the window passes (a brute-force brake).
const MAX_FAILURES = 8;
const WINDOW_MS = 10 * 60_000;
const failuresKey = Symbol.for("taxi.signInFailures");
type Holder = { [failuresKey]?: Map<string, number[]> };

function failures(): Map<string, number[]> {
  const holder = globalThis as Holder;
  holder[failuresKey] ??= new Map();
  return holder[failuresKey];
}

function recentFailures(email: string, now: number): number[] {
  const list = (failures().get(email) ?? []).filter((t) => now - t < WINDOW_MS);
  failures().set(email, list);
  return list;
}

/** The user for a correct email and password of an enabled account, else null. */
export async function authenticateCredentials(raw: unknown): Promise<User | null> {
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  const now = Date.now();
  const recent = recentFailures(email, now);
  if (recent.length >= MAX_FAILURES) {
    await writeAudit(db(), { userId: null, action: "auth.signInThrottled", entity: "user", details: { email } });
    return null;
  }
  const user = await db().user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true, disabled: true, roles: true },
  });
  const ok = user ? await verifyPassword(password, user.passwordHash) : false;
  if (!user || !ok || user.disabled) {
    recent.push(now);
    if (failures().size > 10_000) failures().clear();
    await writeAudit(db(), {
      userId: user?.id ?? null,
      action: "auth.signInFailed",
      entity: "user",
      entityId: user?.id ?? null,
      details: { email, reason: !user || !ok ? "bad credentials" : "disabled" },
    });
    return null;
  }
  failures().delete(email);
  await writeAudit(db(), { userId: user.id, action: "auth.signIn", entity: "user", entityId: user.id, details: { email } });
  return { id: String(user.id), email: user.email, name: user.name };
}

function useSecureCookies(): boolean {
  return (process.env.NEXTAUTH_URL ?? "").startsWith("https://");
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
        authorize: (credentials) => authenticateCredentials(credentials),
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
