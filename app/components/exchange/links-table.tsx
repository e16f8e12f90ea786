"use client";

// Orders we sold or bought on the exchange, with their states here and there.
import { useMemo, useState } from "react";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, StateBadge } from "../ui";
import { type LinkRow, POLL_MS, phaseTone, stateTitleOfCode } from "./common";
import { TakeDialog } from "./take-dialog";

export function route(o: LinkRow["order"]): string {
  const from = [o.street, o.house].filter(Boolean).join(", ");
  const to = o.dst || [o.dstStreet, o.dstHouse].filter(Boolean).join(", ");
  return to ? `${from} → ${to}` : from;
}

export function LinksTable({ role, phases, canTake = false }: { role: "SOLD" | "BOUGHT"; phases?: string[]; canTake?: boolean }) {
  const { t, fmt, stateTitle } = useI18n();
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [taking, setTaking] = useState<LinkRow | null>(null);
  const links = useInfiniteQuery(
    trpc.exchangeDesk.links.infiniteQueryOptions(
      { role, phases, q: q || undefined, limit: 50 },
      { getNextPageParam: (p) => p.nextCursor ?? undefined, placeholderData: keepPreviousData, refetchInterval: POLL_MS },
    ),
  );
  const rows = useMemo(() => links.data?.pages.flatMap((p) => p.items) ?? [], [links.data]);
  const empty = phases ? t.exchangeDesk.emptyOffers : role === "SOLD" ? t.exchangeDesk.emptySold : t.exchangeDesk.emptyBought;
  return (
    <>
      <div className="filters">
        <label className="search">
          <Icon name="search" size={16} />
          <input type="search" value={search} placeholder={t.exchangeDesk.search} aria-label={t.exchangeDesk.search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      {links.error ? (
        <ErrorNotice error={links.error} onRetry={() => links.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid={`links-${role.toLowerCase()}`}>
          <thead>
            <tr>
              <th>{t.exchangeDesk.columns.order}</th>
              <th>{t.exchangeDesk.columns.created}</th>
              <th>{t.exchangeDesk.columns.route}</th>
              <th className="num">{t.exchangeDesk.columns.amount}</th>
              <th>{t.exchangeDesk.columns.local}</th>
              <th>{t.exchangeDesk.columns.phase}</th>
              <th>{t.exchangeDesk.columns.exchangeId}</th>
              {phases ? null : <th>{role === "SOLD" ? t.exchangeDesk.columns.executor : t.exchangeDesk.columns.driver}</th>}
              {phases ? null : <th>{t.exchangeDesk.columns.note}</th>}
              {canTake ? <th /> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((l) => (
              <tr key={l.orderId} data-order-id={l.orderId} data-phase={l.phase}>
                <td className="mono strong">№{l.orderId}</td>
                <td className="muted nowrap">{fmt.when(l.order.createdAt)}</td>
                <td className="truncate" title={route(l.order)}>
                  {route(l.order)}
                </td>
                <td className="num">{fmt.money(l.order.amount)}</td>
                <td>
                  <StateBadge state={l.order.state} />
                </td>
                <td>
                  <span className={`badge badge-${phaseTone(l.phase)}`} data-phase={l.phase}>
                    {t.exchangeDesk.phases[l.phase] ?? l.phase}
                  </span>
                  {l.remoteState !== null ? <div className="muted small">{stateTitleOfCode(l.remoteState, stateTitle)}</div> : null}
                </td>
                <td className="mono">{l.exchangeOrderId ?? t.common.none}</td>
                {phases ? null : (
                  <td className="small">
                    {role === "SOLD" ? (
                      l.executor ? (
                        <>
                          <span className="strong">{l.executor.callSign}</span> {l.executor.car}
                          {l.executor.registrationNumber ? <span className="plate">{l.executor.registrationNumber}</span> : null}
                          {l.executor.phone ? <div className="muted">{/^\d{11}$/.test(l.executor.phone) ? fmt.phone(l.executor.phone) : l.executor.phone}</div> : null}
                        </>
                      ) : (
                        t.common.none
                      )
                    ) : l.order.driver ? (
                      <span className="mono strong">{l.order.driver.callSign}</span>
                    ) : (
                      t.common.none
                    )}
                  </td>
                )}
                {phases ? null : (
                  <td className="small note-cell" title={l.note}>
                    {l.soldBy ? t.exchangeDesk.soldBy(l.soldBy === "SYSTEM" ? t.order.actor.SYSTEM : l.soldBy) : l.note || t.common.none}
                  </td>
                )}
                {canTake ? (
                  <td className="actions">
                    {l.phase === "OFFERED" && l.exchangeOrderId ? (
                      <button type="button" className="btn btn-small btn-primary" title={t.exchangeDesk.take} onClick={() => setTaking(l)}>
                        {t.exchangeDesk.takeShort}
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {!links.isLoading && rows.length === 0 ? <EmptyState title={empty} icon="exchange" /> : null}
        {links.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void links.fetchNextPage()} disabled={links.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
      {taking?.exchangeOrderId ? <TakeDialog link={taking} onClose={() => setTaking(null)} /> : null}
    </>
  );
}
