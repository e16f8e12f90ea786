// tRPC callers without HTTP: one console user per role (and one without
// roles), each called through the router's createCaller with the context the
// real request would build: the claims next-auth's session callback gives
// (the user's id and the time of sign-in) and a locale.
import { randomBytes } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { db } from "@/server/db";
import { hashPassword } from "@/server/auth/passwords";
import { createContextInner } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import type { Locale } from "@/server/console/locale";
import type { SessionClaims } from "@/server/console/session";
import { UserRole } from "@/server/generated/prisma/enums";

export type Caller = ReturnType<typeof createCaller>;

export const ROLES = Object.values(UserRole) as UserRole[];

/** A signed-in operator: the user row and its session's claims. */
export interface Operator {
  id: number;
  email: string;
  roles: UserRole[];
  claims: SessionClaims;
}

/** A console user stored the way administrators create them, signed in just now. */
export async function operator(roles: UserRole[], options: { disabled?: boolean; loginAt?: number } = {}): Promise<Operator> {
  const email = `${roles.join("-").toLowerCase() || "none"}-${randomBytes(4).toString("hex")}@fast.test`;
  const user = await db().user.create({
    data: { email, name: `Fast ${roles.join(", ") || "no roles"}`, passwordHash: await hashPassword("fast-password-1"), roles, disabled: options.disabled ?? false },
    select: { id: true },
  });
  return { id: user.id, email, roles, claims: { userId: user.id, loginAt: options.loginAt ?? Date.now() } };
}

export function callerOf(who: Operator | null, locale: Locale = "en"): Caller {
  return createCaller(createContextInner({ claims: who?.claims ?? null, locale }));
}

/** A procedure by its dotted path ("admin.users.create"), called with `input`. */
export function callPath(caller: Caller, path: string, input: unknown): Promise<unknown> {
  let target: unknown = caller;
  for (const part of path.split(".")) target = (target as Record<string, unknown>)[part];
  if (typeof target !== "function") throw new Error(`no procedure ${path} on the caller`);
  return (target as (input: unknown) => Promise<unknown>)(input);
}

export interface Refusal {
  code: TRPCError["code"];
  message: string;
  domainCode: string | null;
}

/** The TRPCError a call ends with, or null when it succeeded. */
export async function outcomeOf(call: Promise<unknown>): Promise<{ ok: true; data: unknown } | ({ ok: false } & Refusal)> {
  try {
    return { ok: true, data: await call };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const cause = error.cause as { code?: unknown } | undefined;
    const domainCode = cause && typeof cause.code === "string" && "details" in cause ? cause.code : null;
    return { ok: false, code: error.code, message: error.message, domainCode };
  }
}
