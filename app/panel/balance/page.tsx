// The participant's exchange balance and its ledger: deposits, sales,
// purchases and the exchange's commission, each with the balance after it.
import Link from "next/link";
import type { Metadata } from "next";
import { db } from "@/server/db";
import { LEDGER_KINDS, ledgerPage, ledgerTotals, panelProfile } from "@/server/panel/read-model";
import { panelLocale, panelSession } from "../session";
import { LedgerTable } from "../parts";
import { Money, More, oneOf, positiveInt, query } from "../ui";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await panelLocale()).t.nav.balance };
}

export default async function PanelBalance({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await panelSession();
  if (!session) return null;
  const { t, fmt, participant } = session;
  const params = await searchParams;
  const kind = oneOf(params.kind, LEDGER_KINDS);
  const before = positiveInt(params.before);
  const [profile, totals, page] = await Promise.all([
    panelProfile(db(), participant.id),
    ledgerTotals(db(), participant.id),
    ledgerPage(db(), participant.id, { kind, before }),
  ]);
  if (!profile) return null;
  const net = totals.SALE.amount + totals.PURCHASE.amount + totals.COMMISSION.amount;

  return (
    <div className="pn-page">
      <div className="pn-head">
        <h1>{t.balance.title}</h1>
      </div>
      <div className="pn-stats">
        <div className="card pn-stat pn-stat-main">
          <div className="pn-stat-label">{t.balance.current}</div>
          <div className="pn-stat-value" data-testid="balance">
            <Money minor={profile.balance} fmt={fmt} />
          </div>
          <div className="muted small">{t.balance.positive}</div>
        </div>
        <div className="card pn-stat pn-stat-wide">
          <div className="pn-stat-label">{t.balance.totals}</div>
          <dl className="pn-totals">
            {LEDGER_KINDS.map((k) => (
              <div key={k}>
                <dt>{t.kinds[k]}</dt>
                <dd>
                  <Money minor={totals[k].amount} fmt={fmt} signed />
                </dd>
              </div>
            ))}
            <div className="pn-totals-net">
              <dt>{t.balance.net}</dt>
              <dd>
                <Money minor={net} fmt={fmt} signed strong />
              </dd>
            </div>
          </dl>
        </div>
        <div className="card pn-stat">
          <div className="pn-stat-label">{t.balance.commissionPaid}</div>
          <div className="pn-stat-value">
            <Money minor={-totals.COMMISSION.amount} fmt={fmt} />
          </div>
          <div className="muted small">{fmt.percent(profile.commissionBp)}</div>
        </div>
      </div>
      <div className="filters">
        <div className="chips" role="group" aria-label={t.balance.operation}>
          <Link className={`chip${kind ? "" : " on"}`} href="/panel/balance">
            {t.balance.all}
          </Link>
          {LEDGER_KINDS.map((k) => (
            <Link key={k} className={`chip${kind === k ? " on" : ""}`} href={`/panel/balance${query({ kind: k })}`}>
              {t.kinds[k]} <span className="muted small">{totals[k].count}</span>
            </Link>
          ))}
        </div>
      </div>
      <LedgerTable entries={page.entries} session={session} />
      <More href={page.nextBefore ? `/panel/balance${query({ kind, before: page.nextBefore })}` : null} label={t.orders.more} />
    </div>
  );
}
