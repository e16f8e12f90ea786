// Every console page: signed in (else to the sign-in page), in the
// operator's language, inside the navigation frame.
import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { Providers } from "@/app/components/providers";
import { Shell } from "@/app/components/shell";
import { getConsoleUser, getLocale, getTimeZone } from "@/app/components/server-session";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await getConsoleUser();
  if (!user) redirect("/signin");
  const [locale, timeZone] = await Promise.all([getLocale(), getTimeZone()]);
  return (
    <Providers locale={locale} timeZone={timeZone}>
      <Shell user={{ name: user.name, email: user.email, roles: user.roles }}>{children}</Shell>
    </Providers>
  );
}
