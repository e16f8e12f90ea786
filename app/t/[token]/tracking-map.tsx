"use client";
// The tracking page's map (Leaflet, in the browser only): no tile server is
// reachable, so the streets around the pickup are drawn from our own data
// (/t/<token>/map) on a plain background, as the console's map does; the
// pickup, the destination and the car, which moves as its positions arrive.
import "leaflet/dist/leaflet.css";
import { useEffect, useRef } from "react";
import L from "leaflet";
import { escapeHtml } from "@/app/components/map/escape-html";

type Point = { lat: number; lon: number };

export interface TrackingMapProps {
  token: string;
  pickup: Point | null;
  destination: Point | null;
  car: (Point & { bearing: number }) | null;
  label: string;
  carLabel: string;
  pickupLabel: string;
}

function carIcon(bearing: number, label: string): L.DivIcon {
  return L.divIcon({
    className: "trk-car",
    html: `<span class="trk-car-body" role="img" aria-label="${escapeHtml(label)}" style="transform: rotate(${Math.round(bearing)}deg)">▲</span>`,
    iconSize: [34, 34],
    iconAnchor: [17, 17],
  });
}

export default function TrackingMap(props: TrackingMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const car = useRef<L.Marker | null>(null);
  const fitted = useRef(false);

  useEffect(() => {
    if (!box.current) return;
    const m = L.map(box.current, { preferCanvas: true, zoomControl: true, attributionControl: false, minZoom: 10, maxZoom: 18 });
    map.current = m;
    const start = props.pickup ?? props.car;
    if (start) m.setView([start.lat, start.lon], 15);
    const layer = L.layerGroup().addTo(m);
    const renderer = L.canvas({ padding: 0.3 });
    const controller = new AbortController();
    // The streets: drawn once; a failure leaves the plain background (the markers still show where things are).
    void fetch(`/t/${encodeURIComponent(props.token)}/map`, { signal: controller.signal })
      .then((r) => (r.ok ? (r.json() as Promise<{ streets: Array<{ major: boolean; line: Array<[number, number]> }> }>) : null))
      .then((data) => {
        if (!data) return;
        for (const s of data.streets) layer.addLayer(L.polyline(s.line, { renderer, color: "#d3d9e2", weight: s.major ? 8 : 5.5, interactive: false, lineCap: "round" }));
        for (const s of data.streets) layer.addLayer(L.polyline(s.line, { renderer, color: "#ffffff", weight: s.major ? 6 : 3.5, interactive: false, lineCap: "round" }));
      })
      .catch(() => undefined);
    if (props.pickup) {
      L.circleMarker([props.pickup.lat, props.pickup.lon], { radius: 9, color: "#ffffff", weight: 3, fillColor: "#2f6fed", fillOpacity: 1 })
        .bindTooltip(escapeHtml(props.pickupLabel), { permanent: false })
        .addTo(m);
    }
    if (props.destination) {
      L.circleMarker([props.destination.lat, props.destination.lon], { radius: 7, color: "#ffffff", weight: 3, fillColor: "#151a23", fillOpacity: 1 }).addTo(m);
    }
    return () => {
      controller.abort();
      m.remove();
      map.current = null;
      car.current = null;
    };
    // The map is made once per page; the car moves in the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.token]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (!props.car) {
      car.current?.remove();
      car.current = null;
      return;
    }
    const at: L.LatLngExpression = [props.car.lat, props.car.lon];
    if (!car.current) car.current = L.marker(at, { icon: carIcon(props.car.bearing, props.carLabel), keyboard: false, zIndexOffset: 1000 }).addTo(m);
    else {
      car.current.setLatLng(at);
      car.current.setIcon(carIcon(props.car.bearing, props.carLabel));
    }
    const el = car.current.getElement();
    el?.setAttribute("data-testid", "car-marker");
    el?.setAttribute("data-lat", props.car.lat.toFixed(6));
    el?.setAttribute("data-lon", props.car.lon.toFixed(6));
    // Both the car and the pickup in view: once at first, then only when the car leaves the view.
    const bounds = L.latLngBounds([at, ...(props.pickup ? [[props.pickup.lat, props.pickup.lon] as L.LatLngTuple] : [])]);
    if (!fitted.current || !m.getBounds().contains(at)) {
      m.fitBounds(bounds.pad(0.25), { maxZoom: 16 });
      fitted.current = true;
    }
  }, [props.car, props.pickup, props.carLabel]);

  return <div ref={box} className="trk-map" role="region" aria-label={props.label} />;
}
