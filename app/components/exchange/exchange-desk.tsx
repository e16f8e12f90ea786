"use client";
// The exchange desk: orders we sold and bought with their states here and on
// the exchange, offers received (a dispatcher gives one to a driver), the
// messages we sent (calls to the exchange, notifications to participants)
// with every delivery attempt and failure (an exchange operator sends a
// stuck one again), the notifications we received, and our balance. Live:
// exchange and order events refresh it; a slow poll covers the rest.
import { useEffect, useMemo, useRef, useState } from "react";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { formatKopecksExact } from "@/shared/money";
import { stateOfCode } from "@/shared/orders/states";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { EmptyState, Modal, PageHeader, StateBadge } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import "./exchange.css";

type Outputs = inferRouterOutputs<AppRouter>["exchangeDesk"];
type LinkRow = Outputs["links"]["items"][number];
type Tab = "sold" | "bought" | "offers" | "sent" | "received" | "balance";
const TABS: Tab[] = ["sold", "bought", "offers", "sent", "received", "balance"];
const POLL_MS = 5_000;

function phaseTone(phase: string): string {
  if (phase === "REFUSED") return "danger";
  if (phase === "CLOSED") return "muted";
  if (phase === "TAKEN") return "assigned";
  if (phase === "OFFERED" || phase === "SELLING" || phase === "TAKING") return "moderation";
  return "free";
}

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
        <div className="notice notice-error" role="alert">
          {errorInfo(summary.error, t).message}
        </div>
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

function route(o: LinkRow["order"]): string {
  const from = [o.street, o.house].filter(Boolean).join(", ");
  const to = o.dst || [o.dstStreet, o.dstHouse].filter(Boolean).join(", ");
  return to ? `${from} → ${to}` : from;
}

function LinksTable({ role, phases, canTake = false }: { role: "SOLD" | "BOUGHT"; phases?: string[]; canTake?: boolean }) {
  const { t, fmt, stateTitle } = useI18n();
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [taking, setTaking] = useState<LinkRow | null>(null);
  const links = useInfiniteQuery(
    trpc.exchangeDesk.links.infiniteQueryOptions(
      { role, phases, q: q || undefined, limit: 50 },
      { getNextPageParam: (p) => p.nextCursor ?? undefined, placeholderData: keepPreviousData, refetchInterval: POLL_MS },
    ),
  );
  const rows = useMemo(() => links.data?.pages.flatMap((p) => p.items) ?? [], [links.data]);
  const empty = phases ? t.exchangeDesk.emptyOffers : role === "SOLD" ? t.exchangeDesk.emptySold : t.exchangeDesk.emptyBought;
  return (
    <>
      <div className="filters">
        <label className="search">
          <Icon name="search" size={16} />
          <input type="search" value={search} placeholder={t.exchangeDesk.search} aria-label={t.exchangeDesk.search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      {links.error ? (
        <div className="notice notice-error" role="alert">
          {errorInfo(links.error, t).message}
        </div>
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid={`links-${role.toLowerCase()}`}>
          <thead>
            <tr>
              <th>{t.exchangeDesk.columns.order}</th>
              <th>{t.exchangeDesk.columns.created}</th>
              <th>{t.exchangeDesk.columns.route}</th>
              <th className="num">{t.exchangeDesk.columns.amount}</th>
              <th>{t.exchangeDesk.columns.local}</th>
              <th>{t.exchangeDesk.columns.phase}</th>
              <th>{t.exchangeDesk.columns.exchangeId}</th>
              {phases ? null : <th>{role === "SOLD" ? t.exchangeDesk.columns.executor : t.exchangeDesk.columns.driver}</th>}
              {phases ? null : <th>{t.exchangeDesk.columns.note}</th>}
              {canTake ? <th /> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((l) => (
              <tr key={l.orderId} data-order-id={l.orderId} data-phase={l.phase}>
                <td className="mono strong">№{l.orderId}</td>
                <td className="muted nowrap">{fmt.when(l.order.createdAt)}</td>
                <td className="truncate" title={route(l.order)}>
                  {route(l.order)}
                </td>
                <td className="num">{fmt.money(l.order.amount)}</td>
                <td>
                  <StateBadge state={l.order.state} />
                </td>
                <td>
                  <span className={`badge badge-${phaseTone(l.phase)}`} data-phase={l.phase}>
                    {t.exchangeDesk.phases[l.phase] ?? l.phase}
                  </span>
                  {l.remoteState !== null ? <div className="muted small">{stateTitleOfCode(l.remoteState, stateTitle)}</div> : null}
                </td>
                <td className="mono">{l.exchangeOrderId ?? t.common.none}</td>
                {phases ? null : (
                  <td className="small">
                    {role === "SOLD" ? (
                      l.executor ? (
                        <>
                          <span className="strong">{l.executor.callSign}</span> {l.executor.car}
                          {l.executor.registrationNumber ? <span className="plate">{l.executor.registrationNumber}</span> : null}
                          {l.executor.phone ? <div className="muted">{/^\d{11}$/.test(l.executor.phone) ? fmt.phone(l.executor.phone) : l.executor.phone}</div> : null}
                        </>
                      ) : (
                        t.common.none
                      )
                    ) : l.order.driver ? (
                      <span className="mono strong">{l.order.driver.callSign}</span>
                    ) : (
                      t.common.none
                    )}
                  </td>
                )}
                {phases ? null : (
                  <td className="small note-cell" title={l.note}>
                    {l.soldBy ? t.exchangeDesk.soldBy(l.soldBy === "SYSTEM" ? t.order.actor.SYSTEM : l.soldBy) : l.note || t.common.none}
                  </td>
                )}
                {canTake ? (
                  <td className="actions">
                    {l.phase === "OFFERED" && l.exchangeOrderId ? (
                      <button type="button" className="btn btn-small btn-primary" title={t.exchangeDesk.take} onClick={() => setTaking(l)}>
                        {t.exchangeDesk.takeShort}
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {!links.isLoading && rows.length === 0 ? <EmptyState title={empty} icon="exchange" /> : null}
        {links.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void links.fetchNextPage()} disabled={links.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
      {taking?.exchangeOrderId ? <TakeDialog link={taking} onClose={() => setTaking(null)} /> : null}
    </>
  );
}


function stateTitleOfCode(code: number, stateTitle: (s: string) => string): string {
  const s = stateOfCode(code);
  return s ? `${code} · ${stateTitle(s)}` : String(code);
}

function SentTable({ canRetry }: { canRetry: boolean }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<"" | "PENDING" | "DELIVERED" | "FAILED">("");
  const [channel, setChannel] = useState<"" | "exchange-call" | "exchange">("");
  const [open, setOpen] = useState<number | null>(null);
  const outbox = useInfiniteQuery(
    trpc.exchangeDesk.outbox.infiniteQueryOptions(
      { status: status || undefined, channel: channel || undefined, limit: 50 },
      { getNextPageParam: (p) => p.nextCursor ?? undefined, placeholderData: keepPreviousData, refetchInterval: 5_000 },
    ),
  );
  const rows = useMemo(() => outbox.data?.pages.flatMap((p) => p.items) ?? [], [outbox.data]);
  const retry = useMutation(
    trpc.exchangeDesk.retry.mutationOptions({
      onSuccess: (r) => {
        toast.success(t.exchangeDesk.retried(r.id));
        setTimeout(() => void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() }), 600);
      },
    }),
  );
  return (
    <>
      <div className="filters">
        <select aria-label={t.exchangeDesk.columns.channel} value={channel} onChange={(e) => setChannel(e.target.value as typeof channel)}>
          <option value="">{t.exchangeDesk.anyChannel}</option>
          {(["exchange-call", "exchange"] as const).map((c) => (
            <option key={c} value={c}>
              {t.exchangeDesk.channels[c]}
            </option>
          ))}
        </select>
        <select aria-label={t.exchangeDesk.columns.status} value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="">{t.exchangeDesk.anyStatus}</option>
          {(["PENDING", "DELIVERED", "FAILED"] as const).map((c) => (
            <option key={c} value={c}>
              {t.exchangeDesk.statuses[c]}
            </option>
          ))}
        </select>
      </div>
      {outbox.error ? (
        <div className="notice notice-error" role="alert">
          {errorInfo(outbox.error, t).message}
        </div>
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="sent-table">
          <thead>
            <tr>
              <th>№</th>
              <th>{t.exchangeDesk.columns.created}</th>
              <th>{t.exchangeDesk.columns.channel}</th>
              <th>{t.exchangeDesk.columns.topic}</th>
              <th>{t.exchangeDesk.columns.order}</th>
              <th>{t.exchangeDesk.columns.status}</th>
              <th className="num">{t.exchangeDesk.columns.attempts}</th>
              <th>{t.exchangeDesk.columns.lastError}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.id} data-message-id={m.id} data-topic={m.topic} data-status={m.status} data-order-id={m.orderId ?? ""} className="row-click" tabIndex={0} onClick={() => setOpen(m.id)} onKeyDown={(e) => e.key === "Enter" && setOpen(m.id)}>
                <td className="mono">{m.id}</td>
                <td className="muted nowrap">{fmt.when(m.createdAt)}</td>
                <td className="small">{t.exchangeDesk.channels[m.channel] ?? m.channel}</td>
                <td className="mono">{m.topic}</td>
                <td className="mono">{m.orderId ? `№${m.orderId}` : t.common.none}</td>
                <td>
                  <span className={`badge ${m.status === "DELIVERED" ? "badge-success" : m.status === "FAILED" ? "badge-danger" : "badge-moderation"}`} data-status={m.status}>
                    {t.exchangeDesk.statuses[m.status]}
                  </span>
                  {m.status === "PENDING" && m.attempts > 0 ? <div className="muted small">{fmt.time(m.nextAttemptAt)}</div> : null}
                </td>
                <td className="num">{m._count.attemptLog}</td>
                <td className="small error-cell" title={m.lastError ?? ""}>
                  {m.lastError ?? t.common.none}
                </td>
                <td className="actions" onClick={(e) => e.stopPropagation()}>
                  {canRetry && m.status !== "DELIVERED" ? (
                    <button type="button" className="btn btn-small" onClick={() => retry.mutate({ id: m.id })} disabled={retry.isPending}>
                      {t.exchangeDesk.retry}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!outbox.isLoading && rows.length === 0 ? <EmptyState title={t.exchangeDesk.emptySent} icon="exchange" /> : null}
        {outbox.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void outbox.fetchNextPage()} disabled={outbox.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
      {open !== null ? <MessageDialog id={open} canRetry={canRetry} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

function MessageDialog({ id, canRetry, onClose }: { id: number; canRetry: boolean; onClose: () => void }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const message = useQuery(trpc.exchangeDesk.message.queryOptions({ id }, { refetchInterval: 3_000 }));
  const retry = useMutation(
    trpc.exchangeDesk.retry.mutationOptions({
      onSuccess: (r) => {
        toast.success(t.exchangeDesk.retried(r.id));
        setTimeout(() => void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() }), 600);
      },
    }),
  );
  const m = message.data;
  return (
    <Modal
      title={t.exchangeDesk.message(id)}
      onClose={onClose}
      width={760}
      footer={
        <>
          {canRetry && m && m.status !== "DELIVERED" ? (
            <button type="button" className="btn" onClick={() => retry.mutate({ id })} disabled={retry.isPending}>
              {t.exchangeDesk.retry}
            </button>
          ) : null}
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t.common.close}
          </button>
        </>
      }
    >
      {message.error ? (
        <div className="notice notice-error" role="alert">
          {errorInfo(message.error, t).message}
        </div>
      ) : null}
      {m ? (
        <div data-testid="message-details" style={{ display: "flex", flexDirection: "column", gap: 10 }}>
          <dl className="facts">
            <dt>{t.exchangeDesk.columns.channel}</dt>
            <dd>{t.exchangeDesk.channels[m.channel] ?? m.channel}</dd>
            <dt>{t.exchangeDesk.columns.topic}</dt>
            <dd className="mono">{m.topic}</dd>
            <dt>{t.exchangeDesk.target}</dt>
            <dd className="mono small" style={{ wordBreak: "break-all" }}>
              {m.target}
            </dd>
            <dt>{t.exchangeDesk.deliveryId}</dt>
            <dd className="mono small">{m.deliveryId}</dd>
            <dt>{t.exchangeDesk.columns.status}</dt>
            <dd>
              <span className={`badge ${m.status === "DELIVERED" ? "badge-success" : m.status === "FAILED" ? "badge-danger" : "badge-moderation"}`}>{t.exchangeDesk.statuses[m.status]}</span>
              {m.deliveredAt ? <span className="muted"> · {fmt.dateTime(m.deliveredAt)}</span> : null}
              {m.status === "PENDING" ? <span className="muted"> · {t.exchangeDesk.columns.next}: {fmt.time(m.nextAttemptAt)}</span> : null}
            </dd>
          </dl>
          <h3>{t.exchangeDesk.deliveryAttempts}</h3>
          <div className="table-wrap" style={{ maxHeight: 220 }}>
            <table className="table" data-testid="attempts-table">
              <thead>
                <tr>
                  <th>{t.exchangeDesk.attemptColumns.at}</th>
                  <th>{t.exchangeDesk.attemptColumns.status}</th>
                  <th>{t.exchangeDesk.attemptColumns.result}</th>
                  <th className="num">{t.exchangeDesk.attemptColumns.duration}</th>
                </tr>
              </thead>
              <tbody>
                {m.attemptLog.map((a) => (
                  <tr key={a.id} className={a.error ? "row-refused" : ""}>
                    <td className="muted nowrap">{fmt.dateTime(a.at)}</td>
                    <td className="mono">{a.httpStatus !== null ? t.exchangeDesk.http(a.httpStatus) : t.common.none}</td>
                    <td className="small">
                      {a.error ? (
                        <span className="negative">{a.error === `HTTP ${a.httpStatus}` ? t.exchangeDesk.failedAttempt : a.error}</span>
                      ) : (
                        <span className="positive">{t.exchangeDesk.ok}</span>
                      )}
                    </td>
                    <td className="num muted">{t.exchangeDesk.ms(a.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {m.attemptLog.length === 0 ? <div className="pad muted">{t.exchangeDesk.noAttempts}</div> : null}
          </div>
          <h3>{t.exchangeDesk.payload}</h3>
          <pre className="json">{JSON.stringify(m.payload, null, 2)}</pre>
        </div>
      ) : (
        <div className="muted">{t.common.loading}</div>
      )}
    </Modal>
  );
}

function ReceivedTable() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const [open, setOpen] = useState<{ path: string; payload: unknown } | null>(null);
  const inbound = useInfiniteQuery(
    trpc.exchangeDesk.inbound.infiniteQueryOptions({ limit: 50 }, { getNextPageParam: (p) => p.nextCursor ?? undefined, refetchInterval: POLL_MS }),
  );
  const rows = useMemo(() => inbound.data?.pages.flatMap((p) => p.items) ?? [], [inbound.data]);
  return (
    <>
      {inbound.error ? (
        <div className="notice notice-error" role="alert">
          {errorInfo(inbound.error, t).message}
        </div>
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="received-table">
          <thead>
            <tr>
              <th>{t.exchangeDesk.columns.received}</th>
              <th>{t.exchangeDesk.columns.topic}</th>
              <th>{t.exchangeDesk.columns.exchangeId}</th>
              <th>{t.exchangeDesk.columns.order}</th>
              <th>{t.exchangeDesk.columns.reason}</th>
              <th>{t.exchangeDesk.deliveryId}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((n) => (
              <tr key={n.deliveryId} data-path={n.path} className="row-click" tabIndex={0} onClick={() => setOpen({ path: n.path, payload: n.payload })} onKeyDown={(e) => e.key === "Enter" && setOpen({ path: n.path, payload: n.payload })}>
                <td className="muted nowrap">{fmt.when(n.receivedAt)}</td>
                <td className="mono strong">{n.path}</td>
                <td className="mono">{n.summary.id || t.common.none}</td>
                <td className="mono">{n.summary.orderId || t.common.none}</td>
                <td className="small">{n.summary.reason || t.common.none}</td>
                <td className="mono small muted">{n.deliveryId}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!inbound.isLoading && rows.length === 0 ? <EmptyState title={t.exchangeDesk.emptyReceived} icon="exchange" /> : null}
        {inbound.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void inbound.fetchNextPage()} disabled={inbound.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
      {open ? (
        <Modal
          title={t.exchangeDesk.payloadOf(open.path)}
          onClose={() => setOpen(null)}
          width={700}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setOpen(null)}>
              {t.common.close}
            </button>
          }
        >
          <pre className="json">{JSON.stringify(open.payload, null, 2)}</pre>
        </Modal>
      ) : null}
    </>
  );
}

function BalanceTab({ summary }: { summary: Outputs["summary"] | undefined }) {
  const { t, fmt, locale } = useI18n();
  if (!summary) return <div className="muted pad">{t.common.loading}</div>;
  const money = (k: bigint | number | null | undefined) => formatKopecksExact(k, locale);
  const p = summary.participant;
  return (
    <div className="desk-balance">
      <div className="card">
        <h3>{t.exchangeDesk.balanceTitle}</h3>
        {p ? (
          <>
            <div className={`total-value${p.balance < 0n ? " negative" : ""}`}>{money(p.balance)}</div>
            <div className="muted small">
              {p.name}
              {p.commissionBp !== null ? ` · ${t.exchangeDesk.commission(`${(p.commissionBp / 100).toLocaleString(locale === "ru" ? "ru-RU" : "en-GB")} %`)}` : ""}
            </div>
          </>
        ) : (
          <p className="muted">{t.exchangeDesk.balanceRemote}</p>
        )}
        <dl className="facts" style={{ marginTop: 12 }}>
          <dt>{t.exchangeDesk.turnoverSold}</dt>
          <dd>{t.exchangeDesk.ordersSum(summary.turnover.sold.count, fmt.money(summary.turnover.sold.amount))}</dd>
          <dt>{t.exchangeDesk.turnoverBought}</dt>
          <dd>{t.exchangeDesk.ordersSum(summary.turnover.bought.count, fmt.money(summary.turnover.bought.amount))}</dd>
        </dl>
      </div>
      {p ? (
        <div>
          <h3>{t.exchangeDesk.ledger}</h3>
          <div className="table-wrap">
            <table className="table" data-testid="exchange-ledger">
              <tbody>
                {p.ledger.map((e) => (
                  <tr key={e.id}>
                    <td className="muted nowrap">{fmt.dateTime(e.createdAt)}</td>
                    <td>{t.exchangeDesk.kinds[e.kind] ?? e.kind}</td>
                    <td className={`num strong ${e.amount < 0n ? "negative" : "positive"}`}>
                      {e.amount > 0n ? "+" : ""}
                      {money(e.amount)}
                    </td>
                    <td className="num">{money(e.balanceAfter)}</td>
                    <td className="small">{e.reason || (e.exchangeOrderId ? `№${e.exchangeOrderId}` : t.common.none)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {p.ledger.length === 0 ? <EmptyState title={t.balances.ledgerEmpty} icon="audit" /> : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}

function SellDialog({ onClose }: { onClose: () => void }) {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [error, setError] = useState<string | null>(null);
  const orders = useQuery(trpc.exchangeDesk.sellable.queryOptions({ q: q || undefined, limit: 30 }, { placeholderData: keepPreviousData }));
  const sell = useMutation(
    trpc.exchangeDesk.sell.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.exchangeDesk.sold(r.orderId));
        void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() });
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  return (
    <Modal
      title={t.exchangeDesk.sellTitle}
      onClose={onClose}
      width={760}
      footer={
        <button type="button" className="btn" onClick={onClose}>
          {t.common.close}
        </button>
      }
    >
      <p className="muted" style={{ margin: 0 }}>
        {t.exchangeDesk.sellHint}
      </p>
      <label className="search" style={{ maxWidth: "none" }}>
        <Icon name="search" size={16} />
        <input type="search" value={search} placeholder={t.exchangeDesk.search} aria-label={t.exchangeDesk.search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
      <div className="table-wrap" style={{ maxHeight: 420 }}>
        <table className="table" data-testid="sellable-table">
          <tbody>
            {orders.data?.map((o) => (
              <tr key={o.id} data-order-id={o.id}>
                <td className="mono strong">№{o.id}</td>
                <td className="muted nowrap">{fmt.when(o.createdAt)}</td>
                <td>
                  {[o.street, o.house].filter(Boolean).join(", ")}
                  {o.dst ? <span className="muted"> → {o.dst}</span> : null}
                  {o.exchangeLink?.note ? <div className="muted small">{o.exchangeLink.note}</div> : null}
                </td>
                <td className="num">{fmt.money(o.amount)}</td>
                <td>
                  <StateBadge state={o.state} />
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="btn btn-small btn-primary"
                    disabled={sell.isPending}
                    onClick={() => {
                      setError(null);
                      sell.mutate({ orderId: o.id });
                    }}
                  >
                    {t.exchangeDesk.sellOne}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {orders.data?.length === 0 ? <EmptyState title={t.exchangeDesk.noSellable} icon="exchange" /> : null}
      </div>
    </Modal>
  );
}

function TakeDialog({ link, onClose }: { link: LinkRow; onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [driverId, setDriverId] = useState<number | "">("");
  const [arrival, setArrival] = useState("");
  const [error, setError] = useState<string | null>(null);
  const drivers = useQuery(trpc.reference.assignableDrivers.queryOptions({}));
  const take = useMutation(
    trpc.exchangeDesk.take.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.exchangeDesk.taken(r.orderId));
        void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setError(null);
    if (driverId === "" || !link.exchangeOrderId) return setError(t.order.driverRequired);
    take.mutate({ exchangeOrderId: link.exchangeOrderId, driverId, arrivalMinutes: arrival.trim() ? Number(arrival) : undefined });
  };
  return (
    <Modal
      title={t.exchangeDesk.takeTitle(link.exchangeOrderId ?? "")}
      onClose={onClose}
      width={520}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={submit} disabled={take.isPending}>
            {t.exchangeDesk.take}
          </button>
        </>
      }
    >
      <div className="muted">{route(link.order)}</div>
      <label className="field">
        <span>{t.order.assignDriver}</span>
        <select name="driverId" value={driverId} onChange={(e) => setDriverId(e.target.value ? Number(e.target.value) : "")}>
          <option value="">{t.order.chooseDriver}</option>
          {drivers.data?.map((d) => (
            <option key={d.id} value={d.id}>
              {d.callSign} · {d.lastName} {d.firstName} · {t.drivers.states[d.state]}
              {d.car ? ` · ${d.car.brand} ${d.car.model} ${d.car.regNumber}` : ""}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t.exchangeDesk.arrival}</span>
        <input name="arrival" inputMode="numeric" value={arrival} placeholder={t.exchangeDesk.arrivalHint} onChange={(e) => setArrival(e.target.value)} />
      </label>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
    </Modal>
  );
}
