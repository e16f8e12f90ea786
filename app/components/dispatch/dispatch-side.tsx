"use client";
// Beside the map: the parking queues per region (who stands where, in
// order) and the orders in trouble (free too long, on the radio, advance
// orders nobody confirmed, paused by a dispatcher). Refreshed on live events.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { useDispatchStrings } from "./strings";

export function DispatchSide({ cityId, regions }: { cityId: number | undefined; regions: Array<{ id: number; name: string; nameEn: string }> }) {
  const { locale, stateTitle, fmt } = useI18n();
  const d = useDispatchStrings();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const queues = useQuery({ ...trpc.dispatch.queues.queryOptions({ cityId }), refetchInterval: 30_000 });
  const trouble = useQuery({ ...trpc.dispatch.trouble.queryOptions(), refetchInterval: 30_000 });
  useLiveEvents((event) => {
    if (event.type === "offer.changed" || event.type === "order.changed" || event.type === "driver.changed") {
      void queryClient.invalidateQueries({ queryKey: trpc.dispatch.queues.queryKey() });
      if (event.type !== "driver.changed") void queryClient.invalidateQueries({ queryKey: trpc.dispatch.trouble.queryKey() });
    }
  });
  const regionName = (id: number | null) => {
    const r = regions.find((x) => x.id === id);
    return r ? (locale === "en" ? r.nameEn : r.name) : "—";
  };
  return (
    <div className="map-side-body" data-testid="dispatch-side">
      <h3>{d.queues}</h3>
      {(queues.data ?? []).length === 0 ? (
        <div className="muted small">{d.noQueues}</div>
      ) : (
        <ul className="plain" data-testid="dispatch-queues">
          {(queues.data ?? []).map((q) => (
            <li key={q.regionId}>
              <span className="strong">{regionName(q.regionId)}</span>: <span className="mono">{q.drivers.map((x) => x.callSign).join(" → ")}</span>
            </li>
          ))}
        </ul>
      )}
      <h3>{d.trouble}</h3>
      {(trouble.data ?? []).length === 0 ? (
        <div className="muted small">{d.noTrouble}</div>
      ) : (
        <ul className="plain" data-testid="dispatch-trouble">
          {(trouble.data ?? []).map((o) => (
            <li key={o.id}>
              <span className="mono">#{o.id}</span> {stateTitle(o.state)} · {[o.street, o.house].filter(Boolean).join(", ")} · {fmt.ago(new Date(o.createdAt))}
              {o.paused ? ` · ${d.paused}` : ""} · {d.attemptsShort(o.attempts)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
