"use client";
// The console's small building blocks: state badges, dialogs, empty states.
import { useEffect, useRef, type ReactNode } from "react";
import { groupOfState } from "@/shared/orders/board-filter";
import { codeOf, isOrderState } from "@/shared/orders/states";
import { useI18n } from "./i18n";
import { Icon } from "./icons";
import { errorInfo } from "./errors";
import { telHref } from "@/shared/phone-format";

export function stateTone(state: string): string {
  if (!isOrderState(state)) return "neutral";
  if (state === "DONE_SUCCESSFUL") return "success";
  const group = groupOfState(state);
  if (group === "done") return "muted";
  return group;
}

export function StateBadge({ state, withCode = false }: { state: string; withCode?: boolean }) {
  const { stateTitle } = useI18n();
  return (
    <span className={`badge badge-${stateTone(state)}`} data-state={state} title={stateTitle(state)}>
      {withCode && isOrderState(state) ? <span className="badge-code">{codeOf(state)}</span> : null}
      {stateTitle(state)}
    </span>
  );
}

export function Modal({
  title,
  onClose,
  children,
  footer,
  width = 460,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
}) {
  const { t } = useI18n();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>("input, select, textarea, button:not(.modal-x)");
    first?.focus();
    return () => previous?.focus();
  }, []);
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        style={{ width }}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <div className="modal-head">
          <h2>{title}</h2>
          <button type="button" className="icon-btn modal-x" aria-label={t.common.close} onClick={onClose}>
            <Icon name="close" />
          </button>
        </div>
        <div className="modal-body">{children}</div>
        {footer ? <div className="modal-foot">{footer}</div> : null}
      </div>
    </div>
  );
}

/**
 * A dialog holding one form: Enter submits it, the footer has Cancel and the
 * submit button (disabled while the save is pending).
 */
export function FormModal({
  title,
  onClose,
  onSubmit,
  pending,
  submitLabel,
  width,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  pending: boolean;
  submitLabel?: string;
  width?: number;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Modal
      title={title}
      onClose={onClose}
      width={width}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={onSubmit} disabled={pending}>
            {submitLabel ?? t.common.save}
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </Modal>
  );
}

export function EmptyState({ title, text, icon = "orders" }: { title: string; text?: string; icon?: Parameters<typeof Icon>[0]["name"] }) {
  return (
    <div className="empty">
      <div className="empty-icon">
        <Icon name={icon} size={28} />
      </div>
      <div className="empty-title">{title}</div>
      {text ? <div className="empty-text">{text}</div> : null}
    </div>
  );
}

export function PageHeader({ title, children, sub }: { title: string; sub?: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-head">
      <div>
        <h1>{title}</h1>
        {sub ? <div className="page-sub">{sub}</div> : null}
      </div>
      <div className="page-actions">{children}</div>
    </header>
  );
}

export function Kbd({ children }: { children: ReactNode }) {
  return <kbd className="kbd">{children}</kbd>;
}

/** True when a key press is typing in a field (global shortcuts stay out of the way). */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

/** A phone for people, dialable with one click: the link built in one place (shared/phone-format). */
export function PhoneLink({ phone, className }: { phone: string; className?: string }) {
  const { fmt } = useI18n();
  const href = telHref(phone);
  return href ? (
    <a className={className} href={href}>
      {fmt.phone(phone)}
    </a>
  ) : (
    <span className={className}>{fmt.phone(phone)}</span>
  );
}

/**
 * A failed load, said in the operator's words, with a retry: a view never
 * stays stuck on an error the server has since recovered from.
 */
export function ErrorNotice({ error, onRetry, testId }: { error: unknown; onRetry?: () => unknown; testId?: string }) {
  const { t } = useI18n();
  return (
    <div className="notice notice-error" role="alert" data-testid={testId}>
      {errorInfo(error, t).message}
      {onRetry ? (
        <>
          {" "}
          <button type="button" className="btn btn-small" onClick={() => void onRetry()}>
            {t.recover.retry}
          </button>
        </>
      ) : null}
    </div>
  );
}
