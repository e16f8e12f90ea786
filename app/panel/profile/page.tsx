// The participant's exchange profile as the exchange holds it, its servers,
// services, client keys (never the keys themselves) and panel certificates.
import type { Metadata } from "next";
import { db } from "@/server/db";
import { connectionStatus, panelProfile } from "@/server/panel/read-model";
import { panelLocale, panelSession } from "../session";
import { ConnectionBadge, Section } from "../ui";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await panelLocale()).t.nav.profile };
}

export default async function PanelProfilePage() {
  const session = await panelSession();
  if (!session) return null;
  const { t, fmt, locale, participant } = session;
  const [profile, connection] = await Promise.all([panelProfile(db(), participant.id), connectionStatus(db(), participant.id)]);
  if (!profile) return null;
  const other: "ru" | "en" = locale === "ru" ? "en" : "ru";
  const both = (value: { ru: string; en: string }) => [value[locale], value[other]].filter(Boolean).filter((v, i, all) => all.indexOf(v) === i).join(" / ") || "—";
  const p = t.profile;

  return (
    <div className="pn-page">
      <div className="pn-head">
        <div>
          <h1>{p.title}</h1>
          <div className="muted">{p.subtitle}</div>
        </div>
      </div>
      <div className="pn-columns">
        <div className="card">
          <dl className="facts pn-profile" data-testid="profile">
            <dt>{p.name}</dt>
            <dd className="strong">{profile.name}</dd>
            <dt>{p.id}</dt>
            <dd className="mono">{profile.id}</dd>
            <dt>{p.details}</dt>
            <dd>{profile.details || "—"}</dd>
            <dt>{p.email}</dt>
            <dd>{profile.email ? <a href={`mailto:${profile.email}`}>{profile.email}</a> : "—"}</dd>
            <dt>{p.phone}</dt>
            <dd>{profile.phone || "—"}</dd>
            <dt>{p.country}</dt>
            <dd>{both(profile.country)}</dd>
            <dt>{p.location}</dt>
            <dd>{both(profile.location)}</dd>
            <dt>{p.coordinates}</dt>
            <dd className="mono">
              {profile.location.lat.toFixed(5)}, {profile.location.lon.toFixed(5)}
            </dd>
            <dt>{p.currency}</dt>
            <dd className="mono">{profile.currency}</dd>
            <dt>{p.commission}</dt>
            <dd>
              {fmt.percent(profile.commissionBp)} <span className="muted small">({profile.commissionIsDefault ? t.overview.commissionDefault : t.overview.commissionOwn})</span>
            </dd>
            <dt>{p.since}</dt>
            <dd>{fmt.date(profile.createdAt)}</dd>
            <dt>{p.status}</dt>
            <dd>{profile.disabled ? <span className="badge badge-danger-soft">{p.suspended}</span> : <span className="badge badge-success">{p.active}</span>}</dd>
          </dl>
        </div>
        <div className="pn-stack">
          <Section title={p.servers} id="servers" actions={<ConnectionBadge state={connection.state} t={t} />}>
            {profile.servers.length === 0 ? (
              <div className="notice notice-warn">{p.noServers}</div>
            ) : (
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th>URL</th>
                      <th>{t.connection.addresses}</th>
                      <th>{t.connection.vendor}</th>
                      <th>{t.connection.lastCheck}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {connection.servers.map((s) => (
                      <tr key={s.id}>
                        <td className="mono">{s.url}</td>
                        <td className="mono small">{s.address || "—"}</td>
                        <td className="small">{s.vendor || "—"}</td>
                        <td>
                          <ConnectionBadge state={s.state} t={t} />
                          <div className="muted small">{s.lastCheckAt ? fmt.dateTime(s.lastCheckAt) : t.connection.never}</div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Section>
          <Section title={p.services} id="services">
            {profile.services.length === 0 ? (
              <div className="muted">{p.noServices}</div>
            ) : (
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th>{p.serviceId}</th>
                      <th>{p.serviceName}</th>
                      <th>{p.carClass}</th>
                      <th>{p.executes}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {profile.services.map((s) => (
                      <tr key={s.id}>
                        <td className="mono">{s.id}</td>
                        <td>
                          {s.name}
                          {s.description ? <div className="muted small">{s.description}</div> : null}
                        </td>
                        <td>{s.carClass}</td>
                        <td>{s.executes ? p.yes : p.no}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Section>
        </div>
      </div>

      <div className="pn-stack">
        <Section title={p.certificates} id="certificates">
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>{p.subject}</th>
                  <th>{p.serial}</th>
                  <th>{p.validTo}</th>
                  <th>{p.status}</th>
                </tr>
              </thead>
              <tbody>
                {profile.certificates.map((c) => (
                  <tr key={c.serial} className={c.status === "active" ? undefined : "row-disabled"}>
                    <td>
                      {c.subject.match(/CN=([^,]+)/)?.[1] ?? c.subject}
                      {c.serial === session.certificate.serial ? <span className="pill">{p.current}</span> : null}
                    </td>
                    <td className="mono small">{c.serial}</td>
                    <td>{fmt.date(c.notAfter)}</td>
                    <td>{p.certStatus[c.status]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
        <Section title={p.keys} id="keys">
          {profile.keys.length === 0 ? (
            <div className="muted">{p.noKeys}</div>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th>{p.keyPrefix}</th>
                    <th>{p.createdAt}</th>
                    <th>{p.revokedAt}</th>
                  </tr>
                </thead>
                <tbody>
                  {profile.keys.map((k) => (
                    <tr key={k.id} className={k.revokedAt ? "row-disabled" : undefined}>
                      <td className="mono">{k.prefix}…</td>
                      <td>{fmt.dateTime(k.createdAt)}</td>
                      <td>{k.revokedAt ? fmt.dateTime(k.revokedAt) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Section>
      </div>
    </div>
  );
}
