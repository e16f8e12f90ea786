// One exchange order the participant sold or bought: route, money (its own
// commission and net), the driver, the state history, its own ledger entries
// and the notifications its server got about the order. Another
// participant's order is a 404 here.
import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { db } from "@/server/db";
import { orderDetail } from "@/server/panel/read-model";
import { panelLocale, panelSession } from "../../session";
import { LedgerTable, NotificationsTable } from "../../parts";
import { Money, Section, StateBadge, positiveInt, stateTitle } from "../../ui";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { t } = await panelLocale();
  const id = positiveInt((await params).id);
  return { title: id ? t.orders.detailTitle(id) : t.notFound.title };
}

export default async function PanelOrder({ params }: Params) {
  const session = await panelSession();
  if (!session) return null;
  const { t, fmt, locale, participant } = session;
  const id = positiveInt((await params).id);
  const order = id ? await orderDetail(db(), participant.id, id) : null;
  if (!order) notFound();
  const commission = order.ledger.filter((e) => e.kind === "COMMISSION").reduce((sum, e) => sum - e.amount, 0);
  const settled = order.ledger.reduce((sum, e) => sum + e.amount, 0);

  return (
    <div className="pn-page">
      <div className="pn-crumbs">
        <Link className="pn-link" href={`/panel/orders?role=${order.role}`}>
          ← {t.orders.back}
        </Link>
      </div>
      <div className="pn-head">
        <div>
          <h1>{t.orders.detailTitle(order.id)}</h1>
          <div className="pn-head-meta">
            <span className={`badge ${order.role === "sold" ? "badge-free" : "badge-preorders"}`}>{order.role === "sold" ? t.orders.roleSold : t.orders.roleBought}</span>
            <StateBadge state={order.state} code={order.statusCode} locale={locale} />
            {order.myOrderId ? (
              <span className="muted">
                {t.orders.myNumber}: <span className="mono">{order.myOrderId}</span>
              </span>
            ) : null}
          </div>
        </div>
      </div>

      <div className="pn-columns pn-columns-3">
        <div className="card">
          <h3>{t.orders.route}</h3>
          <div className="route">
            <div className="route-point">
              <span className="route-dot route-from" />
              <div>
                <div className="muted small">{t.orders.from}</div>
                <div>{order.from || "—"}</div>
              </div>
            </div>
            <div className="route-point">
              <span className="route-dot route-to" />
              <div>
                <div className="muted small">{t.orders.to}</div>
                <div>{order.to || "—"}</div>
              </div>
            </div>
          </div>
          <dl className="facts">
            <dt>{t.orders.created}</dt>
            <dd>{fmt.dateTime(order.createdAt)}</dd>
            <dt>{t.orders.carClass}</dt>
            <dd>{order.carClass}</dd>
            {order.client.name || order.client.phone ? (
              <>
                <dt>{t.orders.client}</dt>
                <dd>{[order.client.name, order.client.phone].filter(Boolean).join(", ")}</dd>
              </>
            ) : null}
            {order.note ? (
              <>
                <dt>{t.orders.note}</dt>
                <dd>{order.note}</dd>
              </>
            ) : null}
            <dt>{order.role === "sold" ? t.orders.buyer : t.orders.seller}</dt>
            <dd>{(order.role === "sold" ? order.executor : order.seller) ?? <span className="muted">{t.orders.nobody}</span>}</dd>
            {order.cancelReason ? (
              <>
                <dt>{t.orders.cancelReason}</dt>
                <dd>{order.cancelReason}</dd>
              </>
            ) : null}
          </dl>
        </div>

        <div className="card">
          <h3>{t.orders.money}</h3>
          <dl className="facts pn-facts-money">
            <div className="pn-fact-row">
              <dt>{t.orders.price}</dt>
              <dd>
                <Money minor={order.fare} fmt={fmt} />
              </dd>
            </div>
            <div className="pn-fact-row">
              <dt>{t.orders.yourCommission}</dt>
              <dd>{commission ? <Money minor={-commission} fmt={fmt} signed /> : <span className="muted">{t.orders.notSettled}</span>}</dd>
            </div>
            <div className="pn-fact-row pn-fact-total">
              <dt>{t.orders.settled}</dt>
              <dd>{order.ledger.length ? <Money minor={settled} fmt={fmt} signed strong /> : <span className="muted">{t.orders.notSettled}</span>}</dd>
            </div>
          </dl>
          {order.completion ? (
            <dl className="facts facts-tight">
              <dt>{t.orders.finalFare}</dt>
              <dd>{order.completion.fare || "—"}</dd>
              <dt>{t.orders.distance}</dt>
              <dd>{order.completion.distance || "—"}</dd>
            </dl>
          ) : null}
        </div>

        <div className="card">
          <h3>{t.orders.driver}</h3>
          {order.driver ? (
            <dl className="facts">
              <dt>{t.orders.callSign}</dt>
              <dd className="mono">{order.driver.callSign || "—"}</dd>
              <dt>{t.orders.car}</dt>
              <dd>
                {order.driver.car || "—"} {order.driver.plate ? <span className="plate">{order.driver.plate}</span> : null}
              </dd>
              {order.arrivalMinutes !== null ? (
                <>
                  <dt>{t.orders.arrival}</dt>
                  <dd>{t.orders.minutes(order.arrivalMinutes)}</dd>
                </>
              ) : null}
            </dl>
          ) : (
            <div className="muted">{t.orders.nobody}</div>
          )}
        </div>
      </div>

      <Section title={t.orders.history} id="history">
        <div className="card">
          <ol className="history">
            {[...order.history].reverse().map((h) => (
              <li key={h.id}>
                <span className="history-when">{fmt.dateTime(h.at)}</span>
                <span className="history-move">
                  {h.fromState ? (
                    <>
                      <span className="muted">{stateTitle(h.fromState, locale)}</span>
                      <span className="arrow">→</span>
                    </>
                  ) : null}
                  <StateBadge state={h.toState} code={h.toCode} locale={locale} />
                  {h.reason ? <span className="muted small"> · {t.reasons[h.reason] ?? h.reason}</span> : null}
                </span>
              </li>
            ))}
          </ol>
        </div>
      </Section>

      <Section title={t.orders.ledger} id="ledger">
        <LedgerTable entries={order.ledger.map((e) => ({ ...e, exchangeOrderId: order.id, orderVisible: true }))} session={session} />
      </Section>

      <Section title={t.orders.notifications} id="notifications">
        <NotificationsTable messages={order.notifications} session={session} />
      </Section>
    </div>
  );
}
