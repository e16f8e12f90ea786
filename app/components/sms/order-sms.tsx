"use client";
// The order card's part: what the passenger was sent — each SMS with its
// event, text, state (queued, sent, delivered, not delivered), the provider's
// id and times. Refreshed on the order's moves and, while a message is not
// final, every few seconds (delivery receipts arrive later).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import "./sms.css";

const TONE: Record<string, string> = { QUEUED: "badge-moderation", SENT: "badge-free", DELIVERED: "badge-success", FAILED: "badge-danger" };

export function OrderSms({ orderId }: { orderId: number }) {
  const { t, fmt } = useI18n();
  const s = t.sms;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery({
    ...trpc.sms.order.queryOptions({ orderId }),
    refetchInterval: (query) => (query.state.data?.some((m) => m.state === "QUEUED" || m.state === "SENT") ? 5_000 : false),
  });
  useLiveEvents((event) => {
    if (event.type === "order.changed" && event.orderId === orderId) void queryClient.invalidateQueries({ queryKey: trpc.sms.order.queryKey({ orderId }) });
  });
  const messages = list.data ?? [];
  return (
    <section className="card" aria-label={s.card} data-testid="order-sms">
      <h3>{s.card}</h3>
      {messages.length === 0 ? (
        <div className="muted">{s.none}</div>
      ) : (
        <ol className="sms-list">
          {messages.map((m) => (
            <li key={m.id} data-state={m.state} data-event={m.event}>
              <div className="row gap small">
                <span className="strong">{s.events[m.event as keyof typeof s.events] ?? m.event}</span>
                <span className={`badge ${TONE[m.state] ?? ""}`}>{s.states[m.state]}</span>
                <span className="muted">{fmt.time(new Date(m.deliveredAt ?? m.sentAt ?? m.failedAt ?? m.createdAt))}</span>
                {m.parts > 1 ? <span className="muted">{s.parts(m.parts)}</span> : null}
              </div>
              <div className="sms-text">{m.text}</div>
              {m.error && m.state !== "DELIVERED" ? <div className="muted small">{m.error}</div> : null}
              {m.providerIds.length ? <div className="muted small mono">{m.provider}: {m.providerIds.join(", ")}</div> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
