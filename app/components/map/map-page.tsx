"use client";
// The dispatcher's live map: every driver coloured by state (free, busy, off
// line), moving as their apps report positions (live.events driver.changed),
// regions with free cars and waiting orders, a driver's card on click, and
// an order's route. Works without a tile server: the base map is drawn from
// our own streets.
import { DispatchSide } from "../dispatch/dispatch-side";
import dynamic from "next/dynamic";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useTRPC } from "../trpc";
import { DriverRatingFacts } from "../drivers/driver-rating";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, PageHeader, PhoneLink, StateBadge, isTyping } from "../ui";
import { errorInfo } from "../errors";
import type { CanvasDriver, CanvasRegion, CanvasRoute, MapCanvasProps } from "./map-canvas";

const MapCanvas = dynamic<MapCanvasProps>(() => import("./map-canvas").then((m) => m.MapCanvas), {
  ssr: false,
  loading: () => <div className="map-loading">…</div>,
});

type Outputs = inferRouterOutputs<AppRouter>;
type Overview = Outputs["map"]["overview"];
type DriverState = "FREE" | "BUSY" | "OFFLINE";
const STATES: DriverState[] = ["FREE", "BUSY", "OFFLINE"];

interface LivePatch {
  id: number;
  callSign: string;
  state: DriverState;
  lat: number | null;
  lon: number | null;
  bearing: number;
  regionId: number | null;
  at: number;
}

function isDriverState(s: string): s is DriverState {
  return s === "FREE" || s === "BUSY" || s === "OFFLINE";
}

function inBounds(b: Overview["bounds"], lat: number, lon: number): boolean {
  if (!b) return true;
  const m = 0.05;
  return lat >= b.minLat - m && lat <= b.maxLat + m && lon >= b.minLon - m && lon <= b.maxLon + m;
}

export function MapPage() {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [cityId, setCityId] = useState<number | undefined>(undefined);
  const [visible, setVisible] = useState<Record<DriverState | "waiting", boolean>>({ FREE: true, BUSY: true, OFFLINE: true, waiting: true });
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [focus, setFocus] = useState<{ lat: number; lon: number; seq: number } | null>(null);
  const [routeInput, setRouteInput] = useState("");
  const [routeOrderId, setRouteOrderId] = useState<number | null>(null);
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim().toLowerCase(), 150);

  const overview = useQuery(trpc.map.overview.queryOptions({ cityId }, { placeholderData: keepPreviousData, staleTime: 60_000 }));
  const city = overview.data?.city;
  const counts = useQuery(trpc.map.counts.queryOptions({ cityId: city?.id ?? 0 }, { enabled: city !== undefined, staleTime: 5_000, refetchInterval: 60_000 }));
  const tileUrl = overview.data?.tileUrl ?? "";
  const basemap = useQuery(trpc.map.basemap.queryOptions({ cityId: city?.id ?? 0 }, { enabled: city !== undefined && !tileUrl, staleTime: Infinity }));
  const card = useQuery(trpc.map.driver.queryOptions({ driverId: selectedId ?? 0 }, { enabled: selectedId !== null }));
  const route = useQuery(trpc.map.route.queryOptions({ orderId: routeOrderId ?? 0 }, { enabled: routeOrderId !== null, retry: false }));

  // ------------------------------------------------------------ live
  const [live, setLive] = useState<ReadonlyMap<number, LivePatch>>(new Map());
  const buffer = useRef(new Map<number, LivePatch>());
  const flushTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const countsTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const overviewTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cardTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const selectedRef = useRef(selectedId);
  useEffect(() => {
    selectedRef.current = selectedId;
  }, [selectedId]);

  const later = (ref: { current: ReturnType<typeof setTimeout> | null }, ms: number, run: () => void) => {
    ref.current ??= setTimeout(() => {
      ref.current = null;
      run();
    }, ms);
  };
  useEffect(
    () => () => {
      for (const r of [flushTimer, countsTimer, overviewTimer, cardTimer]) if (r.current) clearTimeout(r.current);
    },
    [],
  );

  useLiveEvents((event) => {
    if (event.type === "resync") {
      void queryClient.invalidateQueries({ queryKey: trpc.map.pathKey() });
      return;
    }
    if (event.type === "driver.changed") {
      if (!isDriverState(event.state)) return;
      buffer.current.set(event.driverId, {
        id: event.driverId,
        callSign: event.callSign,
        state: event.state,
        lat: event.lat,
        lon: event.lon,
        bearing: event.bearing,
        regionId: event.regionId,
        at: Date.now(),
      });
      later(flushTimer, 120, () => {
        const batch = buffer.current;
        buffer.current = new Map();
        setLive((prev) => {
          const next = new Map(prev);
          for (const [id, patch] of batch) next.set(id, patch);
          return next;
        });
      });
      later(countsTimer, 1500, () => void queryClient.invalidateQueries({ queryKey: trpc.map.counts.pathKey() }));
      if (event.driverId === selectedRef.current) later(cardTimer, 800, () => void queryClient.invalidateQueries({ queryKey: trpc.map.driver.pathKey() }));
      return;
    }
    if (event.type === "order.created" || event.type === "order.changed") {
      // Orders change drivers' states (BUSY while an order holds them) and the waiting ones.
      later(countsTimer, 1500, () => void queryClient.invalidateQueries({ queryKey: trpc.map.counts.pathKey() }));
      later(overviewTimer, 1200, () => void queryClient.invalidateQueries({ queryKey: trpc.map.overview.pathKey() }));
      if (selectedRef.current !== null) {
        later(cardTimer, 700, () => void queryClient.invalidateQueries({ queryKey: trpc.map.driver.pathKey() }));
      }
      if (routeOrderId !== null && event.orderId === routeOrderId) void queryClient.invalidateQueries({ queryKey: trpc.map.route.pathKey() });
    }
  });

  // A fresh overview already holds what earlier events said.
  const fetchedAt = overview.dataUpdatedAt;
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- drops live positions older than the overview just fetched (server data arriving)
    setLive((prev) => {
      const next = new Map([...prev].filter(([, p]) => p.at > fetchedAt));
      return next.size === prev.size ? prev : next;
    });
  }, [fetchedAt]);

  // ------------------------------------------------------------ what the map shows
  const drivers = useMemo(() => {
    const base = overview.data?.drivers ?? [];
    const known = new Set(base.map((d) => d.id));
    const out: Array<CanvasDriver & { name: string; regionId: number | null }> = [];
    for (const d of base) {
      const patch = live.get(d.id);
      const lat = patch?.lat ?? d.lat;
      const lon = patch?.lon ?? d.lon;
      if (lat === null || lon === null) continue;
      const state = patch?.state ?? d.state;
      const name = [d.lastName, d.firstName].filter(Boolean).join(" ");
      out.push({ id: d.id, callSign: d.callSign, state, lat, lon, bearing: patch?.bearing ?? d.bearing, regionId: patch?.regionId ?? d.regionId, name, title: `${d.callSign} · ${name} · ${t.drivers.states[state]}` });
    }
    // Drivers that appeared since (a first position report in this city).
    for (const p of live.values()) {
      if (known.has(p.id) || p.lat === null || p.lon === null || !inBounds(overview.data?.bounds ?? null, p.lat, p.lon)) continue;
      out.push({ id: p.id, callSign: p.callSign, state: p.state, lat: p.lat, lon: p.lon, bearing: p.bearing, regionId: p.regionId, name: "", title: `${p.callSign} · ${t.drivers.states[p.state]}` });
    }
    return out;
  }, [overview.data, live, t]);

  const shownDrivers = useMemo(() => drivers.filter((d) => visible[d.state] || d.id === selectedId), [drivers, visible, selectedId]);

  const byState = useMemo(() => {
    const c = { FREE: 0, BUSY: 0, OFFLINE: 0 };
    for (const d of drivers) c[d.state] += 1;
    return c;
  }, [drivers]);

  const regions = useMemo<CanvasRegion[]>(() => {
    const list = overview.data?.regions ?? [];
    const c = counts.data?.cityId === city?.id ? counts.data : overview.data?.counts;
    return list.map((r) => {
      const rc = c?.regions.find((x) => x.regionId === r.id);
      const name = locale === "en" ? r.nameEn : r.name;
      const free = rc?.free ?? 0;
      const waiting = rc?.waiting ?? 0;
      return { id: r.id, name, polygon: r.polygon, free, waiting, title: t.map.regionLabel(name, free, waiting) };
    });
  }, [overview.data, counts.data, city?.id, locale, t]);

  const waitingTotal = (counts.data?.cityId === city?.id ? counts.data?.totals.waiting : undefined) ?? overview.data?.counts.totals.waiting ?? 0;
  const unplaced = (counts.data?.cityId === city?.id ? counts.data?.totals.unplaced : undefined) ?? overview.data?.counts.totals.unplaced ?? 0;

  const waiting = useMemo(
    () =>
      visible.waiting
        ? (overview.data?.waiting ?? []).flatMap((o) =>
            o.lat !== null && o.lon !== null ? [{ id: o.id, lat: o.lat, lon: o.lon, title: t.map.waitingOrder(o.id, [o.street, o.house].filter(Boolean).join(", ")) }] : [],
          )
        : [],
    [overview.data, visible.waiting, t],
  );

  const canvasRoute = useMemo<CanvasRoute | null>(() => {
    if (routeOrderId === null || !route.data) return null;
    return {
      orderId: route.data.id,
      points: route.data.points.map((p, i) => ({ lat: p.lat, lon: p.lon, title: [p.street, p.house].filter(Boolean).join(", ") || t.map.routePoint(i + 1) })),
      ...(route.data.path ? { path: route.data.path.points } : {}),
      ...(route.data.approach ? { approach: route.data.approach.points } : {}),
    };
  }, [route.data, routeOrderId, t]);

  const select = useCallback(
    (id: number) => {
      setSelectedId(id);
      const d = drivers.find((x) => x.id === id);
      if (d) setFocus((f) => ({ lat: d.lat, lon: d.lon, seq: (f?.seq ?? 0) + 1 }));
    },
    [drivers],
  );

  // Esc closes the card (outside fields).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !isTyping(e.target)) setSelectedId(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const listed = useMemo(
    () =>
      drivers
        .filter((d) => !q || d.callSign.toLowerCase().startsWith(q) || d.name.toLowerCase().includes(q))
        .sort((a, b) => STATES.indexOf(a.state) - STATES.indexOf(b.state) || a.callSign.localeCompare(b.callSign, "ru", { numeric: true })),
    [drivers, q],
  );

  const center: [number, number] = city ? [city.lat, city.lon] : [55.75, 37.62];
  const showRoute = (id: number) => {
    setRouteOrderId(id);
    setRouteInput(String(id));
  };

  return (
    <div className="page-map" data-testid="map-page">
      <div className="map-main">
        <PageHeader title={t.map.title} sub={<span className="map-hint">{t.map.hints}</span>}>
          <form
            className="route-form"
            onSubmit={(e) => {
              e.preventDefault();
              const id = Number(routeInput.replace(/\D/g, ""));
              if (id > 0) setRouteOrderId(id);
            }}
          >
            {routeOrderId !== null ? (
              <span className="route-chip" data-testid="route-chip">
                {t.map.routeOf(routeOrderId)}
                {route.data?.path ? (
                  <span className="muted" data-testid="route-roads">
                    {" · "}
                    {t.map.routeAlongRoads((route.data.path.metres / 1000).toFixed(1), Math.max(1, Math.round(route.data.path.seconds / 60)))}
                  </span>
                ) : null}
                {route.data?.approach && route.data.driver ? (
                  <span className="muted" data-testid="route-approach">
                    {" · "}
                    {t.map.carArrives(route.data.driver.callSign, Math.max(1, Math.round(route.data.approach.seconds / 60)))}
                  </span>
                ) : null}
                <button type="button" aria-label={t.map.hideRoute} title={t.map.hideRoute} onClick={() => setRouteOrderId(null)}>
                  ×
                </button>
              </span>
            ) : null}
            <input name="routeOrder" inputMode="numeric" placeholder={t.map.routePlaceholder} aria-label={t.map.route} value={routeInput} onChange={(e) => setRouteInput(e.target.value)} />
            <button type="submit" className="btn">
              <Icon name="flag" size={16} />
              {t.map.showRoute}
            </button>
          </form>
          {overview.data && overview.data.cities.length > 1 ? (
            <label className="map-city">
              <span className="muted">{t.map.city}</span>
              <select aria-label={t.map.city} value={city?.id ?? ""} onChange={(e) => setCityId(Number(e.target.value))}>
                {overview.data.cities.map((c) => (
                  <option key={c.id} value={c.id}>
                    {locale === "en" ? c.nameEn : c.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </PageHeader>
        <div className="map-toolbar">
          <div className="legend" role="group" aria-label={t.drivers.columns.state}>
            {STATES.map((s) => (
              <button
                key={s}
                type="button"
                className="legend-item"
                aria-pressed={visible[s]}
                title={t.map.toggle(t.map.legend[s])}
                data-legend={s}
                onClick={() => setVisible((v) => ({ ...v, [s]: !v[s] }))}
              >
                <span className={`legend-dot legend-${s.toLowerCase()}`} />
                {t.map.legend[s]}
                <span className="tab-count">{byState[s]}</span>
              </button>
            ))}
            <button
              type="button"
              className="legend-item"
              aria-pressed={visible.waiting}
              title={t.map.toggle(t.map.legend.waiting)}
              data-legend="waiting"
              onClick={() => setVisible((v) => ({ ...v, waiting: !v.waiting }))}
            >
              <span className="legend-dot legend-waiting" />
              {t.map.legend.waiting}
              <span className="tab-count">{waitingTotal}</span>
            </button>
          </div>
        </div>
        {overview.error ? (
          <ErrorNotice error={overview.error} onRetry={() => overview.refetch()} />
        ) : null}
        {route.error ? (
          <ErrorNotice error={route.error} onRetry={() => route.refetch()} />
        ) : route.data && route.data.points.length === 0 ? (
          <div className="notice notice-warn" role="status">
            {t.map.routeEmpty}
          </div>
        ) : null}
        <div className="map-frame">
          {overview.data ? (
            <MapCanvas
              viewKey={String(city?.id ?? "")}
              tileUrl={tileUrl}
              bounds={overview.data.bounds}
              center={center}
              basemap={basemap.data ?? null}
              regions={regions}
              drivers={shownDrivers}
              waiting={waiting}
              route={canvasRoute}
              selectedDriverId={selectedId}
              focus={focus}
              onSelectDriver={select}
              freeLabel={t.map.legend.FREE}
              waitingLabel={t.map.legend.waiting}
            />
          ) : (
            <div className="map-loading">{t.common.loading}</div>
          )}
          {!tileUrl && overview.data ? <div className="map-note">{t.map.noTiles}</div> : null}
        </div>
      </div>
      <aside className="map-side" aria-label={t.map.drivers}>
        {selectedId !== null ? (
          <DriverCard
            data={card.data}
            error={card.error}
            live={live.get(selectedId)}
            onClose={() => setSelectedId(null)}
            onCentre={() => select(selectedId)}
            onRoute={showRoute}
          />
        ) : (
          <>
            <div className="map-side-head">
              <h2>{t.map.drivers}</h2>
              <label className="search">
                <Icon name="search" size={16} />
                <input type="search" value={search} placeholder={t.map.searchDrivers} aria-label={t.map.searchDrivers} onChange={(e) => setSearch(e.target.value)} />
              </label>
              {unplaced > 0 ? <span className="muted small">{t.map.noPosition(unplaced)}</span> : null}
            </div>
            <div className="map-side-body">
              {listed.length === 0 && !overview.isLoading ? <EmptyState title={t.map.noDrivers} icon="drivers" /> : null}
              <ul className="map-drivers" data-testid="map-driver-list">
                {listed.map((d) => (
                  <li key={d.id}>
                    <button type="button" className="driver-item" data-driver-item={d.callSign} onClick={() => select(d.id)}>
                      <span className={`legend-dot legend-${d.state.toLowerCase()}`} title={t.drivers.states[d.state]} />
                      <span className="mono strong">{d.callSign}</span>
                      <span className="name">{d.name}</span>
                      <span className="muted small">{t.drivers.states[d.state]}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
            <DispatchSide cityId={city?.id} regions={overview.data?.regions ?? []} />
          </>
        )}
      </aside>
    </div>
  );
}

type Card = Outputs["map"]["driver"];

function DriverCard({
  data,
  error,
  live,
  onClose,
  onCentre,
  onRoute,
}: {
  data: Card | undefined;
  error: unknown;
  live: LivePatch | undefined;
  onClose: () => void;
  onCentre: () => void;
  onRoute: (orderId: number) => void;
}) {
  const { t, fmt, locale } = useI18n();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
  }, [data?.id]);
  if (error) {
    return (
      <div className="driver-card">
        <div className="notice notice-error" role="alert">
          {errorInfo(error, t).message}
        </div>
        <button type="button" className="btn" onClick={onClose}>
          {t.common.close}
        </button>
      </div>
    );
  }
  if (!data) return <div className="driver-card muted">{t.common.loading}</div>;
  const state = live?.state ?? data.state;
  const lat = live?.lat ?? data.lat;
  const lon = live?.lon ?? data.lon;
  const order = data.currentOrder;
  return (
    <div className="map-side-body" data-testid="driver-card">
      <div className="driver-card">
        <div className="driver-card-head">
          <div>
            <div className="driver-card-title">
              <span className="call-sign">{data.callSign}</span>
              <span className={`badge badge-driver-${state.toLowerCase()}`} data-state={state}>
                {t.drivers.states[state]}
              </span>
              {!data.active ? <span className="badge badge-muted">{t.map.card.inactive}</span> : null}
            </div>
            <div className="strong" style={{ marginTop: 4 }}>
              {[data.lastName, data.firstName, data.middleName].filter(Boolean).join(" ")}
            </div>
          </div>
          <button ref={close} type="button" className="icon-btn" aria-label={t.map.card.close} title={t.map.card.close} onClick={onClose}>
            <Icon name="close" />
          </button>
        </div>
        <div className="card">
          <dl className="facts">
            <dt>{t.map.card.car}</dt>
            <dd>
              {data.car ? (
                <>
                  {data.car.brand} {data.car.model}, {data.car.color} <span className="plate">{data.car.regNumber}</span>
                </>
              ) : (
                t.common.none
              )}
            </dd>
            <dt>{t.map.card.phone}</dt>
            <dd>
              <PhoneLink className="mono" phone={data.phone} />
            </dd>
            <dt>{t.map.card.balance}</dt>
            <dd className={data.balance < 0n ? "negative strong" : "strong"} data-testid="driver-balance">
              {fmt.money(data.balance)}
            </dd>
            <DriverRatingFacts driverId={data.id} />
            <dt>{t.map.card.region}</dt>
            <dd>{data.region ? (locale === "en" ? data.region.nameEn : data.region.name) : t.common.none}</dd>
            <dt>{t.map.card.seen}</dt>
            <dd>
              {data.positionAt ? fmt.ago(live ? new Date(live.at) : data.positionAt) : t.drivers.never}
              {data.speed > 0 && state !== "OFFLINE" ? <span className="muted"> · {t.map.card.speed(Math.round(data.speed))}</span> : null}
            </dd>
            <dt>{t.map.card.position}</dt>
            <dd className="mono small" data-testid="driver-position">
              {lat !== null && lon !== null ? `${lat.toFixed(5)}, ${lon.toFixed(5)}` : t.common.none}
            </dd>
            {data.shiftStartedAt ? (
              <>
                <dt>{t.map.card.shift}</dt>
                <dd>{fmt.when(data.shiftStartedAt)}</dd>
              </>
            ) : null}
            <dt>{t.map.card.services}</dt>
            <dd>{data.services.map((s) => (locale === "en" ? s.nameEn : s.name)).join(", ") || t.common.none}</dd>
          </dl>
          <div className="row-actions" style={{ marginTop: 10 }}>
            <button type="button" className="btn btn-small" onClick={onCentre} disabled={lat === null}>
              <Icon name="pin" size={14} />
              {t.map.card.centre}
            </button>
          </div>
        </div>
        <div className="card order-mini" data-testid="driver-current-order">
          <h3>{t.map.card.currentOrder}</h3>
          {order ? (
            <>
              <div className="order-mini-head">
                <span className="strong">{t.order.title(order.id)}</span>
                <StateBadge state={order.state} />
              </div>
              <div>
                {[order.street, order.house].filter(Boolean).join(", ")}
                {order.dst || order.dstStreet ? (
                  <>
                    <span className="arrow">→</span>
                    {order.dst || [order.dstStreet, order.dstHouse].filter(Boolean).join(", ")}
                  </>
                ) : null}
              </div>
              <div className="order-mini-head">
                <span className="muted">{fmt.money(order.amount)}</span>
                <button type="button" className="btn btn-small" onClick={() => onRoute(order.id)}>
                  <Icon name="flag" size={14} />
                  {t.map.card.follow}
                </button>
              </div>
            </>
          ) : (
            <span className="muted">{t.map.card.noOrder}</span>
          )}
        </div>
        {data.otherOrders.length ? (
          <div className="card order-mini">
            <h3>{t.map.card.otherOrders}</h3>
            {data.otherOrders.map((o) => (
              <div key={o.id} className="order-mini-head">
                <button type="button" className="btn btn-ghost btn-small" onClick={() => onRoute(o.id)} title={t.map.card.follow}>
                  {t.order.title(o.id)}
                </button>
                <StateBadge state={o.state} />
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}
