// Who is using the console: the signed-in user re-read from the database on
// every request, so that disabling a user or changing their roles takes
// effect at once, and a session older than its absolute lifetime, or from
// before the user's sessions were revoked (its epoch is not the user's:
// server/auth/session-epoch.ts), is refused.
import type { Db } from "../db";
import { rawQuery } from "../db/sql";
import type { Prisma } from "../generated/prisma/client";
import type { UserRole } from "../generated/prisma/enums";
import type { UserRole as BrowserUserRole } from "../../shared/roles";
import { SESSION_MAX_AGE_SECONDS } from "../auth/next-auth";

export const consoleUserSelect = {
  id: true,
  email: true,
  name: true,
  roles: true,
  locale: true,
} satisfies Prisma.UserSelect;

export interface ConsoleUser {
  id: number;
  email: string;
  name: string;
  roles: UserRole[];
  locale: string;
}

export interface SessionClaims {
  userId: number;
  /** Milliseconds since the epoch of the sign-in. */
  loginAt: number;
  /** The user's session epoch at sign-in (a token from before epochs existed carries none: 0). */
  epoch?: number;
}

export function sessionExpired(claims: SessionClaims, now = Date.now()): boolean {
  return !claims.loginAt || now - claims.loginAt > SESSION_MAX_AGE_SECONDS * 1000;
}

/** The enabled user behind a session, or null (unknown, disabled, expired or revoked). */
export async function resolveConsoleUser(db: Db, claims: SessionClaims | null): Promise<ConsoleUser | null> {
  if (!claims || !claims.userId || sessionExpired(claims)) return null;
  // Every console call asks this: one raw round trip, not Prisma's query compiler (docs/performance.md).
  const [user] = await rawQuery(db)<{ id: number; email: string; name: string; roles: UserRole[]; locale: string; disabled: boolean; session_epoch: number }>(
    `SELECT id, email, name, roles::text[] AS roles, locale, disabled, session_epoch FROM app_user WHERE id = $1::int`,
    [claims.userId],
  );
  if (!user || user.disabled || Number(user.session_epoch) !== (claims.epoch ?? 0)) return null;
  return { id: Number(user.id), email: user.email, name: user.name, roles: [...user.roles], locale: user.locale };
}

export function hasAnyRole(user: Pick<ConsoleUser, "roles">, roles: readonly UserRole[]): boolean {
  return roles.some((role) => user.roles.includes(role));
}

// shared/roles.ts restates the database's roles for the browser: this line stops compiling if they drift.
type SameUnion<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const ROLES_MATCH: SameUnion<UserRole, BrowserUserRole> = true;
