"use client";
// The client's card (issue 34): found by phone (typed, or opened from an
// order's card or a call), with the client's orders — those in progress
// first, each opening its order card beside the list —, bonuses, usual
// addresses and calls; "New order" and "Call" at the top.
import { useEffect, useRef, useState, type FormEvent } from "react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { EmptyState, ErrorNotice, PageHeader, StateBadge } from "../ui";
import { CallButton, CallLog, newOrderHref } from "../phone/phone";
import { OrderPanel } from "../board/order-panel";
import { clientCardHref } from "./href";

export function ClientCardPage() {
  const phone = (useSearchParams().get("phone") ?? "").trim();
  // A new phone is a new card: its typed text and open order start over.
  return <ClientCard key={phone} phone={phone} />;
}

function ClientCard({ phone }: { phone: string }) {
  const { t, fmt, locale } = useI18n();
  const trpc = useTRPC();
  const router = useRouter();
  const [typed, setTyped] = useState(phone);
  const [openOrder, setOpenOrder] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!phone) input.current?.focus();
  }, [phone]);
  const card = useQuery(trpc.clients.card.queryOptions({ phone }, { enabled: phone !== "", refetchInterval: 15_000 }));
  const data = card.data?.recognised ? card.data : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) router.replace(clientCardHref(typed.trim()));
  };

  return (
    <div className={`page-board${openOrder !== null ? " with-panel" : ""}`}>
      <div className="page client-card" style={{ flex: 1, overflow: "auto" }}>
        <PageHeader title={t.clients.title} sub={data ? fmt.phone(data.phone) : undefined}>
          {data ? (
            <>
              <CallButton phone={data.phone} who="client" />
              <Link className="btn btn-primary" href={newOrderHref(data.phone)} data-testid="client-new-order">
                {t.phone.newOrder}
              </Link>
            </>
          ) : null}
        </PageHeader>
        <form className="filters" onSubmit={submit} role="search">
          <label className="field">
            <span>{t.clients.searchLabel}</span>
            <input ref={input} type="tel" inputMode="tel" value={typed} onChange={(e) => setTyped(e.target.value)} aria-describedby="client-search-hint" />
          </label>
          <span id="client-search-hint" className="muted small">
            {t.clients.searchHint}
          </span>
          <button type="submit" className="btn">
            {t.clients.open}
          </button>
        </form>
        {card.error ? <ErrorNotice error={card.error} onRetry={() => card.refetch()} /> : null}
        {card.data && !card.data.recognised ? (
          <div className="notice notice-error" role="alert">
            {t.clients.notRecognised(card.data.phone)}
          </div>
        ) : null}
        {data ? (
          <>
            <section className="card" data-testid="client-summary">
              <div className="strong">{data.name || <span className="muted">{t.clients.unnamed}</span>}</div>
              {data.clientSince ? <div className="muted small">{t.clients.since(fmt.dateTime(data.clientSince))}</div> : null}
              <div>
                {t.clients.bonus}: <span className="strong">{data.bonus}</span>
              </div>
              <div data-testid="client-totals">{t.clients.totals(data.totals.orders, data.totals.completed, data.totals.cancelled)}</div>
              {data.blacklisted ? (
                <div className="notice notice-error" role="status">
                  {t.clients.blacklisted(data.blacklisted.reason)}
                </div>
              ) : null}
            </section>

            <section className="card">
              <h2>
                {t.clients.orders}
                {data.totals.active ? <span className="tab-count">{t.clients.activeOrders}: {data.totals.active}</span> : null}
              </h2>
              {data.orders.length === 0 ? (
                <EmptyState title={t.clients.newClient} />
              ) : (
                <div className="table-wrap">
                  <table className="table" data-testid="client-orders">
                    <thead>
                      <tr>
                        <th>{t.clients.colNumber}</th>
                        <th>{t.clients.colWhen}</th>
                        <th>{t.clients.colRoute}</th>
                        <th>{t.clients.colState}</th>
                        <th className="hide-with-panel">{t.clients.colDriver}</th>
                        <th className="num">{t.clients.colAmount}</th>
                        <th className="num hide-with-panel">{t.clients.colRating}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.orders.map((o) => (
                        <tr key={o.id} data-order-id={o.id} className={openOrder === o.id ? "selected" : undefined}>
                          <td>
                            <button type="button" className="link-btn mono" onClick={() => setOpenOrder(o.id)} aria-label={t.clients.openOrder(o.id)}>
                              {o.id}
                            </button>
                          </td>
                          <td>{fmt.when(o.preOrderTime ?? o.createdAt)}</td>
                          <td>
                            {o.from}
                            {o.to ? <span className="muted"> → {o.to}</span> : null}
                            <div className="muted small">{locale === "ru" ? o.service.name : o.service.nameEn}</div>
                          </td>
                          <td>
                            <StateBadge state={o.state} withCode />
                            {o.cancelReason ? <div className="muted small">{o.cancelReason}</div> : null}
                          </td>
                          <td className="mono hide-with-panel">{o.driverCallSign ?? "—"}</td>
                          <td className="num">{o.amount === null ? "—" : fmt.money(o.amount)}</td>
                          <td className="num hide-with-panel">{o.stars === null ? "—" : "★".repeat(o.stars)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>

            <div className="two-col">
              <section className="card">
                <h2>{t.clients.addresses}</h2>
                {data.addresses.length === 0 ? (
                  <div className="muted small">{t.phone.noAddresses}</div>
                ) : (
                  <ul className="call-list" data-testid="client-addresses">
                    {data.addresses.map((a) => (
                      <li key={`${a.street}|${a.house}|${a.role}`}>
                        {a.street} {a.house} <span className="muted small">({a.role === "pickup" ? t.clients.pickup : t.clients.destination})</span>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section className="card">
                <h2>{t.clients.bonusLog}</h2>
                {data.bonusLog.length === 0 ? (
                  <div className="muted small">{t.clients.noBonusLog}</div>
                ) : (
                  <table className="table">
                    <thead>
                      <tr>
                        <th>{t.clients.colWhen}</th>
                        <th>{t.clients.colReason}</th>
                        <th className="num">{t.clients.colChange}</th>
                        <th className="num">{t.clients.colAfter}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.bonusLog.map((e) => (
                        <tr key={e.id}>
                          <td>{fmt.when(e.createdAt)}</td>
                          <td>
                            {e.reason}
                            {e.orderId ? <span className="muted"> · {t.phone.order(e.orderId)}</span> : null}
                          </td>
                          <td className="num">{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
                          <td className="num">{e.bonusAfter}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            </div>

            <CallLog phone={data.phone} title={t.clients.calls} alwaysShown />
          </>
        ) : null}
      </div>
      {openOrder !== null ? <OrderPanel key={openOrder} id={openOrder} onClose={() => setOpenOrder(null)} /> : null}
    </div>
  );
}
