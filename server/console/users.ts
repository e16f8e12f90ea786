// Console users, managed by administrators: create with roles, change
// roles, disable (out at once: every request re-reads the user), reset the
// password. An administrator cannot lock themselves out. A role change,
// disabling and a password reset end the user's sessions
// (server/auth/session-epoch.ts).
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { UserRole } from "../generated/prisma/enums";
import { AuthError, ValidationError, isUniqueViolation } from "../errors";
import { hashPassword } from "../auth/passwords";
import { announceRevokedSessions, NEW_SESSION_EPOCH } from "../auth/session-epoch";

export const userRowSelect = {
  id: true,
  email: true,
  name: true,
  roles: true,
  disabled: true,
  locale: true,
  extension: true,
  createdAt: true,
} satisfies Prisma.UserSelect;

export async function listUsers(db: Db) {
  const users = await db.user.findMany({ orderBy: { id: "asc" }, select: userRowSelect });
  const last = await db.auditLog.groupBy({
    by: ["userId"],
    where: { action: "auth.signIn", userId: { in: users.map((u) => u.id) } },
    _max: { at: true },
  });
  return users.map((u) => ({ ...u, lastSignInAt: last.find((l) => l.userId === u.id)?._max.at ?? null }));
}

/** A PBX extension belongs to one user: "" or null clears it. */
function extensionData(extension: string | null | undefined): { extension?: string | null } {
  if (extension === undefined) return {};
  const text = (extension ?? "").trim();
  return { extension: text === "" ? null : text };
}

function extensionTaken(error: unknown, extension: string | null | undefined): never {
  if (isUniqueViolation(error) && extension) throw new ValidationError("CONFLICT", { reason: `the extension ${extension} belongs to another user`, reasonKey: "extensionTaken", extension });
  throw error;
}

export async function createUser(db: Db, input: { email: string; name: string; password: string; roles: UserRole[]; locale?: string; extension?: string | null }) {
  try {
    return await db.user.create({
      data: {
        email: input.email.trim().toLowerCase(),
        name: input.name.trim(),
        passwordHash: await hashPassword(input.password),
        roles: [...new Set(input.roles)],
        locale: input.locale ?? "ru",
        ...extensionData(input.extension),
      },
      select: userRowSelect,
    });
  } catch (error) {
    if (input.extension && isUniqueViolation(error) && !(await db.user.findUnique({ where: { email: input.email.trim().toLowerCase() }, select: { id: true } }))) extensionTaken(error, input.extension);
    if (isUniqueViolation(error)) throw new ValidationError("CONFLICT", { reason: `the email ${input.email} is taken`, reasonKey: "emailTaken", email: input.email });
    throw error;
  }
}

function refuseSelfLockout(actorId: number, userId: number, what: string, reasonKey: string): void {
  if (actorId === userId) throw new AuthError("NOT_ACCEPTABLE", { reason: what, reasonKey });
}

/** An unknown user is NOT_FOUND, not Prisma's "record to update not found" (a 500). Users are never deleted. */
async function requireUser(db: Db, userId: number): Promise<{ roles: UserRole[]; disabled: boolean }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { roles: true, disabled: true } });
  if (!user) throw new ValidationError("NOT_FOUND", { what: "User", id: userId });
  return user;
}

const sameRoles = (a: readonly UserRole[], b: readonly UserRole[]) => a.length === b.length && a.every((r) => b.includes(r));

export async function updateUser(db: Db, actorId: number, input: { userId: number; name?: string; roles?: UserRole[]; extension?: string | null }) {
  if (input.roles && !input.roles.includes("ADMIN")) refuseSelfLockout(actorId, input.userId, "you cannot remove your own administrator role", "selfAdmin");
  const before = await requireUser(db, input.userId);
  const roles = input.roles ? [...new Set(input.roles)] : undefined;
  const rolesChanged = roles !== undefined && !sameRoles(roles, before.roles);
  const updated = await db.user
    .update({
      where: { id: input.userId },
      data: { ...(input.name !== undefined ? { name: input.name.trim() } : {}), ...(roles ? { roles } : {}), ...extensionData(input.extension), ...(rolesChanged ? NEW_SESSION_EPOCH : {}) },
      select: userRowSelect,
    })
    .catch((error: unknown) => extensionTaken(error, input.extension));
  if (rolesChanged) announceRevokedSessions(input.userId);
  return updated;
}

export async function setUserDisabled(db: Db, actorId: number, input: { userId: number; disabled: boolean }) {
  if (input.disabled) refuseSelfLockout(actorId, input.userId, "you cannot disable yourself", "selfDisable");
  await requireUser(db, input.userId);
  const updated = await db.user.update({ where: { id: input.userId }, data: { disabled: input.disabled, ...(input.disabled ? NEW_SESSION_EPOCH : {}) }, select: userRowSelect });
  if (input.disabled) announceRevokedSessions(input.userId);
  return updated;
}

export async function resetUserPassword(db: Db, input: { userId: number; password: string }) {
  await requireUser(db, input.userId);
  const updated = await db.user.update({ where: { id: input.userId }, data: { passwordHash: await hashPassword(input.password), ...NEW_SESSION_EPOCH }, select: userRowSelect });
  announceRevokedSessions(input.userId);
  return updated;
}

export async function setUserLocale(db: Db, input: { userId: number; locale: "ru" | "en" }) {
  await db.user.update({ where: { id: input.userId }, data: { locale: input.locale }, select: { id: true } });
}
