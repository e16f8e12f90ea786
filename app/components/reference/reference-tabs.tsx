"use client";
// Tabs of the reference data section.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useI18n } from "../i18n";
import { Icon, type IconName } from "../icons";
import { useDispatchStrings } from "../dispatch/strings";
import "./reference.css";

const TABS = [
  { key: "services", icon: "orders" },
  { key: "regions", icon: "map" },
  { key: "rates", icon: "balances" },
  { key: "extras", icon: "plus" },
  { key: "streets", icon: "pin" },
  { key: "drivers", icon: "drivers" },
  { key: "blacklist", icon: "phone" },
  { key: "distribution", icon: "drivers" },
  { key: "ages", icon: "clock" },
  { key: "sms", icon: "phone" },
] as const satisfies ReadonlyArray<{ key: string; icon: IconName }>;

export function ReferenceTabs() {
  const { t } = useI18n();
  const dispatch = useDispatchStrings();
  const pathname = usePathname();
  return (
    <nav className="tabs tabs-links" aria-label={t.refData.title}>
      {TABS.map((tab) => {
        const href = `/reference/${tab.key}`;
        const active = pathname === href;
        return (
          <Link key={tab.key} href={href} className={`tab${active ? " active" : ""}`} aria-current={active ? "page" : undefined}>
            <Icon name={tab.icon} size={16} />
            {tab.key === "distribution" ? dispatch.tab : tab.key === "ages" ? t.age.limitsTitle : tab.key === "sms" ? t.sms.tab : t.refData.tabs[tab.key]}
          </Link>
        );
      })}
    </nav>
  );
}
