"use client";
// The phone on the console (issue 34): the incoming-call pop-up and the
// missed calls (every page of a dispatcher's console), click-to-call, and a
// call log. Everything the PBX sent (number, caller's name) is rendered as
// React text, never as markup.
import { useEffect, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { clientCardHref } from "../clients/href";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { PhoneLink, StateBadge, isTyping } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { telHref } from "@/shared/phone-format";

interface PopupCall {
  id: number;
  state: string;
  phone: string;
  callerName: string;
  extension: string;
}

/** The path that opens a new phone order with the caller's number filled in. */
export function newOrderHref(phone: string): string {
  return `/orders/new?phone=${encodeURIComponent(phone)}`;
}

function CallerDetails({ phone }: { phone: string }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const card = useQuery(trpc.phone.caller.queryOptions({ phone }, { enabled: phone !== "", staleTime: 10_000 }));
  if (!card.data) return null;
  const { addresses, activeOrders } = card.data;
  return (
    <div className="call-details">
      <div className="call-section">
        <div className="call-label">{t.phone.activeOrders}</div>
        {activeOrders.length === 0 ? (
          <div className="muted small">{t.phone.noActiveOrders}</div>
        ) : (
          <ul className="call-list" data-testid="call-active-orders">
            {activeOrders.map((o) => (
              <li key={o.id}>
                <span className="strong">{t.phone.order(o.id)}</span> <StateBadge state={o.state} withCode /> {o.street} {o.house}
                {o.driverCallSign ? <span className="muted"> · {o.driverCallSign}</span> : null} <span className="muted small">{fmt.time(o.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="call-section">
        <div className="call-label">{t.phone.lastAddresses}</div>
        {addresses.length === 0 ? (
          <div className="muted small">{t.phone.noAddresses}</div>
        ) : (
          <ul className="call-list" data-testid="call-addresses">
            {addresses.map((a) => (
              <li key={`${a.street}|${a.house}`}>
                {a.street} {a.house}
              </li>
            ))}
          </ul>
        )}
      </div>
      <Link className="small" href={clientCardHref(phone)}>
        {t.clients.openCard}
      </Link>
    </div>
  );
}

function RingingCall({ call, onHide }: { call: PopupCall; onHide: () => void }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const router = useRouter();
  const card = useQuery(trpc.phone.caller.queryOptions({ phone: call.phone }, { enabled: call.phone !== "", staleTime: 10_000 }));
  const name = call.callerName || card.data?.clientName || t.phone.unknownCaller;
  const newOrderRef = useRef<HTMLButtonElement>(null);
  // The key to the new order takes the focus when the call comes, unless the dispatcher is typing somewhere.
  useEffect(() => {
    if (!isTyping(document.activeElement)) newOrderRef.current?.focus();
  }, []);
  const open = () => {
    onHide();
    router.push(newOrderHref(call.phone));
  };
  return (
    <section
      className="call-popup"
      role="alertdialog"
      aria-label={`${t.phone.incoming}: ${fmt.phone(call.phone)}`}
      data-testid="call-popup"
      onKeyDown={(e) => {
        if (e.key === "Escape") onHide();
      }}
    >
      <div className="call-head">
        <span className="call-ring" aria-hidden="true" />
        <div>
          <div className="call-label">{call.state === "ANSWERED" ? t.phone.answered : t.phone.incoming}</div>
          <div className="call-number mono" data-testid="call-number">
            {call.phone ? fmt.phone(call.phone) : t.phone.hiddenNumber}
          </div>
          <div className="call-name" data-testid="call-name">
            {name}
          </div>
        </div>
      </div>
      <CallerDetails phone={call.phone} />
      <div className="call-actions">
        {/* Focused when the call comes: Enter starts the order, Esc hides the pop-up. */}
        <button ref={newOrderRef} type="button" className="btn btn-primary" onClick={open} data-testid="call-new-order">
          {t.phone.newOrder}
        </button>
        <button type="button" className="btn" onClick={onHide}>
          {t.phone.close}
        </button>
      </div>
      <div className="muted small">{t.phone.newOrderKey}</div>
    </section>
  );
}

/** The pop-ups of ringing calls and the list of missed ones, on a dispatcher's every page. */
export function CallPopups() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const calls = useQuery(trpc.phone.calls.queryOptions(undefined, { staleTime: 30_000 }));
  const [hidden, setHidden] = useState<Set<number>>(() => new Set());
  const dismiss = useMutation(
    trpc.phone.dismiss.mutationOptions({
      onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.phone.calls.queryKey() }),
    }),
  );
  useLiveEvents((event) => {
    if (event.type === "call.changed" || event.type === "resync") void queryClient.invalidateQueries({ queryKey: trpc.phone.calls.queryKey() });
  });
  const list = calls.data ?? [];
  const ringing = list.filter((c) => c.state === "RINGING" && !hidden.has(c.id)).slice(0, 1);
  const missed = list.filter((c) => c.state === "MISSED");
  if (ringing.length === 0 && missed.length === 0) return null;
  return (
    <div className="call-dock" aria-live="polite">
      {ringing.map((call) => (
        <RingingCall key={call.id} call={call} onHide={() => setHidden((h) => new Set(h).add(call.id))} />
      ))}
      {missed.length ? (
        // Folded to one line until opened: it stays for hours and must not cover the page.
        <details className="call-missed" data-testid="call-missed">
          <summary className="call-label">
            {t.phone.missedTitle} ({missed.length})
          </summary>
          <ul className="call-list">
            {missed.slice(0, 5).map((call) => (
              <li key={call.id}>
                <span className="mono">{call.phone ? fmt.phone(call.phone) : t.phone.hiddenNumber}</span> {call.callerName ? <span>{call.callerName}</span> : null}{" "}
                <span className="muted small">{t.phone.missedAt(fmt.time(call.startedAt))}</span>
                <div className="call-actions">
                  <CallButton phone={call.phone} label={t.phone.callBack} bare />
                  <button type="button" className="btn btn-small" onClick={() => router.push(newOrderHref(call.phone))}>
                    {t.phone.newOrder}
                  </button>
                  <button type="button" className="btn btn-small" onClick={() => dismiss.mutate({ callId: call.id })}>
                    {t.phone.dismiss}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

/**
 * "Call": through the PBX from the dispatcher's extension (AMI Originate)
 * when a PBX is set and their profile has an extension; else a tel: link.
 */
export function CallButton({ phone, orderId, label, who, bare = false }: { phone: string; orderId?: number; label?: string; who?: "client" | "driver"; bare?: boolean }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const status = useQuery(trpc.phone.status.queryOptions(undefined, { staleTime: 60_000 }));
  const dial = useMutation(
    trpc.phone.dial.mutationOptions({
      meta: { inlineError: true },
      onSuccess: () => toast.info(t.phone.calling),
      onError: (error) => toast.error(`${t.phone.callFailed}: ${errorInfo(error, t).message}`),
    }),
  );
  const title = who === "driver" ? t.phone.callDriver(fmt.phone(phone)) : t.phone.callClient(fmt.phone(phone));
  if (!status.data?.pbx || !status.data.extension) {
    return bare ? (
      <a className="btn btn-small" href={telHref(phone) ?? undefined} aria-label={title}>
        {label ?? t.phone.call}
      </a>
    ) : (
      <PhoneLink phone={phone} />
    );
  }
  return (
    <span className="call-button">
      {bare ? null : <span className="mono">{fmt.phone(phone)}</span>}
      <button type="button" className="btn btn-small" aria-label={title} disabled={dial.isPending || !phone} onClick={() => dial.mutate({ phone, orderId })} data-testid="call-button">
        {label ?? t.phone.call}
      </button>
    </span>
  );
}

/** The calls of an order (its history) or of a phone (the client's other calls, those of exceptOrderId left out). */
/** An order's calls, or a phone's (`title` and `alwaysShown` for the client's card, where an empty log is said so). */
export function CallLog({ orderId, phone, exceptOrderId, title: ownTitle, alwaysShown = false }: { orderId?: number; phone?: string; exceptOrderId?: number; title?: string; alwaysShown?: boolean }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const input = orderId !== undefined ? { orderId } : { phone: phone ?? "" };
  const log = useQuery(trpc.phone.log.queryOptions(input, { enabled: orderId !== undefined || Boolean(phone) }));
  const rows = (log.data ?? []).filter((r) => exceptOrderId === undefined || r.orderId !== exceptOrderId);
  const title = ownTitle ?? (orderId !== undefined ? t.phone.callLog : t.phone.clientCalls);
  if (orderId === undefined && rows.length === 0 && !alwaysShown) return null;
  return (
    <section className="card" aria-label={title}>
      <h3>{title}</h3>
      {rows.length === 0 ? (
        <div className="muted">{t.phone.callLogEmpty}</div>
      ) : (
        <ol className="history" data-testid="call-log">
          {rows.map((r) => (
            <li key={r.id}>
              <div className="history-when mono">{fmt.dateTime(r.startedAt)}</div>
              <div className="history-move">
                {r.direction === "IN" ? t.phone.incomingShort : t.phone.outgoingShort} <span className="mono">{fmt.phone(r.phone)}</span>{" "}
                {r.state === "MISSED" ? t.phone.missedShort : r.state === "RINGING" ? t.phone.ringingShort : r.durationSeconds !== null ? t.phone.duration(r.durationSeconds) : ""}
                {r.orderId !== null && r.orderId !== orderId ? <span> {t.phone.leadTo(r.orderId)}</span> : null}
              </div>
              <div className="history-who small">
                {r.user ?? ""}
                {r.extension ? ` · ${r.extension}` : ""}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
