"use client";
// The trip's map (Leaflet, in the browser only: trip-screen is loaded
// without server rendering). No tile server is reachable here, so the base
// map is the city's own streets from GET /map, each drawn through its
// houses, with the regions' outlines; a deployment with a tile server sets
// MAP_TILE_URL and gets tiles under the same layers. On top: the route, the
// pickup and destination, and the car, which the view follows.
import "leaflet/dist/leaflet.css";
import { useEffect, useRef } from "react";
import L from "leaflet";
import type { CityMap, DriverOrder } from "./api";

interface Props {
  tileUrl: string;
  map: CityMap | null;
  position: { lat: number; lon: number } | null;
  pickup: DriverOrder["pickup"];
  destination: DriverOrder["destination"];
  route: Array<[number, number]> | null;
  started: boolean;
  label: string;
  youLabel: string;
  zoomInLabel: string;
  zoomOutLabel: string;
}

/** A street's line: its houses in the order of their numbers (the interface gives points, not road geometry). */
function streetLine(houses: Array<[string, number, number]>): Array<[number, number]> {
  return [...houses].sort((a, b) => (Number.parseInt(a[0], 10) || 0) - (Number.parseInt(b[0], 10) || 0)).map(([, lat, lon]) => [lat, lon]);
}

function pin(kind: "pickup" | "destination" | "car"): L.DivIcon {
  return L.divIcon({ className: `drv-pin drv-pin-${kind}`, iconSize: kind === "car" ? [22, 22] : [18, 18], iconAnchor: kind === "car" ? [11, 11] : [9, 9], html: "<span></span>" });
}

export function TripMap(props: Props) {
  const box = useRef<HTMLDivElement>(null);
  const state = useRef<{ map: L.Map; base: L.LayerGroup; top: L.LayerGroup; car: L.Marker | null; fitted: string } | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const map = L.map(box.current, { zoomControl: true, attributionControl: false, preferCanvas: true, zoomSnap: 0.5 }).setView([55.75, 37.62], 13);
    state.current = { map, base: L.layerGroup().addTo(map), top: L.layerGroup().addTo(map), car: null, fitted: "" };
    return () => {
      map.remove();
      state.current = null;
    };
  }, []);

  // Leaflet names its zoom buttons in English: in the app's language instead.
  useEffect(() => {
    const name = (selector: string, label: string) => {
      const button = box.current?.querySelector(selector);
      button?.setAttribute("title", label);
      button?.setAttribute("aria-label", label);
    };
    name(".leaflet-control-zoom-in", props.zoomInLabel);
    name(".leaflet-control-zoom-out", props.zoomOutLabel);
  }, [props.zoomInLabel, props.zoomOutLabel]);

  // The base: tiles when configured, else the streets and regions.
  useEffect(() => {
    const s = state.current;
    if (!s) return;
    s.base.clearLayers();
    if (props.tileUrl) s.base.addLayer(L.tileLayer(props.tileUrl, { maxZoom: 19 }));
    if (!props.map) return;
    for (const r of props.map.regions) s.base.addLayer(L.polygon(r.polygon, { color: "#8392ad", weight: 1, fillOpacity: 0.03, interactive: false }));
    if (!props.tileUrl) {
      for (const street of props.map.streets) {
        if (street.houses.length < 2) continue;
        s.base.addLayer(L.polyline(streetLine(street.houses), { color: "#8d99ad", weight: 3, opacity: 0.9, interactive: false }));
      }
    }
  }, [props.tileUrl, props.map]);

  // The route and its ends.
  const { pickup, destination, route, started, position } = props;
  useEffect(() => {
    const s = state.current;
    if (!s) return;
    s.top.clearLayers();
    const points: Array<[number, number]> = [];
    if (route && route.length > 1) {
      s.top.addLayer(L.polyline(route, { color: "#0b57d0", weight: 6, opacity: 0.9 }));
      points.push(...route);
    }
    if (pickup.lat !== null && pickup.lon !== null) {
      s.top.addLayer(L.marker([pickup.lat, pickup.lon], { icon: pin("pickup"), keyboard: false, interactive: false }));
      points.push([pickup.lat, pickup.lon]);
    }
    if (destination && destination.lat !== null && destination.lon !== null) {
      s.top.addLayer(L.marker([destination.lat, destination.lon], { icon: pin("destination"), keyboard: false, interactive: false }));
      if (started) points.push([destination.lat, destination.lon]);
    }
    const key = JSON.stringify([route?.length ?? 0, started, pickup.lat, destination?.lat ?? null]);
    if (points.length && key !== s.fitted) {
      s.fitted = key;
      if (position) points.push([position.lat, position.lon]);
      s.map.fitBounds(L.latLngBounds(points), { padding: [28, 28], maxZoom: 16 });
    }
  }, [route, pickup, destination, started, position]);

  // The car.
  useEffect(() => {
    const s = state.current;
    if (!s || !props.position) return;
    const at: [number, number] = [props.position.lat, props.position.lon];
    if (!s.car) s.car = L.marker(at, { icon: pin("car"), keyboard: false, interactive: false, zIndexOffset: 1000, title: props.youLabel }).addTo(s.map);
    else s.car.setLatLng(at);
  }, [props.position, props.youLabel]);

  // A labelled region, not an image: it holds controls (zoom) and Leaflet makes it focusable for the keyboard.
  return <div ref={box} className="drv-map" role="region" aria-label={props.label} data-testid="trip-map" data-route-points={props.route?.length ?? 0} />;
}
