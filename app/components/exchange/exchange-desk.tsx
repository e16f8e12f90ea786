"use client";
// The exchange desk: orders we sold and bought with their states here and on
// the exchange, offers received (a dispatcher gives one to a driver), the
// messages we sent (calls to the exchange, notifications to participants)
// with every delivery attempt and failure (an exchange operator sends a
// stuck one again), the notifications we received, and our balance. Live:
// exchange and order events refresh it; a slow poll covers the rest.
import { useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { formatKopecksExact } from "@/shared/money";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { Icon } from "../icons";
import { ErrorNotice, PageHeader } from "../ui";
import "./exchange.css";
import { type Tab, TABS, POLL_MS } from "./common";
import { LinksTable } from "./links-table";
import { SentTable } from "./sent-table";
import { ReceivedTable } from "./received-table";
import { BalanceTab } from "./balance-tab";
import { SellDialog } from "./sell-dialog";

export function ExchangeDesk() {
  const { t, fmt, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.session.me.queryOptions(undefined, { staleTime: 60_000 }));
  const roles = me.data?.roles ?? [];
  const canSell = roles.includes("DISPATCHER");
  const canRetry = roles.includes("EXCHANGE_OPERATOR");
  const [tab, setTab] = useState<Tab>("sold");
  const [selling, setSelling] = useState(false);
  const summary = useQuery(trpc.exchangeDesk.summary.queryOptions(undefined, { refetchInterval: POLL_MS }));

  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveEvents((event) => {
    if (!["exchange.changed", "order.changed", "order.created", "outbox.changed", "resync"].includes(event.type)) return;
    refresh.current ??= setTimeout(() => {
      refresh.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() });
    }, 700);
  });
  useEffect(
    () => () => {
      if (refresh.current) clearTimeout(refresh.current);
    },
    [],
  );

  const s = summary.data;
  const soldLive = s ? ["SELLING", "REGISTERED", "ACCEPTED", "TAKEN"].reduce((n, p) => n + (s.sold[p] ?? 0), 0) : 0;
  const soldAll = s ? Object.values(s.sold).reduce((a, b) => a + b, 0) : 0;
  const boughtAll = s ? Object.values(s.bought).reduce((a, b) => a + b, 0) : 0;
  const money = (k: bigint | number | null | undefined) => formatKopecksExact(k, locale);

  return (
    <div className="page exchange-desk" data-testid="exchange-desk">
      <PageHeader
        title={t.exchangeDesk.title}
        sub={
          s ? (
            s.exchangeUrl ? (
              <span className="muted">
                {t.exchangeDesk.connected(s.exchangeUrl)} · {s.sessionAt ? t.exchangeDesk.sessionAt(fmt.when(s.sessionAt)) : t.exchangeDesk.noSession}
              </span>
            ) : null
          ) : null
        }
      >
        {canSell ? (
          <button type="button" className="btn btn-primary" onClick={() => setSelling(true)}>
            <Icon name="exchange" size={16} />
            {t.exchangeDesk.sell}
          </button>
        ) : null}
      </PageHeader>
      {s && !s.exchangeUrl ? (
        <div className="notice notice-warn" role="status" style={{ marginBottom: 12 }}>
          {t.exchangeDesk.notConfigured}
        </div>
      ) : null}
      {summary.error ? (
        <ErrorNotice error={summary.error} onRetry={() => summary.refetch()} />
      ) : null}
      <div className="desk-cards" data-testid="desk-cards">
        <button type="button" className="desk-card" onClick={() => setTab("sold")}>
          <span className="total-label">{t.exchangeDesk.cards.sold}</span>
          <span className="desk-value">{soldLive}</span>
          <span className="muted small">
            {t.exchangeDesk.cards.onExchange(soldLive)} · {t.exchangeDesk.cards.total(soldAll)}
          </span>
        </button>
        <button type="button" className="desk-card" onClick={() => setTab("bought")}>
          <span className="total-label">{t.exchangeDesk.cards.bought}</span>
          <span className="desk-value">{boughtAll}</span>
          <span className="muted small">{t.exchangeDesk.cards.total(boughtAll)}</span>
        </button>
        <button type="button" className={`desk-card${s && s.offersOpen > 0 ? " desk-card-accent" : ""}`} onClick={() => setTab("offers")}>
          <span className="total-label">{t.exchangeDesk.cards.offers}</span>
          <span className="desk-value">{s?.offersOpen ?? "…"}</span>
          <span className="muted small">{s ? t.exchangeDesk.cards.received24h(s.inbound24h) : ""}</span>
        </button>
        <button type="button" className="desk-card" onClick={() => setTab("sent")}>
          <span className="total-label">{t.exchangeDesk.cards.queue}</span>
          <span className="desk-value">{s?.outbox.PENDING ?? "…"}</span>
          <span className="muted small">{s ? `${t.exchangeDesk.statuses.DELIVERED}: ${s.outbox.DELIVERED}` : ""}</span>
        </button>
        <button type="button" className={`desk-card${s && s.outbox.FAILED > 0 ? " desk-card-danger" : ""}`} onClick={() => setTab("sent")}>
          <span className="total-label">{t.exchangeDesk.cards.failed}</span>
          <span className="desk-value">{s?.outbox.FAILED ?? "…"}</span>
          <span className="muted small">{t.exchangeDesk.statuses.FAILED}</span>
        </button>
        <button type="button" className="desk-card" onClick={() => setTab("balance")}>
          <span className="total-label">{t.exchangeDesk.cards.balance}</span>
          <span className={`desk-value${s?.participant && s.participant.balance < 0n ? " negative" : ""}`} data-testid="desk-balance">
            {s ? (s.participant ? money(s.participant.balance) : t.common.none) : "…"}
          </span>
          <span className="muted small">{s && !s.participant ? t.exchangeDesk.cards.keptRemote : (s?.participant?.name ?? "")}</span>
        </button>
      </div>
      <div className="tabs" role="tablist">
        {TABS.map((k) => (
          <button key={k} type="button" role="tab" aria-selected={tab === k} className={`tab${tab === k ? " active" : ""}`} data-tab={k} onClick={() => setTab(k)}>
            {t.exchangeDesk.tabs[k]}
            {k === "offers" && s?.offersOpen ? <span className="tab-count">{s.offersOpen}</span> : null}
            {k === "sent" && s?.outbox.FAILED ? <span className="tab-count tab-count-danger">{s.outbox.FAILED}</span> : null}
          </button>
        ))}
      </div>
      {tab === "sold" ? <LinksTable role="SOLD" /> : null}
      {tab === "bought" ? <LinksTable role="BOUGHT" canTake={canSell} /> : null}
      {tab === "offers" ? <LinksTable role="BOUGHT" phases={["OFFERED", "TAKING"]} canTake={canSell} /> : null}
      {tab === "sent" ? <SentTable canRetry={canRetry} /> : null}
      {tab === "received" ? <ReceivedTable /> : null}
      {tab === "balance" ? <BalanceTab summary={s} /> : null}
      {!canSell && (tab === "sold" || tab === "offers") && me.data ? <p className="muted small">{t.exchangeDesk.viewOnly}</p> : null}
      {selling ? <SellDialog onClose={() => setSelling(false)} /> : null}
    </div>
  );
}
