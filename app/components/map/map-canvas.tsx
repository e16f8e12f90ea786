"use client";
// The live map itself (Leaflet, in the browser only). Imperative layers kept
// in step with the props: a plain base map from our own streets when no tile
// server is configured (these machines have no internet), regions shaded by
// demand with their counts, every driver as a marker coloured by state,
// waiting orders, and one order's route. Markers are keyboard-focusable
// (Tab, Enter opens the driver's card).
import "leaflet/dist/leaflet.css";
import "./map.css";
import { useEffect, useRef } from "react";
import L from "leaflet";
import { escapeHtml } from "./escape-html";

export type LatLonPair = [number, number] | readonly [number, number];

export interface CanvasRegion {
  id: number;
  name: string;
  polygon: ReadonlyArray<LatLonPair>;
  free: number;
  waiting: number;
  title: string;
}

export interface CanvasDriver {
  id: number;
  callSign: string;
  state: "FREE" | "BUSY" | "OFFLINE";
  lat: number;
  lon: number;
  bearing: number;
  title: string;
}

export interface CanvasOrder {
  id: number;
  lat: number;
  lon: number;
  title: string;
}

export interface CanvasRoute {
  orderId: number;
  points: Array<{ lat: number; lon: number; title: string }>;
  /** The line along the roads (else the points are joined straight). */
  path?: ReadonlyArray<LatLonPair>;
  /** The car's way to the pickup, drawn dashed. */
  approach?: ReadonlyArray<LatLonPair>;
}

export interface CanvasBasemap {
  streets: Array<{ name: string; major: boolean; line: ReadonlyArray<LatLonPair> }>;
  places: Array<{ name: string; lat: number; lon: number }>;
}

export interface CanvasBounds {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

export interface MapCanvasProps {
  /** Changes when the city changes: the view is fitted again. */
  viewKey: string;
  tileUrl: string;
  bounds: CanvasBounds | null;
  center: [number, number];
  basemap: CanvasBasemap | null;
  regions: CanvasRegion[];
  drivers: CanvasDriver[];
  waiting: CanvasOrder[];
  route: CanvasRoute | null;
  selectedDriverId: number | null;
  /** A request to look at a point (seq changes for each request). */
  focus: { lat: number; lon: number; seq: number } | null;
  onSelectDriver: (id: number) => void;
  freeLabel: string;
  waitingLabel: string;
}

/** The area centroid of a polygon (falls back to the mean of its points). */
function centroid(points: ReadonlyArray<LatLonPair>): [number, number] {
  let a = 0;
  let cx = 0;
  let cy = 0;
  const n = points.length;
  for (let i = 0; i < n; i++) {
    const [y1, x1] = points[i]!;
    const [y2, x2] = points[(i + 1) % n]!;
    const f = x1 * y2 - x2 * y1;
    a += f;
    cx += (x1 + x2) * f;
    cy += (y1 + y2) * f;
  }
  if (Math.abs(a) < 1e-12) {
    const lat = points.reduce((s, p) => s + p[0], 0) / Math.max(1, n);
    const lon = points.reduce((s, p) => s + p[1], 0) / Math.max(1, n);
    return [lat, lon];
  }
  return [cy / (3 * a), cx / (3 * a)];
}

function driverIcon(d: CanvasDriver, selected: boolean): L.DivIcon {
  const cls = `drv drv-${d.state.toLowerCase()}${selected ? " drv-selected" : ""}`;
  return L.divIcon({
    className: "drv-icon",
    iconSize: [18, 18],
    iconAnchor: [9, 9],
    html:
      `<div class="${cls}" data-driver="${escapeHtml(d.callSign)}" data-driver-id="${d.id}" data-state="${d.state}" data-lat="${d.lat}" data-lon="${d.lon}">` +
      `<span class="drv-dot"><span class="drv-arrow" style="transform:rotate(${Math.round(d.bearing)}deg)"></span></span>` +
      `<span class="drv-label">${escapeHtml(d.callSign)}</span></div>`,
  });
}

function regionStyle(r: CanvasRegion): L.PathOptions {
  // Demand shading: more waiting orders than free cars is warm.
  const short = r.waiting > r.free;
  const busy = r.waiting > 0;
  return {
    color: short ? "#d48806" : "#6b7a93",
    weight: short ? 2 : 1.4,
    opacity: 0.9,
    fillColor: short ? "#f5b301" : busy ? "#f7d774" : "#8fa3c4",
    fillOpacity: short ? 0.16 : busy ? 0.1 : 0.06,
  };
}

export function MapCanvas(props: MapCanvasProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  /** The canvas renderer of each layer kind, made with the map. */
  const renderers = useRef<Record<string, L.Renderer> | null>(null);
  const layers = useRef<{
    tiles: L.TileLayer | null;
    base: L.LayerGroup;
    regions: L.LayerGroup;
    labels: L.LayerGroup;
    waiting: L.LayerGroup;
    drivers: L.LayerGroup;
    route: L.LayerGroup;
    markers: Map<number, { marker: L.Marker; key: string; lat: number; lon: number }>;
  } | null>(null);
  const onSelect = useRef(props.onSelectDriver);
  useEffect(() => {
    onSelect.current = props.onSelectDriver;
  });

  // ------------------------------------------------------------ the map
  useEffect(() => {
    if (!box.current || map.current) return;
    const m = L.map(box.current, { preferCanvas: true, zoomControl: true, attributionControl: false, minZoom: 8, maxZoom: 18, zoomSnap: 0.5 });
    m.setView(props.center, 11);
    // Each kind of shape in its own pane and canvas: streets under regions under waiting orders, whatever loads first.
    const pane = (name: string, z: number) => {
      m.createPane(name).style.zIndex = String(z);
      return L.canvas({ padding: 0.3, pane: name });
    };
    const rendererOf = { base: pane("consoleBase", 250), regions: pane("consoleRegions", 350), waiting: pane("consoleWaiting", 450) };
    layers.current = {
      tiles: null,
      base: L.layerGroup().addTo(m),
      regions: L.layerGroup().addTo(m),
      labels: L.layerGroup().addTo(m),
      waiting: L.layerGroup().addTo(m),
      route: L.layerGroup().addTo(m),
      drivers: L.layerGroup().addTo(m),
      markers: new Map(),
    };
    renderers.current = rendererOf;
    const zoomClass = () => {
      const z = m.getZoom();
      box.current?.classList.toggle("map-zoom-low", z < 12.5);
      box.current?.classList.toggle("map-zoom-high", z >= 14);
    };
    m.on("zoomend", zoomClass);
    zoomClass();
    map.current = m;
    const resize = new ResizeObserver(() => m.invalidateSize());
    resize.observe(box.current);
    return () => {
      resize.disconnect();
      m.remove();
      map.current = null;
      layers.current = null;
    };
    // The map is made once; later props arrive through the effects below.
  }, []);

  const renderer = (kind: "base" | "regions" | "waiting") => renderers.current?.[kind];

  // ------------------------------------------------------------ view of the city
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (props.bounds) {
      m.fitBounds(
        [
          [props.bounds.minLat, props.bounds.minLon],
          [props.bounds.maxLat, props.bounds.maxLon],
        ],
        { padding: [24, 24] },
      );
    } else m.setView(props.center, 12);
    // Only a new city moves the view; live changes never do.
  }, [props.viewKey]);

  // ------------------------------------------------------------ tiles or the plain base map
  useEffect(() => {
    const m = map.current;
    const l = layers.current;
    if (!m || !l) return;
    l.tiles?.remove();
    l.tiles = null;
    if (props.tileUrl) {
      l.tiles = L.tileLayer(props.tileUrl, { maxZoom: 19, crossOrigin: true }).addTo(m);
      l.tiles.bringToBack();
    }
    box.current?.classList.toggle("map-plain", !props.tileUrl);
  }, [props.tileUrl]);

  useEffect(() => {
    const l = layers.current;
    if (!l) return;
    l.base.clearLayers();
    if (props.tileUrl || !props.basemap) return;
    const r = renderer("base");
    for (const s of props.basemap.streets) {
      const line = L.polyline(
        s.line.map((p) => [p[0], p[1]] as [number, number]),
        { renderer: r, color: s.major ? "#ffffff" : "#fbfcfd", weight: s.major ? 6 : 3.5, opacity: 1, interactive: false, lineCap: "round" },
      );
      const casing = L.polyline(
        s.line.map((p) => [p[0], p[1]] as [number, number]),
        { renderer: r, color: "#d3d9e2", weight: s.major ? 8 : 5.5, opacity: 1, lineCap: "round", interactive: true },
      );
      casing.bindTooltip(escapeHtml(s.name), { sticky: true, className: "map-tip", direction: "top" });
      l.base.addLayer(casing);
      l.base.addLayer(line);
    }
    for (const p of props.basemap.places) {
      const mark = L.circleMarker([p.lat, p.lon], { renderer: r, radius: 4, color: "#8a96a8", weight: 1.5, fillColor: "#ffffff", fillOpacity: 1 });
      mark.bindTooltip(escapeHtml(p.name), { className: "map-tip", direction: "top" });
      l.base.addLayer(mark);
    }
  }, [props.basemap, props.tileUrl]);

  // ------------------------------------------------------------ regions with counts
  useEffect(() => {
    const l = layers.current;
    if (!l) return;
    l.regions.clearLayers();
    l.labels.clearLayers();
    for (const region of props.regions) {
      if (region.polygon.length < 3) continue;
      const shape = L.polygon(
        region.polygon.map((p) => [p[0], p[1]] as [number, number]),
        { ...regionStyle(region), renderer: renderer("regions"), interactive: false },
      );
      l.regions.addLayer(shape);
      const [lat, lon] = centroid(region.polygon);
      const label = L.marker([lat, lon], {
        interactive: false,
        keyboard: false,
        icon: L.divIcon({
          className: "rg-icon",
          iconSize: [0, 0],
          html:
            `<div class="rg-label${region.waiting > region.free ? " rg-short" : ""}" data-region-id="${region.id}" data-free="${region.free}" data-waiting="${region.waiting}" title="${escapeHtml(region.title)}">` +
            `<div class="rg-name">${escapeHtml(region.name)}</div>` +
            `<div class="rg-counts"><span class="rg-free" aria-label="${escapeHtml(props.freeLabel)}">${region.free}</span>` +
            `<span class="rg-wait" aria-label="${escapeHtml(props.waitingLabel)}">${region.waiting}</span></div></div>`,
        }),
      });
      l.labels.addLayer(label);
    }
  }, [props.regions, props.freeLabel, props.waitingLabel]);

  // ------------------------------------------------------------ waiting orders
  useEffect(() => {
    const l = layers.current;
    if (!l) return;
    l.waiting.clearLayers();
    for (const o of props.waiting) {
      const mark = L.circleMarker([o.lat, o.lon], { renderer: renderer("waiting"), radius: 5.5, color: "#b45309", weight: 2, fillColor: "#fde68a", fillOpacity: 1 });
      mark.bindTooltip(escapeHtml(o.title), { className: "map-tip", direction: "top" });
      l.waiting.addLayer(mark);
    }
  }, [props.waiting]);

  // ------------------------------------------------------------ drivers (patched, never redrawn)
  useEffect(() => {
    const l = layers.current;
    if (!l) return;
    const seen = new Set<number>();
    for (const d of props.drivers) {
      seen.add(d.id);
      const selected = d.id === props.selectedDriverId;
      const key = `${d.state}|${selected}|${Math.round(d.bearing / 15)}|${d.title}`;
      const known = l.markers.get(d.id);
      if (!known) {
        const marker = L.marker([d.lat, d.lon], { icon: driverIcon(d, selected), title: d.title, alt: d.title, riseOnHover: true, zIndexOffset: selected ? 1000 : 0 });
        marker.on("click", () => onSelect.current(d.id));
        l.drivers.addLayer(marker);
        l.markers.set(d.id, { marker, key, lat: d.lat, lon: d.lon });
        continue;
      }
      if (known.key !== key) {
        known.marker.setIcon(driverIcon(d, selected));
        known.marker.setZIndexOffset(selected ? 1000 : 0);
        known.marker.getElement()?.setAttribute("title", d.title);
        known.key = key;
      }
      if (known.lat !== d.lat || known.lon !== d.lon) {
        known.marker.setLatLng([d.lat, d.lon]);
        known.lat = d.lat;
        known.lon = d.lon;
        const el = known.marker.getElement()?.querySelector<HTMLElement>(".drv");
        el?.setAttribute("data-lat", String(d.lat));
        el?.setAttribute("data-lon", String(d.lon));
      }
    }
    for (const [id, known] of l.markers) {
      if (seen.has(id)) continue;
      known.marker.remove();
      l.markers.delete(id);
    }
  }, [props.drivers, props.selectedDriverId]);

  // ------------------------------------------------------------ an order's route
  useEffect(() => {
    const m = map.current;
    const l = layers.current;
    if (!m || !l) return;
    l.route.clearLayers();
    const route = props.route;
    if (!route || route.points.length === 0) return;
    const latlngs = (route.path ?? route.points.map((p) => [p.lat, p.lon] as const)).map(([lat, lon]) => [lat, lon] as [number, number]);
    if (latlngs.length > 1) {
      l.route.addLayer(L.polyline(latlngs, { color: "#ffffff", weight: 9, opacity: 0.9, interactive: false }));
      l.route.addLayer(L.polyline(latlngs, { color: "#2f6fed", weight: 5, opacity: 0.95, interactive: false }));
    }
    const approach = (route.approach ?? []).map(([lat, lon]) => [lat, lon] as [number, number]);
    if (approach.length > 1) {
      l.route.addLayer(L.polyline(approach, { color: "#e8590c", weight: 4, opacity: 0.9, dashArray: "8 6", interactive: false, className: "route-approach" }));
      latlngs.push(...approach);
    }
    route.points.forEach((p, i) => {
      const last = i === route.points.length - 1 && i > 0;
      l.route.addLayer(
        L.marker([p.lat, p.lon], {
          keyboard: false,
          title: p.title,
          icon: L.divIcon({
            className: "route-icon",
            iconSize: [24, 24],
            iconAnchor: [12, 12],
            html: `<div class="route-pin${i === 0 ? " route-pin-start" : last ? " route-pin-end" : ""}" data-route-point="${i + 1}">${i === 0 ? "A" : last ? "B" : i}</div>`,
          }),
          zIndexOffset: 2000,
        }),
      );
    });
    m.fitBounds(L.latLngBounds(latlngs).pad(0.35), { maxZoom: 15 });
  }, [props.route]);

  // ------------------------------------------------------------ look at a point
  useEffect(() => {
    const m = map.current;
    if (!m || !props.focus) return;
    m.setView([props.focus.lat, props.focus.lon], Math.max(m.getZoom(), 14), { animate: true });
  }, [props.focus]);

  return <div ref={box} className="map-canvas" data-testid="map-canvas" />;
}

export default MapCanvas;
