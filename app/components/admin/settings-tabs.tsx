"use client";
// Tabs of the settings section.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useI18n } from "../i18n";
import { Icon } from "../icons";

export function SettingsTabs() {
  const { t } = useI18n();
  const pathname = usePathname();
  const tabs = [
    { href: "/settings/users", label: t.nav.users, icon: "users" as const },
    { href: "/settings/api-keys", label: t.nav.apiKeys, icon: "key" as const },
    { href: "/settings/audit", label: t.nav.audit, icon: "audit" as const },
    { href: "/settings/roads", label: t.nav.roads, icon: "map" as const },
  ];
  return (
    <nav className="tabs tabs-links" aria-label={t.nav.settings}>
      {tabs.map((tab) => (
        <Link key={tab.href} href={tab.href} className={`tab${pathname === tab.href ? " active" : ""}`} aria-current={pathname === tab.href ? "page" : undefined}>
          <Icon name={tab.icon} size={16} />
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
