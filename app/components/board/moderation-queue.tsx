"use client";
// The moderation queue at the top of the board: orders that arrived with
// moderation_required, oldest first, each with approve / to driver / reject.
import { useState } from "react";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import type { BoardRow } from "./types";
import { ApproveToDriverDialog, RejectDialog, type ModerationTarget } from "./moderation-dialogs";
import { useOrderActions } from "./use-order-actions";
import { useNow } from "../use-now";

function address(street: string, house: string): string {
  return [street, house].filter(Boolean).join(", ");
}

interface Props {
  items: BoardRow[];
  total: number;
  onOpen: (id: number) => void;
  /** Folded to one line (its tab has the count): the board's rows keep the height (issue 34, 1366×768). */
  folded?: boolean;
  onToggle?: () => void;
}

export function ModerationQueue({ items, total, onOpen, folded = false, onToggle }: Props) {
  const { t, fmt, locale } = useI18n();
  const { approve } = useOrderActions();
  const [rejecting, setRejecting] = useState<ModerationTarget | null>(null);
  const [toDriver, setToDriver] = useState<ModerationTarget | null>(null);
  const now = useNow(5_000);
  if (total === 0) return null;
  const oldest = items.reduce<BoardRow | undefined>((a, o) => (!a || o.createdAt < a.createdAt ? o : a), undefined);
  const toggle = onToggle ? (
    <button type="button" className="btn btn-small btn-ghost moderation-toggle" aria-expanded={!folded} onClick={onToggle}>
      {folded ? t.shift.unfold : t.shift.fold}
    </button>
  ) : null;
  return (
    <section className={`moderation${folded ? " folded" : ""}`} aria-label={t.moderation.title} data-testid="moderation-queue" data-folded={folded}>
      <div className="moderation-head">
        <span className="moderation-title">
          <Icon name="flag" size={16} />
          {folded && oldest
            ? t.shift.moderationFolded(total, t.common.minutes(Math.max(0, Math.round((now - oldest.createdAt.getTime()) / 60_000))))
            : t.moderation.title}
        </span>
        {folded ? null : <span className="pill pill-moderation">{total}</span>}
        {folded && oldest ? (
          <button type="button" className="btn btn-small" onClick={() => onOpen(oldest.id)}>
            #{oldest.id}
          </button>
        ) : null}
        {toggle}
      </div>
      {folded ? null : (
      <ul className="moderation-list">
        {items.map((o) => (
          <li key={o.id} className={`moderation-item${now - o.createdAt.getTime() < 15_000 ? " fresh" : ""}`} data-order-id={o.id}>
            <button type="button" className="moderation-open m-open" onClick={() => onOpen(o.id)}>
              <span className="mono strong">#{o.id}</span>
              <span className="muted small">{t.moderation.waiting(t.common.minutes(Math.max(0, Math.round((now - o.createdAt.getTime()) / 60_000))))}</span>
            </button>
            <span className="mono m-phone">{fmt.phone(o.phone)}</span>
            <span className="moderation-route m-route" title={o.comment || undefined}>
              {address(o.street, o.house)}
              <span className="arrow">→</span>
              {o.dst || address(o.dstStreet, o.dstHouse) || t.order.noDestination}
            </span>
            <span className="muted m-service">{locale === "en" ? o.service.nameEn : o.service.name}</span>
            <span className="num m-amount">{fmt.money(o.amount)}</span>
            <span className="moderation-actions m-actions">
              <button
                type="button"
                className="btn btn-small btn-primary"
                title={t.moderation.approveHint}
                onClick={() => approve.mutate({ orderId: o.id, expectedVersion: o.version })}
              >
                <Icon name="check" size={14} />
                {t.moderation.approve}
              </button>
              <button type="button" className="btn btn-small" onClick={() => setToDriver({ id: o.id, version: o.version, serviceId: o.service.id })}>
                {t.moderation.toDriver}
              </button>
              <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => setRejecting({ id: o.id, version: o.version })}>
                {t.moderation.reject}
              </button>
            </span>
          </li>
        ))}
      </ul>
      )}
      {!folded && total > items.length ? <div className="moderation-more muted small">{t.moderation.more(total - items.length)}</div> : null}
      {rejecting ? <RejectDialog order={rejecting} onClose={() => setRejecting(null)} /> : null}
      {toDriver ? <ApproveToDriverDialog order={toDriver} onClose={() => setToDriver(null)} /> : null}
    </section>
  );
}
