"use client";
// The board's fleet line (issue 34): drivers on shift, free, busy and away,
// then each parking region's queue, drivers in the order they joined. Live:
// a driver.changed event refetches (batched), and a slow poll catches queue
// changes that come without one (a driver joining a stand).
import { useEffect, useRef } from "react";
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

  const f = t.shift.fleet;
  const regionName = (id: number) => {
    const r = lookups.data?.regions.find((x) => x.id === id);
    return r ? (locale === "en" ? r.nameEn : r.name) : `#${id}`;
  };
  const counters: Array<[keyof typeof f, number | undefined, string]> = [
    ["onShift", fleet.data?.onShift, "fleet-shift"],
    ["free", fleet.data?.free, "fleet-free"],
    ["busy", fleet.data?.busy, "fleet-busy"],
    ["away", fleet.data?.away, "fleet-away"],
  ];
  const lines = (queues.data ?? []).filter((q) => q.drivers.length > 0).sort((a, b) => regionName(a.regionId).localeCompare(regionName(b.regionId)));
  return (
    <section className="fleet" aria-label={f.title} data-testid="fleet-strip">
      <dl className="fleet-counters">
        {counters.map(([key, value, cls]) => (
          <div key={key} className={`fleet-counter ${cls}`} data-counter={key}>
            <dt>{f[key] as string}</dt>
            <dd className="num">{value ?? "…"}</dd>
          </div>
        ))}
      </dl>
      <div className="fleet-queues" data-testid="queues">
        <span className="fleet-label" aria-hidden="true">{f.queues}:</span>
        {lines.length === 0 ? <span className="muted">{f.noQueues}</span> : null}
        <span role="list" aria-label={f.queues} className="fleet-queue-list">
        {lines.map((q) => (
          <span key={q.regionId} role="listitem" className="fleet-queue" data-region={q.regionId} aria-label={f.queueOf(regionName(q.regionId), q.drivers.length)}>
            <span className="fleet-region">{regionName(q.regionId)}</span>
            {q.drivers.map((d) => (
              <span key={d.driverId} className="fleet-driver mono" data-call-sign={d.callSign} title={`${d.position}`}>
                {d.callSign}
              </span>
            ))}
          </span>
        ))}
        </span>
      </div>
    </section>
  );
}
