"use client";

// Our balance on the exchange: turnover and the ledger.
import { formatKopecksExact } from "@/shared/money";
import { useI18n } from "../i18n";
import { EmptyState } from "../ui";
import type { Outputs } from "./common";

export function BalanceTab({ summary }: { summary: Outputs["summary"] | undefined }) {
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
