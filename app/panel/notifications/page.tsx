// The exchange's notifications to the participant's server (POST
// <server>/on/...), with the delivery status and every attempt.
import Link from "next/link";
import type { Metadata } from "next";
import { db } from "@/server/db";
import { connectionStatus, notificationCounts, notificationsPage } from "@/server/panel/read-model";
import { panelLocale, panelSession } from "../session";
import { ConnectionFacts, NotificationsTable } from "../parts";
import { More, oneOf, positiveInt, query } from "../ui";

export const dynamic = "force-dynamic";

const STATUSES = ["PENDING", "DELIVERED", "FAILED"] as const;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await panelLocale()).t.nav.notifications };
}

export default async function PanelNotifications({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await panelSession();
  if (!session) return null;
  const { t, participant } = session;
  const params = await searchParams;
  const status = oneOf(params.status, STATUSES);
  const before = positiveInt(params.before);
  const [counts, page, connection] = await Promise.all([
    notificationCounts(db(), participant.id),
    notificationsPage(db(), participant.id, { status, before }),
    connectionStatus(db(), participant.id),
  ]);
  const total = counts.PENDING + counts.DELIVERED + counts.FAILED;

  return (
    <div className="pn-page">
      <div className="pn-head">
        <div>
          <h1>{t.notifications.title}</h1>
          <div className="muted">{t.notifications.subtitle}</div>
        </div>
      </div>
      <div className="card">
        <ConnectionFacts connection={connection} session={session} layout="row" />
      </div>
      <div>
        <div className="tabs" role="tablist">
          <Link role="tab" aria-selected={!status} className={`tab${status ? "" : " active"}`} href="/panel/notifications">
            {t.notifications.all}
            <span className="tab-count">{total}</span>
          </Link>
          {STATUSES.map((s) => (
            <Link key={s} role="tab" aria-selected={status === s} className={`tab${status === s ? " active" : ""}${s === "FAILED" && counts.FAILED ? " tab-alert" : ""}`} href={`/panel/notifications${query({ status: s })}`}>
              {t.notifications.statuses[s]}
              <span className="tab-count">{counts[s]}</span>
            </Link>
          ))}
        </div>
        <NotificationsTable messages={page.messages} session={session} />
        <More href={page.nextBefore ? `/panel/notifications${query({ status, before: page.nextBefore })}` : null} label={t.orders.more} />
      </div>
    </div>
  );
}
