// The panel's overview: balance, commission, orders, the connection with
// the participant's server, the last 30 days' money, recent orders and
// notifications.
import Link from "next/link";
import { db } from "@/server/db";
import { connectionStatus, panelOverview, panelProfile } from "@/server/panel/read-model";
import { panelSession } from "./session";
import { ConnectionBadge, DeliveryBadge, Empty, Money, Section } from "./ui";
import { ConnectionFacts, OrdersTable } from "./parts";

export const dynamic = "force-dynamic";

export default async function PanelOverview() {
  const session = await panelSession();
  if (!session) return null;
  const { t, fmt, participant } = session;
  const [profile, overview, connection] = await Promise.all([
    panelProfile(db(), participant.id),
    panelOverview(db(), participant.id),
    connectionStatus(db(), participant.id),
  ]);
  if (!profile) return null;
  const totals = overview.totals30;
  const net30 = totals.SALE.amount + totals.PURCHASE.amount + totals.COMMISSION.amount;

  return (
    <div className="pn-page">
      <div className="pn-head">
        <div>
          <h1>{participant.name}</h1>
          {profile.details ? <div className="muted">{profile.details}</div> : null}
        </div>
        <ConnectionBadge state={connection.state} t={t} />
      </div>

      <div className="pn-stats">
        <div className="card pn-stat pn-stat-main">
          <div className="pn-stat-label">{t.overview.balance}</div>
          <div className="pn-stat-value" data-testid="balance">
            <Money minor={profile.balance} fmt={fmt} />
          </div>
          <Link href="/panel/balance" className="pn-stat-link">
            {t.overview.ledger} →
          </Link>
        </div>
        <div className="card pn-stat">
          <div className="pn-stat-label">{t.overview.commission}</div>
          <div className="pn-stat-value">{fmt.percent(profile.commissionBp)}</div>
          <div className="muted small">{profile.commissionIsDefault ? t.overview.commissionDefault : t.overview.commissionOwn}</div>
        </div>
        <div className="card pn-stat">
          <div className="pn-stat-label">{t.overview.sold}</div>
          <div className="pn-stat-value">{fmt.number(overview.counts.sold.all)}</div>
          <div className="muted small">{t.overview.activeOf(overview.counts.sold.active)}</div>
        </div>
        <div className="card pn-stat">
          <div className="pn-stat-label">{t.overview.bought}</div>
          <div className="pn-stat-value">{fmt.number(overview.counts.bought.all)}</div>
          <div className="muted small">{t.overview.activeOf(overview.counts.bought.active)}</div>
        </div>
      </div>

      <div className="pn-columns">
        <Section title={t.connection.title} id="connection">
          <div className="card">
            <ConnectionFacts connection={connection} session={session} />
          </div>
        </Section>
        <Section title={t.overview.last30} id="last30">
          <div className="card">
            <dl className="facts pn-facts-money">
              {(["SALE", "PURCHASE", "COMMISSION", "DEPOSIT", "ADJUSTMENT"] as const).map((kind) => (
                <div key={kind} className="pn-fact-row">
                  <dt>{t.kinds[kind]}</dt>
                  <dd>
                    <Money minor={totals[kind].amount} fmt={fmt} signed />
                  </dd>
                </div>
              ))}
              <div className="pn-fact-row pn-fact-total">
                <dt>{t.balance.net}</dt>
                <dd>
                  <Money minor={net30} fmt={fmt} signed strong />
                </dd>
              </div>
            </dl>
          </div>
        </Section>
      </div>

      <Section
        title={t.overview.recentSold}
        id="recent-sold"
        actions={
          <Link className="btn btn-small" href="/panel/orders?role=sold">
            {t.overview.allOrders}
          </Link>
        }
      >
        <OrdersTable orders={overview.recentSold} role="sold" session={session} compact />
      </Section>
      <Section
        title={t.overview.recentBought}
        id="recent-bought"
        actions={
          <Link className="btn btn-small" href="/panel/orders?role=bought">
            {t.overview.allOrders}
          </Link>
        }
      >
        <OrdersTable orders={overview.recentBought} role="bought" session={session} compact />
      </Section>

      <Section
        title={t.overview.recentNotifications}
        id="recent-notifications"
        actions={
          <Link className="btn btn-small" href="/panel/notifications">
            {t.overview.allNotifications}
          </Link>
        }
      >
        {overview.recentNotifications.length === 0 ? (
          <div className="table-wrap">
            <Empty title={t.notifications.empty} text={t.notifications.emptyText} icon="exchange" />
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>{t.notifications.created}</th>
                  <th>{t.notifications.topic}</th>
                  <th>{t.notifications.order}</th>
                  <th>{t.notifications.status}</th>
                  <th className="num">{t.notifications.attempts}</th>
                </tr>
              </thead>
              <tbody>
                {overview.recentNotifications.map((m) => (
                  <tr key={m.id}>
                    <td className="nowrap">{fmt.dateTime(m.createdAt)}</td>
                    <td>
                      {t.notifications.topics[m.topic] ?? m.topic} <span className="mono muted small">{m.topic}</span>
                    </td>
                    <td className="mono">{m.exchangeOrderId ?? "—"}</td>
                    <td>
                      <DeliveryBadge status={m.status} t={t} />
                    </td>
                    <td className="num">{m.attempts}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </div>
  );
}
