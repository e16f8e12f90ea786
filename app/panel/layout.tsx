// The participants' control panel's frame: the exchange's mark, the
// participant and the certificate that opened the panel, the language
// switch, and the sections. Only a request the custom server verified
// (a participant's certificate from our root; server/http/tls.ts) gets here
// with an identity; anything else sees the refusal and nothing more.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { panelLocale, panelSession } from "./session";
import { PanelLocaleSwitch, PanelNav } from "./nav";
import { Refused } from "./ui";
import "./panel.css";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await panelLocale();
  return { title: { default: t.title, template: `%s · ${t.title}` }, robots: { index: false, follow: false } };
}

export default async function PanelLayout({ children }: { children: ReactNode }) {
  const session = await panelSession();
  const { t, locale } = session ?? (await panelLocale());
  return (
    <div className="pn">
      <header className="pn-top">
        <div className="pn-top-inner">
          <div className="pn-brand">
            <span className="brand-mark">T</span>
            <span>
              <span className="pn-brand-name">{t.exchange}</span>
              <span className="pn-brand-sub">{t.title}</span>
            </span>
          </div>
          <div className="pn-top-right">
            {session ? (
              <div className="pn-who">
                <div className="pn-who-name" data-testid="participant-name">
                  {session.participant.name}
                </div>
                <div className="pn-who-cert" title={session.certificate.subject}>
                  {t.certificate}: {session.certificate.subject.match(/CN=([^,]+)/)?.[1] ?? session.certificate.subject} · {t.validUntil}{" "}
                  {session.fmt.date(session.certificate.notAfter)}
                </div>
              </div>
            ) : null}
            <PanelLocaleSwitch locale={locale} label={t.language} />
          </div>
        </div>
        {session ? (
          <div className="pn-top-inner pn-nav-row">
            <PanelNav
              label={t.title}
              items={[
                { href: "/panel", label: t.nav.overview },
                { href: "/panel/orders", label: t.nav.orders },
                { href: "/panel/balance", label: t.nav.balance },
                { href: "/panel/notifications", label: t.nav.notifications },
                { href: "/panel/profile", label: t.nav.profile },
              ]}
            />
          </div>
        ) : null}
      </header>
      <main className="pn-main">
        {session ? (
          <>
            {session.participant.disabled ? (
              <div className="notice notice-warn pn-notice" role="status">
                {t.disabled}
              </div>
            ) : null}
            {children}
          </>
        ) : (
          <Refused t={t} />
        )}
      </main>
      {session ? (
        <footer className="pn-foot">
          {t.exchange} · {session.timeZone}
        </footer>
      ) : null}
    </div>
  );
}
