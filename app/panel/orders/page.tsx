// Orders the participant sold (it was the seller) and bought (it executed
// them), with their states, prices and the participant's commission.
import Link from "next/link";
import type { Metadata } from "next";
import { db } from "@/server/db";
import { orderCounts, ordersPage, type OrderFilter, type OrderRole } from "@/server/panel/read-model";
import { panelLocale, panelSession } from "../session";
import { OrdersTable } from "../parts";
import { More, oneOf, positiveInt, query } from "../ui";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await panelLocale()).t.nav.orders };
}

export default async function PanelOrders({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await panelSession();
  if (!session) return null;
  const { t, participant } = session;
  const params = await searchParams;
  const role: OrderRole = oneOf(params.role, ["sold", "bought"] as const) ?? "sold";
  const filter: OrderFilter = oneOf(params.filter, ["all", "active", "done"] as const) ?? "all";
  const before = positiveInt(params.before);
  const [counts, page] = await Promise.all([orderCounts(db(), participant.id), ordersPage(db(), participant.id, { role, filter, before })]);

  return (
    <div className="pn-page">
      <div className="pn-head">
        <h1>{t.orders.title}</h1>
      </div>
      <div className="tabs" role="tablist">
        {(["sold", "bought"] as const).map((r) => (
          <Link key={r} role="tab" aria-selected={r === role} className={`tab${r === role ? " active" : ""}`} href={`/panel/orders${query({ role: r, filter })}`}>
            {r === "sold" ? t.orders.sold : t.orders.bought}
            <span className="tab-count">{counts[r].all}</span>
          </Link>
        ))}
      </div>
      <div className="filters">
        <div className="segmented" role="group">
          {(["all", "active", "done"] as const).map((f) => (
            <Link key={f} className={`pn-seg${f === filter ? " active" : ""}`} aria-current={f === filter ? "true" : undefined} href={`/panel/orders${query({ role, filter: f })}`}>
              {f === "all" ? t.orders.all : f === "active" ? `${t.orders.active} · ${counts[role].active}` : t.orders.done}
            </Link>
          ))}
        </div>
      </div>
      <OrdersTable orders={page.orders} role={role} session={session} />
      <More href={page.nextBefore ? `/panel/orders${query({ role, filter, before: page.nextBefore })}` : null} label={t.orders.more} />
    </div>
  );
}
