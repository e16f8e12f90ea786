"use client";
// Drivers for the dispatcher: state counts, search, the list with cars and
// balances; live state changes refresh it.
import { useMemo, useRef, useState } from "react";
import { keepPreviousData, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, PageHeader } from "../ui";
import { DispatchLivenessBadge, NotOfferedTab } from "./dispatch-liveness";

type DriverState = "FREE" | "BUSY" | "OFFLINE";

export function DriversTable() {
  const { t, fmt, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<DriverState | "" | "NOT_OFFERED">("");
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const input = { state: state === "NOT_OFFERED" ? undefined : state || undefined, notOffered: state === "NOT_OFFERED" || undefined, q: q || undefined, limit: 200 };
  const drivers = useInfiniteQuery(
    trpc.drivers.list.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor ?? undefined, placeholderData: keepPreviousData }),
  );
  const rows = useMemo(() => drivers.data?.pages.flatMap((p) => p.items) ?? [], [drivers.data]);
  const counts = drivers.data?.pages[0]?.counts;

  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveEvents((event) => {
    if (event.type !== "driver.changed" && event.type !== "resync") return;
    refresh.current ??= setTimeout(() => {
      refresh.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.drivers.list.pathKey() });
    }, 1000);
  });

  const states: Array<DriverState | ""> = ["", "FREE", "BUSY", "OFFLINE"];
  return (
    <div className="page">
      <PageHeader title={t.drivers.title} />
      <div className="tabs" role="tablist">
        {states.map((s) => (
          <button key={s || "all"} type="button" role="tab" aria-selected={state === s} className={`tab${state === s ? " active" : ""}`} onClick={() => setState(s)}>
            {s ? t.drivers.states[s] : t.drivers.allStates}
            {counts ? <span className="tab-count">{s ? counts[s] : counts.FREE + counts.BUSY + counts.OFFLINE}</span> : null}
          </button>
        ))}
        <NotOfferedTab selected={state === "NOT_OFFERED"} count={drivers.data?.pages[0]?.notOffered} onSelect={() => setState("NOT_OFFERED")} />
      </div>
      <div className="filters">
        <label className="search">
          <Icon name="search" size={16} />
          <input type="search" value={search} placeholder={t.drivers.search} aria-label={t.drivers.search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      {drivers.error ? (
        <ErrorNotice error={drivers.error} onRetry={() => drivers.refetch()} />
      ) : null}
      {/* Scrolls when the fleet is long: reachable by the keyboard (axe: scrollable-region-focusable). */}
      <div className="table-wrap" tabIndex={0} role="region" aria-label={t.drivers.title}>
        <table className="table">
          <thead>
            <tr>
              <th>{t.drivers.columns.callSign}</th>
              <th>{t.drivers.columns.name}</th>
              <th>{t.drivers.columns.state}</th>
              <th>{t.drivers.columns.car}</th>
              <th>{t.drivers.columns.region}</th>
              <th>{t.drivers.columns.phone}</th>
              <th className="num">{t.drivers.columns.balance}</th>
              <th>{t.drivers.columns.seen}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id} data-driver={d.callSign}>
                <td className="mono strong">{d.callSign}</td>
                <td>
                  {d.lastName} {d.firstName}
                </td>
                <td>
                  <span className={`badge badge-driver-${d.state.toLowerCase()}`}>{t.drivers.states[d.state]}</span>
                  <DispatchLivenessBadge dispatch={d.dispatch} />
                </td>
                <td>
                  {d.car ? (
                    <>
                      {d.car.brand} {d.car.model}, {d.car.color} <span className="plate">{d.car.regNumber}</span>
                    </>
                  ) : (
                    t.common.none
                  )}
                </td>
                <td>{d.region ? (locale === "en" ? d.region.nameEn : d.region.name) : t.common.none}</td>
                <td className="mono">{fmt.phone(d.phone)}</td>
                <td className={`num${d.balance < BigInt(0) ? " negative" : ""}`}>{fmt.money(d.balance)}</td>
                <td className="muted">{d.positionAt ? fmt.ago(d.positionAt) : t.drivers.never}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!drivers.isLoading && rows.length === 0 ? <EmptyState title={t.common.nothing} icon="drivers" /> : null}
        {drivers.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void drivers.fetchNextPage()} disabled={drivers.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
