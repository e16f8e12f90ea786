// Tables and fact lists the panel's pages share (server components).
import Link from "next/link";
import type { ReactNode } from "react";
import type { ledgerPage, notificationsPage, ordersPage, OrderRole, PanelConnection } from "@/server/panel/read-model";
import type { PanelSession } from "./session";
import { ConnectionBadge, DeliveryBadge, Empty, KindBadge, Money, StateBadge } from "./ui";

type OrderRow = Awaited<ReturnType<typeof ordersPage>>["orders"][number];
type LedgerRow = Awaited<ReturnType<typeof ledgerPage>>["entries"][number];
type MessageRow = Awaited<ReturnType<typeof notificationsPage>>["messages"][number];

export function OrdersTable({ orders, role, session, compact = false }: { orders: OrderRow[]; role: OrderRole; session: PanelSession; compact?: boolean }) {
  const { t, fmt, locale } = session;
  if (orders.length === 0) {
    return (
      <div className="table-wrap">
        <Empty title={t.orders.empty} text={role === "sold" ? t.orders.emptySold : t.orders.emptyBought} />
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table pn-orders" data-role={role}>
        <thead>
          <tr>
            <th>{t.orders.number}</th>
            {compact ? null : <th>{t.orders.myNumber}</th>}
            <th>{t.orders.created}</th>
            <th>{t.orders.route}</th>
            <th>{role === "sold" ? t.orders.buyer : t.orders.seller}</th>
            <th className="num">{t.orders.price}</th>
            <th className="num">{t.orders.commission}</th>
            <th>{t.orders.state}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id} data-order={o.id}>
              <td>
                <Link className="pn-link mono" href={`/panel/orders/${o.id}`}>
                  {o.id}
                </Link>
              </td>
              {compact ? null : <td className="mono muted">{o.myOrderId || "—"}</td>}
              <td className="nowrap">{fmt.dateTime(o.createdAt)}</td>
              <td className="pn-route">
                <span>{o.from || "—"}</span>
                {o.to ? (
                  <>
                    <span className="arrow">→</span>
                    <span>{o.to}</span>
                  </>
                ) : null}
              </td>
              <td>{o.counterparty ?? <span className="muted">{t.orders.nobody}</span>}</td>
              <td className="num">
                <Money minor={o.fare} fmt={fmt} />
              </td>
              <td className="num">{o.commission ? <Money minor={-o.commission} fmt={fmt} signed /> : <span className="muted">—</span>}</td>
              <td>
                <StateBadge state={o.state} code={o.statusCode} locale={locale} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LedgerTable({ entries, session }: { entries: LedgerRow[]; session: PanelSession }) {
  const { t, fmt } = session;
  if (entries.length === 0) {
    return (
      <div className="table-wrap">
        <Empty title={t.balance.empty} text={t.balance.emptyText} icon="balances" />
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table pn-ledger">
        <thead>
          <tr>
            <th>{t.balance.date}</th>
            <th>{t.balance.operation}</th>
            <th>{t.balance.order}</th>
            <th>{t.balance.description}</th>
            <th className="num">{t.balance.amount}</th>
            <th className="num">{t.balance.after}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-kind={e.kind} className={e.kind === "COMMISSION" ? "pn-row-commission" : undefined}>
              <td className="nowrap">{fmt.dateTime(e.createdAt)}</td>
              <td>
                <KindBadge kind={e.kind} t={t} />
              </td>
              <td className="mono">
                {e.exchangeOrderId === null ? (
                  <span className="muted">—</span>
                ) : e.orderVisible ? (
                  <Link className="pn-link" href={`/panel/orders/${e.exchangeOrderId}`}>
                    {e.exchangeOrderId}
                  </Link>
                ) : (
                  e.exchangeOrderId
                )}
              </td>
              <td className="muted">{e.reason ? (t.reasons[e.reason] ?? e.reason) : "—"}</td>
              <td className="num">
                <Money minor={e.amount} fmt={fmt} signed />
              </td>
              <td className="num">
                <Money minor={e.balanceAfter} fmt={fmt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function NotificationsTable({ messages, session }: { messages: MessageRow[]; session: PanelSession }) {
  const { t, fmt } = session;
  if (messages.length === 0) {
    return (
      <div className="table-wrap">
        <Empty title={t.notifications.empty} text={t.notifications.emptyText} icon="exchange" />
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table pn-notifications">
        <thead>
          <tr>
            <th>{t.notifications.created}</th>
            <th>{t.notifications.topic}</th>
            <th>{t.notifications.order}</th>
            <th>{t.notifications.status}</th>
            <th>{t.notifications.result}</th>
          </tr>
        </thead>
        <tbody>
          {messages.map((m) => (
            <tr key={m.id} data-delivery={m.status}>
              <td className="nowrap">{fmt.dateTime(m.createdAt)}</td>
              <td>
                <div>{t.notifications.topics[m.topic] ?? m.topic}</div>
                <div className="mono muted small pn-target" title={m.target}>
                  POST {m.target}
                </div>
              </td>
              <td className="mono">
                {m.exchangeOrderId === null ? (
                  <span className="muted">—</span>
                ) : (
                  <Link className="pn-link" href={`/panel/orders/${m.exchangeOrderId}`}>
                    {m.exchangeOrderId}
                  </Link>
                )}
              </td>
              <td>
                <DeliveryBadge status={m.status} t={t} />
              </td>
              <td className="small pn-result">
                {m.deliveredAt ? (
                  <div>
                    {t.notifications.deliveredAt} {fmt.dateTime(m.deliveredAt)}
                  </div>
                ) : m.nextAttemptAt ? (
                  <div className="muted">
                    {t.notifications.nextAttempt} {fmt.dateTime(m.nextAttemptAt)}
                  </div>
                ) : null}
                {m.lastError && m.status !== "DELIVERED" ? (
                  <div className="pn-error" title={m.lastError}>
                    {m.lastError}
                  </div>
                ) : null}
                {m.attemptLog.length === 0 ? (
                  <div className="muted">{t.notifications.noAttempts}</div>
                ) : (
                  <details className="pn-attempts">
                    <summary>
                      {t.notifications.attempts}: {m.attempts}
                    </summary>
                    <ol>
                      {m.attemptLog.map((a) => (
                        <li key={a.id}>
                          <span className="nowrap">{fmt.dateTime(a.at)}</span>{" "}
                          <span className={`mono ${a.httpStatus && a.httpStatus < 300 && !a.error ? "pn-plus" : "pn-minus"}`}>
                            {a.httpStatus ? `${t.notifications.http} ${a.httpStatus}` : "—"}
                          </span>{" "}
                          <span className="muted">
                            {a.durationMs} {t.notifications.duration}
                          </span>
                          {a.error && a.error !== `HTTP ${a.httpStatus}` ? <div className="pn-error">{a.error}</div> : null}
                        </li>
                      ))}
                    </ol>
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ConnectionFacts({ connection, session, layout = "stack" }: { connection: PanelConnection; session: PanelSession; layout?: "stack" | "row" }) {
  const { t, fmt } = session;
  const when = (at: Date | null) => (at ? `${fmt.dateTime(at)} (${fmt.ago(at)})` : t.connection.never);
  const facts: Array<{ key: string; label: string; value: ReactNode }> = [];
  for (const s of connection.servers) {
    facts.push({ key: `url-${s.id}`, label: t.connection.server, value: <span className="mono">{s.url}</span> });
    facts.push({
      key: `check-${s.id}`,
      label: t.connection.lastCheck,
      value: s.lastCheckAt ? (
        <>
          {when(s.lastCheckAt)} · <span className={s.lastCheckOk ? "pn-plus" : "pn-minus"}>{s.lastCheckOk ? t.connection.checkOk : t.connection.checkFailed}</span>
        </>
      ) : (
        t.connection.never
      ),
    });
    if (s.vendor && layout === "stack") facts.push({ key: `vendor-${s.id}`, label: t.connection.vendor, value: s.vendor });
  }
  facts.push({ key: "call", label: t.connection.lastCall, value: connection.sessionOpen ? when(connection.lastCallAt) : t.connection.noSession });
  facts.push({ key: "delivered", label: t.connection.lastDelivery, value: when(connection.lastDeliveredAt) });
  facts.push({
    key: "queue",
    label: t.connection.queue,
    value: (
      <>
        {connection.pending}
        {connection.failing ? <span className="pn-minus"> · {t.connection.failing(connection.failing)}</span> : null}
      </>
    ),
  });
  return (
    <div className={`pn-connection pn-connection-${layout}`}>
      <div className="pn-connection-state">
        <ConnectionBadge state={connection.state} t={t} />
      </div>
      <dl className="pn-connection-facts">
        {facts.map((f) => (
          <div key={f.key}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
