// Server-side role check of a console page: the page renders only for the
// roles given; anyone else sees a refusal (and the tRPC procedures behind
// the page refuse them too).
import type { ReactNode } from "react";
import Link from "next/link";
import { redirect } from "next/navigation";
import { consoleStrings } from "@/shared/i18n/console";
import type { UserRole } from "@/shared/roles";
import { allowed, getConsoleUser, getLocale } from "./server-session";

export async function RequireRoles({ roles, children }: { roles: UserRole[]; children: ReactNode }) {
  const user = await getConsoleUser();
  if (!user) redirect("/signin?expired=1");
  if (allowed(user, roles)) return <>{children}</>;
  const t = consoleStrings[await getLocale()];
  return (
    <div className="page">
      <div className="no-access" role="alert" data-testid="no-access">
        <div className="no-access-code">403</div>
        <h1>{t.noAccess.title}</h1>
        <p>{t.noAccess.text(roles.map((r) => t.roles[r]).join(", "))}</p>
        <Link href="/" className="btn">
          {t.noAccess.back}
        </Link>
      </div>
    </div>
  );
}

export async function ComingSoon({ title }: { title: (t: (typeof consoleStrings)["ru"]) => string }) {
  const t = consoleStrings[await getLocale()];
  return (
    <div className="page">
      <header className="page-head">
        <h1>{title(t)}</h1>
      </header>
      <div className="empty empty-large">
        <div className="empty-title">{t.soon.title}</div>
        <div className="empty-text">{t.soon.text}</div>
      </div>
    </div>
  );
}
