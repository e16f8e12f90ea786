"use client";
// The panel's tabs (the active one lit) and the language switch (a cookie
// shared with the console; the server re-renders the page in the language).
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import type { Locale } from "./strings";

export interface NavItem {
  href: string;
  label: string;
}

export function PanelNav({ items, label }: { items: NavItem[]; label: string }) {
  const pathname = usePathname();
  return (
    <nav className="pn-tabs" aria-label={label}>
      {items.map((item) => {
        const active = item.href === "/panel" ? pathname === "/panel" : pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <Link key={item.href} href={item.href} className={`pn-tab${active ? " active" : ""}`} aria-current={active ? "page" : undefined}>
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}

export function PanelLocaleSwitch({ locale, label }: { locale: Locale; label: string }) {
  const router = useRouter();
  return (
    <div className="locale-switch" role="group" aria-label={label}>
      {(["ru", "en"] as const).map((l) => (
        <button
          key={l}
          type="button"
          className={l === locale ? "active" : ""}
          aria-pressed={l === locale}
          onClick={() => {
            if (l === locale) return;
            document.cookie = `locale=${l}; path=/; max-age=${365 * 24 * 3600}; samesite=lax; secure`;
            router.refresh();
          }}
        >
          {l.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
