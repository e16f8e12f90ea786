"use client";
// The console's frame: the navigation on the left (only the sections the
// operator's roles open), the live connection, the language switch and
// sign-out; the page on the right.
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { signOutAndLeave } from "./leave";
import type { ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import type { UserRole } from "@/shared/roles";
import type { ConsoleStrings } from "@/shared/i18n/console";
import { useI18n, storeLocale, type Locale } from "./i18n";
import { useLiveStatus } from "./live";
import { useTRPC } from "./trpc";
import { Icon, type IconName } from "./icons";
import { CallPopups } from "./phone/phone";

interface NavItem {
  href: string;
  label: (t: ConsoleStrings) => string;
  icon: IconName;
  roles: UserRole[];
  /** Other paths that light this item. */
  match?: string;
}

export const NAV: NavItem[] = [
  { href: "/orders", label: (t) => t.nav.orders, icon: "orders", roles: ["DISPATCHER", "MANAGER"] },
  { href: "/map", label: (t) => t.nav.map, icon: "map", roles: ["DISPATCHER", "MANAGER"] },
  { href: "/drivers", label: (t) => t.nav.drivers, icon: "drivers", roles: ["DISPATCHER", "MANAGER"] },
  { href: "/messages", label: (t) => t.messages.nav, icon: "bell", roles: ["DISPATCHER"] },
  { href: "/clients", label: (t) => t.clients.nav, icon: "phone", roles: ["DISPATCHER"] },
  { href: "/balances", label: (t) => t.nav.balances, icon: "balances", roles: ["ACCOUNTANT", "ADMIN"] },
  { href: "/exchange-desk", label: (t) => t.nav.exchange, icon: "exchange", roles: ["EXCHANGE_OPERATOR", "DISPATCHER"] },
  { href: "/certificates", label: (t) => t.nav.certificates, icon: "key", roles: ["EXCHANGE_OPERATOR"] },
  { href: "/reports", label: (t) => t.nav.reports, icon: "reports", roles: ["MANAGER", "ADMIN", "ACCOUNTANT"], match: "/reports" },
  { href: "/reference", label: (t) => t.nav.reference, icon: "reference", roles: ["ADMIN"] },
  { href: "/settings/users", label: (t) => t.nav.settings, icon: "settings", roles: ["ADMIN"], match: "/settings" },
];

export interface ShellUser {
  name: string;
  email: string;
  roles: UserRole[];
}

export function LocaleSwitch({ onChange }: { onChange?: (locale: Locale) => void }) {
  const { locale, t } = useI18n();
  const router = useRouter();
  return (
    <div className="locale-switch" role="group" aria-label={t.common.language}>
      {(["ru", "en"] as const).map((l) => (
        <button
          key={l}
          type="button"
          className={l === locale ? "active" : ""}
          aria-pressed={l === locale}
          onClick={() => {
            if (l === locale) return;
            storeLocale(l);
            onChange?.(l);
            router.refresh();
          }}
        >
          {l.toUpperCase()}
        </button>
      ))}
    </div>
  );
}

function LiveIndicator() {
  const status = useLiveStatus();
  const { t } = useI18n();
  const label = status === "live" ? t.common.live : status === "offline" ? t.common.offline : t.common.connecting;
  return (
    <div className={`live live-${status}`} title={label} data-live={status}>
      <span className="live-dot" />
      {label}
    </div>
  );
}

export function Shell({ user, children }: { user: ShellUser; children: ReactNode }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const trpc = useTRPC();
  const setLocale = useMutation(trpc.session.setLocale.mutationOptions({ meta: { inlineError: true } }));
  // Ends every session of this operator, this one included (server/auth/session-epoch.ts).
  const signOutEverywhere = useMutation(
    trpc.session.signOutEverywhere.mutationOptions({
      onSuccess: () => signOutAndLeave(),
    }),
  );
  const items = NAV.filter((item) => item.roles.some((r) => user.roles.includes(r)));
  return (
    <div className="shell">
      <aside className="sidebar">
        <Link href="/" className="brand">
          <span className="brand-mark">T</span>
          <span>
            <span className="brand-name">{t.appName}</span>
            <span className="brand-sub">{t.appSubtitle}</span>
          </span>
        </Link>
        <nav className="nav" aria-label="Main">
          {items.map((item) => {
            const active = pathname === item.href || pathname.startsWith(`${item.match ?? item.href}/`) || pathname === item.match;
            return (
              <Link key={item.href} href={item.href} className={`nav-item${active ? " active" : ""}`} aria-current={active ? "page" : undefined}>
                <Icon name={item.icon} />
                <span>{item.label(t)}</span>
              </Link>
            );
          })}
        </nav>
        <div className="sidebar-foot">
          <LiveIndicator />
          <div className="user">
            <div className="user-name">{user.name}</div>
            <div className="user-roles">{user.roles.map((r) => t.roles[r]).join(", ")}</div>
          </div>
          <div className="sidebar-row">
            <LocaleSwitch onChange={(locale) => setLocale.mutate({ locale })} />
            <button
              type="button"
              className="signout"
              onClick={() => signOutAndLeave()}
            >
              <Icon name="signOut" size={16} />
              {t.common.signOut}
            </button>
          </div>
          <button type="button" className="signout" disabled={signOutEverywhere.isPending} onClick={() => signOutEverywhere.mutate()}>
            {t.common.signOutEverywhere}
          </button>
        </div>
      </aside>
      <main className="content">{children}</main>
      {user.roles.includes("DISPATCHER") ? <CallPopups /> : null}
    </div>
  );
}
