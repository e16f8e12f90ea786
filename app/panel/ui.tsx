// The panel's small server-rendered building blocks: badges for order
// states, ledger kinds, deliveries and the connection; money; empty states;
// the "show more" link; the refusal card.
import Link from "next/link";
import type { ReactNode } from "react";
import { groupOfState } from "@/shared/orders/board-filter";
import type { ExchangeEntryKind, OutboxStatus } from "@/server/generated/prisma/enums";
import { STATE_TITLES, isOrderState } from "@/shared/orders/states";
import type { ConnectionState } from "@/server/panel/read-model";
import { Icon, type IconName } from "@/app/components/icons";
import type { PanelFormats } from "./format";
import type { Locale, PanelStrings } from "./strings";

export function stateTitle(state: string, locale: Locale): string {
  return isOrderState(state) ? STATE_TITLES[state][locale] : state;
}

export function StateBadge({ state, code, locale }: { state: string; code: number; locale: Locale }) {
  let tone = "neutral";
  if (isOrderState(state)) tone = state === "DONE_SUCCESSFUL" ? "success" : groupOfState(state) === "done" ? "muted" : groupOfState(state);
  return (
    <span className={`badge badge-${tone}`} data-state={state} title={`${code}`}>
      {stateTitle(state, locale)}
    </span>
  );
}

const KIND_TONE: Record<ExchangeEntryKind, string> = { DEPOSIT: "free", SALE: "success", PURCHASE: "moderation", COMMISSION: "danger-soft", ADJUSTMENT: "muted" };

export function KindBadge({ kind, t }: { kind: ExchangeEntryKind; t: PanelStrings }) {
  return (
    <span className={`badge pn-kind pn-kind-${kind.toLowerCase()} badge-${KIND_TONE[kind]}`} data-kind={kind}>
      {t.kinds[kind]}
    </span>
  );
}

const DELIVERY_TONE: Record<OutboxStatus, string> = { PENDING: "moderation", DELIVERED: "success", FAILED: "danger-soft" };

export function DeliveryBadge({ status, t }: { status: OutboxStatus; t: PanelStrings }) {
  return (
    <span className={`badge badge-${DELIVERY_TONE[status]}`} data-delivery={status}>
      {t.notifications.statuses[status]}
    </span>
  );
}

export function ConnectionBadge({ state, t }: { state: ConnectionState; t: PanelStrings }) {
  return (
    <span className={`pn-conn pn-conn-${state}`} data-connection={state}>
      <span className="pn-conn-dot" />
      {t.connection.states[state]}
    </span>
  );
}

export function Money({ minor, fmt, signed = false, strong = false }: { minor: number; fmt: PanelFormats; signed?: boolean; strong?: boolean }) {
  const tone = signed ? (minor > 0 ? " pn-plus" : minor < 0 ? " pn-minus" : "") : minor < 0 ? " pn-minus" : "";
  return <span className={`num${tone}${strong ? " strong" : ""}`}>{signed ? fmt.signed(minor) : fmt.money(minor)}</span>;
}

export function Empty({ title, text, icon = "orders" }: { title: string; text?: string; icon?: IconName }) {
  return (
    <div className="empty">
      <div className="empty-icon">
        <Icon name={icon} size={28} />
      </div>
      <div className="empty-title">{title}</div>
      {text ? <div>{text}</div> : null}
    </div>
  );
}

export function More({ href, label }: { href: string | null; label: string }) {
  if (!href) return null;
  return (
    <div className="pn-more">
      <Link className="btn" href={href} scroll={false}>
        {label}
      </Link>
    </div>
  );
}

export function Section({ title, children, actions, id }: { title: ReactNode; children: ReactNode; actions?: ReactNode; id?: string }) {
  return (
    <section className="pn-section" aria-labelledby={id}>
      <div className="pn-section-head">
        <h2 id={id}>{title}</h2>
        {actions ? <div className="pn-section-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

export function Refused({ t }: { t: PanelStrings }) {
  return (
    <div className="no-access" role="alert" data-panel-refused="1">
      <div className="no-access-code">403</div>
      <h1>{t.refused.title}</h1>
      <p>{t.refused.text}</p>
    </div>
  );
}

/** A query string with these values (undefined/empty dropped). */
export function query(values: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** A positive integer from a search parameter, else undefined. */
export function positiveInt(value: string | string[] | undefined): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v || !/^\d{1,9}$/.test(v)) return undefined;
  const n = Number(v);
  return n > 0 ? n : undefined;
}

export function oneOf<T extends string>(value: string | string[] | undefined, options: readonly T[]): T | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return options.find((o) => o === v);
}
