"use client";
// The rest: the balance's recent entries (GET /ledger), the language,
// installing the app, and signing out (the key leaves the phone).
import { useEffect, useState } from "react";
import type { DriverProfile, LedgerEntry } from "./api";
import { clearQueue } from "./offline-queue";
import { forgetKey } from "./device";
import { useDriverI18n } from "./i18n";
import { Card } from "./parts";

type Call = <T>(method: "GET" | "POST", path: string, input?: Record<string, unknown>) => Promise<T>;

export function MoreScreen({ me, call }: { me: DriverProfile; call: Call }) {
  const { t, locale, setLocale, money, time } = useDriverI18n();
  const [ledger, setLedger] = useState<LedgerEntry[] | null>(null);

  useEffect(() => {
    call<{ entries: LedgerEntry[] }>("GET", "ledger", { limit: 10 })
      .then((r) => setLedger(r.entries))
      .catch(() => setLedger(null));
  }, [call]);

  const signOut = () => {
    if (!window.confirm(t.signOutConfirm)) return;
    forgetKey("signedOut");
    void clearQueue().finally(() => window.location.replace("/driver/activate"));
  };

  return (
    <>
      <Card title={`${t.balance}: ${money(me.balance)}`} testId="more-ledger">
        <h3 className="drv-h3">{t.ledger}</h3>
        {ledger && ledger.length ? (
          <ul className="drv-ledger">
            {ledger.map((e) => (
              <li key={e.id}>
                <span className="drv-muted">{time(e.at)}</span>
                <span className="drv-ledger-what">{e.comment || e.kind}</span>
                <span className={e.amount < 0 ? "drv-negative" : "drv-positive"}>{money(e.amount)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="drv-muted">{t.noLedger}</p>
        )}
      </Card>
      <Card title={t.language}>
        <div className="drv-segment" role="radiogroup" aria-label={t.language}>
          {(["ru", "en"] as const).map((l) => (
            <button key={l} type="button" role="radio" aria-checked={locale === l} lang={l} className={`drv-btn${locale === l ? " drv-btn-primary" : ""}`} onClick={() => setLocale(l)}>
              {l === "ru" ? "Русский" : "English"}
            </button>
          ))}
        </div>
      </Card>
      <Card title={t.install}>
        <p className="drv-muted">{t.installHint}</p>
      </Card>
      <button type="button" className="drv-btn drv-btn-block drv-btn-danger" onClick={signOut} data-testid="sign-out">
        {t.signOut}
      </button>
    </>
  );
}
