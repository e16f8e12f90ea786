"use client";
// The route to a region hint's target on the trip's own map (trip-map.tsx),
// loaded in the browser only (Leaflet).
import { useEffect, useState } from "react";
import type { CityMap, RegionHint, RouteReply } from "./api";
import { useDriverI18n } from "./i18n";
import { TripMap } from "./trip-map";

type Call = <T>(method: "GET" | "POST", path: string, input?: Record<string, unknown>) => Promise<T>;

export function HintMap({ hint, position, call, tileUrl }: { hint: RegionHint; position: { lat: number; lon: number } | null; call: Call; tileUrl: string }) {
  const { t } = useDriverI18n();
  const [map, setMap] = useState<CityMap | null>(null);
  const [route, setRoute] = useState<RouteReply | null>(null);

  useEffect(() => {
    call<CityMap>("GET", "map").then(setMap, () => undefined);
  }, [call]);

  // The route from where the car stood when the map opened (a hint is for a car standing), not redrawn with every report.
  const [start] = useState(position);
  useEffect(() => {
    if (!start) return;
    call<RouteReply>("GET", "route", { from_lat: start.lat, from_lon: start.lon, to_lat: hint.target.lat, to_lon: hint.target.lon }).then(setRoute, () => undefined);
  }, [start, hint.target.lat, hint.target.lon, call]);

  const target = { street: "", house: "", entrance: "", lat: hint.target.lat, lon: hint.target.lon };
  return <TripMap tileUrl={tileUrl} map={map} position={position} pickup={target} destination={null} route={route?.points ?? null} started={false} label={t.hintMap} youLabel={t.you} zoomInLabel={t.zoomIn} zoomOutLabel={t.zoomOut} />;
}
