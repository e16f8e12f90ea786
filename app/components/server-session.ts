// For server components: the signed-in operator (re-read from the database),
// the language from the cookie, and the city's time zone.
import { cookies } from "next/headers";
import { getServerSession } from "next-auth/next";
import { getAuthOptions } from "@/server/auth/next-auth";
import { db } from "@/server/db";
import { resolveConsoleUser, hasAnyRole, type ConsoleUser } from "@/server/console/session";
import { LOCALE_COOKIE, defaultLocale, parseLocale, type Locale } from "@/server/console/locale";
import type { UserRole } from "@/server/generated/prisma/enums";

export async function getLocale(): Promise<Locale> {
  return parseLocale((await cookies()).get(LOCALE_COOKIE)?.value) ?? defaultLocale();
}

export async function getConsoleUser(): Promise<ConsoleUser | null> {
  const session = await getServerSession(getAuthOptions());
  if (!session?.user?.id) return null;
  return resolveConsoleUser(db(), { userId: session.user.id, loginAt: session.loginAt, epoch: session.epoch });
}

export async function getTimeZone(): Promise<string> {
  const city = await db().city.findFirst({ orderBy: { id: "asc" }, select: { timezone: true } });
  return city?.timezone ?? "Europe/Moscow";
}

/** Where a user lands: the first section their roles open. */
export function homeFor(user: Pick<ConsoleUser, "roles">): string {
  if (hasAnyRole(user, ["DISPATCHER"])) return "/orders";
  if (hasAnyRole(user, ["ACCOUNTANT"])) return "/balances";
  if (hasAnyRole(user, ["EXCHANGE_OPERATOR"])) return "/exchange-desk";
  if (hasAnyRole(user, ["MANAGER"])) return "/reports";
  return "/settings/users";
}

export function allowed(user: Pick<ConsoleUser, "roles">, roles: readonly UserRole[]): boolean {
  return hasAnyRole(user, roles);
}
