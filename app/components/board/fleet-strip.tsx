"use client";
// The board's fleet line (issue 34): drivers on shift, free, soon free, busy,
// on a break and away, then each parking region's queue, drivers in queue
// order; a chip or "Stands…" opens the queues' dialog (stand-queues.tsx). Live:
// a driver.changed event refetches (batched), and a slow poll catches queue
// changes that come without one (a driver joining a stand).
import { useEffect, useRef, useState } from "react";
import { StandQueuesDialog } from "./stand-queues";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";

export function FleetStrip() {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const fleet = useQuery({ ...trpc.shift.fleet.queryOptions({}), refetchInterval: 10_000 });
  const queues = useQuery({ ...trpc.dispatch.queues.queryOptions({}), refetchInterval: 5_000 });
  const lookups = useQuery(trpc.reference.lookups.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveEvents((event) => {
    if (event.type !== "driver.changed" && event.type !== "resync") return;
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.shift.fleet.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.dispatch.queues.queryKey() });
    }, 500);
  });
  useEffect(() => () => {
    if (pending.current) clearTimeout(pending.current);
  }, []);

  const [dialog, setDialog] = useState<{ driverId: number | null } | null>(null);
  const f = t.shift.fleet;
  const regionName = (id: number) => {
    const r = lookups.data?.regions.find((x) => x.id === id);
    return r ? (locale === "en" ? r.nameEn : r.name) : `#${id}`;
  };
  const counters: Array<["onShift" | "free" | "soonFree" | "busy" | "onBreak" | "away", number | undefined, string, string?]> = [
    ["onShift", fleet.data?.onShift, "fleet-shift"],
    ["free", fleet.data?.free, "fleet-free"],
    ["soonFree", fleet.data?.soonFree, "fleet-soon", fleet.data ? f.soonFreeHint(fleet.data.soonMinutes) : undefined],
    ["busy", fleet.data?.busy, "fleet-busy"],
    ["onBreak", fleet.data?.onBreak, "fleet-break"],
    ["away", fleet.data?.away, "fleet-away"],
  ];
  // Every stand (parking region), by city, then by name; a stand takes drivers of its own city only.
  const cities = lookups.data?.cities ?? [];
  const stands = (lookups.data?.regions ?? [])
    .map((r) => {
      const city = cities.find((c) => c.id === r.cityId);
      return { id: r.id, cityId: r.cityId, cityName: city ? (locale === "en" ? city.nameEn : city.name) : "" };
    })
    .sort((a, b) => a.cityId - b.cityId || regionName(a.id).localeCompare(regionName(b.id)));
  const lines = (queues.data ?? []).filter((q) => q.drivers.length > 0).sort((a, b) => regionName(a.regionId).localeCompare(regionName(b.regionId)));
  return (
    <section className="fleet" aria-label={f.title} data-testid="fleet-strip">
      {/* First: with the card open at 1366 px the line is cut on the right, and the stands stay one key away. */}
      <button type="button" className="btn btn-small fleet-manage" onClick={() => setDialog({ driverId: null })} data-testid="stands-open">
        {f.manage}
      </button>
      <dl className="fleet-counters">
        {counters.map(([key, value, cls, hint]) => (
          <div key={key} className={`fleet-counter ${cls}`} data-counter={key} title={hint ?? f[key]}>
            <dt>{f[key]}</dt>
            <dd className="num">{value ?? "…"}</dd>
          </div>
        ))}
      </dl>
      <div className="fleet-queues" data-testid="queues">
        {lines.length === 0 ? <span className="muted">{f.noQueues}</span> : null}
        <span role="list" aria-label={f.queues} className="fleet-queue-list">
        {lines.map((q) => (
          <span key={q.regionId} role="listitem" className="fleet-queue" data-region={q.regionId} aria-label={f.queueOf(regionName(q.regionId), q.drivers.length)}>
            <span className="fleet-region">{regionName(q.regionId)}</span>
            {q.drivers.map((d) => (
              <button type="button" key={d.driverId} className="fleet-driver mono" data-call-sign={d.callSign} title={`${d.position}`} onClick={() => setDialog({ driverId: d.driverId })}>
                {d.callSign}
              </button>
            ))}
          </span>
        ))}
        </span>
      </div>
      {dialog ? <StandQueuesDialog stands={stands} queues={queues.data ?? []} regionName={regionName} focusDriver={dialog.driverId} onClose={() => setDialog(null)} /> : null}
    </section>
  );
}
