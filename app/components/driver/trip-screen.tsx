"use client";
// The order being driven: the map with the route (to the pickup, then to the
// destination once the passenger is aboard) and what remains of it, the
// passenger's name and a call button (the interface gives them only once the
// order is the driver's), the running fare of a metered trip, and a button
// for each move the state machine allows from the order's state.
import { useEffect, useRef, useState } from "react";
import type { CityMap, DriverOrder, RouteReply } from "./api";
import { useDriverI18n } from "./i18n";
import { movesFrom, tripStarted, type OrderMove } from "./order-moves";
import { addressOf, Card, Field } from "./parts";
import { TripMap } from "./trip-map";
import { metresBetween } from "./use-positions";

type Call = <T>(method: "GET" | "POST", path: string, input?: Record<string, unknown>) => Promise<T>;

/** The map is the same for the whole shift: read once per page. */
let cityMap: Promise<CityMap> | null = null;

/** A new route when the car has left the old one's start by this much. */
const REROUTE_METRES = 60;

export function TripScreen({ order, orders, call, position, online, tileUrl, onMove }: { order: DriverOrder | null; orders: DriverOrder[]; call: Call; position: { lat: number; lon: number } | null; online: boolean; tileUrl: string; onMove: (order: DriverOrder, move: OrderMove) => Promise<void> }) {
  const { t, money, km, time } = useDriverI18n();
  const [map, setMap] = useState<CityMap | null>(null);
  const [route, setRoute] = useState<(RouteReply & { from: { lat: number; lon: number }; to: string }) | null>(null);
  const [busy, setBusy] = useState<OrderMove | null>(null);
  const routing = useRef(false);

  useEffect(() => {
    cityMap ??= call<CityMap>("GET", "map");
    cityMap.then(setMap, () => {
      cityMap = null;
    });
  }, [call]);

  const started = order ? tripStarted(order) : false;
  const target = order ? (started ? order.destination : order.pickup) : null;
  const targetKey = target && target.lat !== null && target.lon !== null ? `${target.lat},${target.lon}` : null;

  useEffect(() => {
    if (!position || !target || target.lat === null || target.lon === null || !targetKey || !online || routing.current) return;
    if (route && route.to === targetKey && metresBetween(route.from, position) < REROUTE_METRES) return;
    routing.current = true;
    const from = { lat: position.lat, lon: position.lon };
    call<RouteReply>("GET", "route", { from_lat: from.lat, from_lon: from.lon, to_lat: target.lat, to_lon: target.lon })
      .then((r) => setRoute({ ...r, from, to: targetKey }))
      .catch(() => undefined)
      .finally(() => {
        routing.current = false;
      });
  }, [position, target, targetKey, online, route, call]);

  const upcoming = orders.filter((o) => o.state.startsWith("PREORDER_") && o.uuid !== order?.uuid);

  if (!order) {
    return (
      <>
        <Card testId="trip-none">
          <p className="drv-big">{t.noOrder}</p>
          <p className="drv-muted">{t.noOrderHint}</p>
        </Card>
        {upcoming.map((o) => (
          <Card key={o.uuid} title={`${t.orderNo(o.id)} · ${t.orderState[o.state] ?? o.state}`}>
            <Field label={t.offerAdvance}>{time(o.pre_order_time)}</Field>
            <Field label={t.pickup}>{addressOf(o.pickup)}</Field>
          </Card>
        ))}
      </>
    );
  }

  const shownRoute = route && route.to === targetKey ? route : null;
  // What remains: the route's length less what the car has driven along it (measured from its start, straight).
  const remainingMetres = shownRoute && position ? Math.max(0, shownRoute.metres - metresBetween(shownRoute.from, position)) : shownRoute?.metres ?? null;
  const remainingMinutes = shownRoute && remainingMetres !== null && shownRoute.metres > 0 ? Math.max(1, Math.round((shownRoute.seconds * (remainingMetres / shownRoute.metres)) / 60)) : null;
  const moves = movesFrom(order);
  const meter = order.meter ?? null;

  const move = async (m: OrderMove) => {
    if (m === "DONE_CALL_FAILED" && !window.confirm(t.confirmNoShow)) return;
    setBusy(m);
    try {
      await onMove(order, m);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="drv-trip" data-testid="trip" data-order-state={order.state}>
      <div className="drv-trip-head">
        <div>
          <div className="drv-muted">{t.orderNo(order.id)}</div>
          <div className="drv-big" data-testid="trip-state">
            {t.orderState[order.state] ?? order.state}
          </div>
        </div>
        <div className="drv-trip-price" data-testid="trip-price">
          {meter ? money(meter.fare) : money(order.amount)}
        </div>
      </div>
      <div className="drv-map-wrap">
        <TripMap tileUrl={tileUrl} map={map} position={position} pickup={order.pickup} destination={order.destination} route={shownRoute?.points ?? null} started={started} label={t.map} youLabel={t.you} zoomInLabel={t.zoomIn} zoomOutLabel={t.zoomOut} />
      </div>
      <div className="drv-route-line" data-testid="trip-remaining" role="status">
        <strong>{started ? t.toDestination : t.toPickup}:</strong> {remainingMetres !== null && remainingMinutes !== null ? t.remaining(km(remainingMetres), remainingMinutes) : "—"}
        {shownRoute && !shownRoute.on_roads ? <span className="drv-muted"> ({t.routeOffRoads})</span> : null}
      </div>
      <Card>
        <Field label={t.pickup}>
          <span className="drv-big">{addressOf(order.pickup)}</span>
        </Field>
        <Field label={t.destination}>{order.destination ? addressOf(order.destination) : t.noDestination}</Field>
        {order.comment ? <Field label={t.comment}>{order.comment}</Field> : null}
        {order.client_name || order.phone ? (
          <Field label={t.passenger}>
            <span className="drv-passenger">
              <span data-testid="trip-passenger">{order.client_name}</span>
              {order.phone ? (
                <a className="drv-btn drv-btn-call" href={`tel:${order.phone}`} aria-label={t.call(order.client_name || order.phone)} data-testid="trip-call">
                  {t.callShort}
                </a>
              ) : null}
            </span>
          </Field>
        ) : null}
      </Card>
      {meter ? (
        <Card title={t.meter} testId="trip-meter">
          <div className="drv-facts">
            <Field label={t.meterFare}>
              <span className="drv-big">{money(meter.fare)}</span>
            </Field>
            <Field label={t.meterDistance}>{t.km(km(meter.distance_m))}</Field>
            <Field label={t.meterTime}>{t.minutes(Math.floor(meter.trip_seconds / 60))}</Field>
            <Field label={t.meterWaiting}>{t.minutes(Math.floor(meter.waiting_seconds / 60))}</Field>
          </div>
          <dl className="drv-breakdown">
            {Object.entries(meter.breakdown)
              .filter(([, v]) => v)
              .map(([name, v]) => (
                <div key={name}>
                  <dt>{t.breakdown[name] ?? name}</dt>
                  <dd>{money(v)}</dd>
                </div>
              ))}
          </dl>
        </Card>
      ) : order.rate_kind === "FIXED" ? (
        <p className="drv-muted drv-pad">{t.fixedPrice}</p>
      ) : null}
      <div className="drv-moves">
        {moves.map((m) => (
          <button key={m} type="button" className={`drv-btn drv-btn-block ${m === "DONE_CALL_FAILED" ? "drv-btn-danger" : "drv-btn-primary"}`} disabled={busy !== null} onClick={() => void move(m)} data-testid={`move-${m}`}>
            {t.move[m]}
          </button>
        ))}
      </div>
    </div>
  );
}
