"use client";
// The region editor's map (Leaflet, in the browser only): the city's other
// regions in grey (click one to edit it), the edited polygon with draggable
// numbered vertices, "+" handles in the middle of each side that add a
// vertex, right click (or the table) removes one; in drawing mode each click
// on the map adds a vertex. Works on the plain base map without tiles.
import "leaflet/dist/leaflet.css";
import "../map/map.css";
import { useEffect, useRef } from "react";
import L from "leaflet";
import { escapeHtml } from "../map/escape-html";

type Pt = [number, number];

export interface RegionMapProps {
  viewKey: string;
  focusKey: string;
  tileUrl: string;
  center: Pt;
  streets: Array<{ major: boolean; line: ReadonlyArray<readonly [number, number]> }>;
  regions: Array<{ id: number; name: string; polygon: ReadonlyArray<readonly [number, number]> }>;
  editingId: number | null;
  /** the edited polygon; null points are rows the operator has not finished typing */
  points: Array<Pt | null>;
  badVertices: number[];
  drawing: boolean;
  onMove: (index: number, point: Pt) => void;
  onInsert: (afterIndex: number, point: Pt) => void;
  onAdd: (point: Pt) => void;
  onRemove: (index: number) => void;
  onSelectRegion: (id: number) => void;
  removeLabel: (n: number) => string;
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

export function RegionMap(props: RegionMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const groups = useRef<{ base: L.LayerGroup; others: L.LayerGroup; shape: L.LayerGroup; handles: L.LayerGroup } | null>(null);
  const cb = useRef(props);
  useEffect(() => {
    cb.current = props;
  });

  useEffect(() => {
    if (!box.current || map.current) return;
    const m = L.map(box.current, { zoomControl: true, attributionControl: false, minZoom: 8, maxZoom: 18, zoomSnap: 0.5, doubleClickZoom: false });
    m.setView(props.center, 11);
    m.createPane("editorBase").style.zIndex = "250";
    groups.current = {
      base: L.layerGroup().addTo(m),
      others: L.layerGroup().addTo(m),
      shape: L.layerGroup().addTo(m),
      handles: L.layerGroup().addTo(m),
    };
    m.on("click", (e: L.LeafletMouseEvent) => {
      if (cb.current.drawing) cb.current.onAdd([round6(e.latlng.lat), round6(e.latlng.lng)]);
    });
    map.current = m;
    const resize = new ResizeObserver(() => m.invalidateSize());
    resize.observe(box.current);
    return () => {
      resize.disconnect();
      m.remove();
      map.current = null;
      groups.current = null;
    };
  }, []);

  // tiles or the plain base map
  useEffect(() => {
    const m = map.current;
    const g = groups.current;
    if (!m || !g) return;
    g.base.clearLayers();
    box.current?.classList.toggle("map-plain", !props.tileUrl);
    if (props.tileUrl) {
      g.base.addLayer(L.tileLayer(props.tileUrl, { maxZoom: 19 }));
      return;
    }
    const renderer = L.canvas({ pane: "editorBase" });
    for (const s of props.streets) {
      g.base.addLayer(L.polyline(s.line.map((p) => [p[0], p[1]] as Pt), { renderer, color: "#d3d9e2", weight: s.major ? 7 : 4.5, interactive: false, lineCap: "round" }));
      g.base.addLayer(L.polyline(s.line.map((p) => [p[0], p[1]] as Pt), { renderer, color: "#fbfcfd", weight: s.major ? 5 : 2.5, interactive: false, lineCap: "round" }));
    }
  }, [props.tileUrl, props.streets]);

  // the other regions
  useEffect(() => {
    const g = groups.current;
    if (!g) return;
    g.others.clearLayers();
    for (const r of props.regions) {
      if (r.id === props.editingId || r.polygon.length < 3) continue;
      const shape = L.polygon(
        r.polygon.map((p) => [p[0], p[1]] as Pt),
        { color: "#7b879b", weight: 1.2, fillColor: "#8fa3c4", fillOpacity: 0.08, dashArray: "4 4" },
      );
      shape.bindTooltip(escapeHtml(r.name), { sticky: true, className: "map-tip" });
      shape.on("click", (e) => {
        if (cb.current.drawing) return;
        L.DomEvent.stopPropagation(e);
        cb.current.onSelectRegion(r.id);
      });
      g.others.addLayer(shape);
    }
  }, [props.regions, props.editingId]);

  // the edited polygon and its handles
  useEffect(() => {
    const g = groups.current;
    if (!g) return;
    g.shape.clearLayers();
    g.handles.clearLayers();
    const pts = props.points.map((p, i) => ({ p, i })).filter((x): x is { p: Pt; i: number } => x.p !== null);
    if (pts.length === 0) return;
    const bad = props.badVertices.length > 0;
    const outline = pts.length >= 3 ? L.polygon(pts.map((x) => x.p), { color: bad ? "#c0362c" : "#2f6fed", weight: 2.5, fillColor: bad ? "#f3b7b0" : "#2f6fed", fillOpacity: 0.14, interactive: false }) : L.polyline(pts.map((x) => x.p), { color: "#2f6fed", weight: 2.5, dashArray: "6 4", interactive: false });
    g.shape.addLayer(outline);
    const redraw = (index: number, ll: L.LatLng) => {
      const latlngs = pts.map((x) => (x.i === index ? ll : L.latLng(x.p[0], x.p[1])));
      outline.setLatLngs(latlngs);
    };
    pts.forEach(({ p, i }) => {
      const marker = L.marker(p, {
        draggable: true,
        keyboard: true,
        title: cb.current.removeLabel(i + 1),
        icon: L.divIcon({
          className: "vx-icon",
          iconSize: [14, 14],
          iconAnchor: [7, 7],
          html: `<div class="vx${props.badVertices.includes(i) ? " vx-bad" : ""}" data-vertex="${i + 1}"></div><span class="vx-num">${i + 1}</span>`,
        }),
        zIndexOffset: 1000,
      });
      marker.on("drag", () => redraw(i, marker.getLatLng()));
      marker.on("dragend", () => {
        const ll = marker.getLatLng();
        cb.current.onMove(i, [round6(ll.lat), round6(ll.lng)]);
      });
      marker.on("contextmenu", (e) => {
        L.DomEvent.preventDefault(e.originalEvent);
        cb.current.onRemove(i);
      });
      g.handles.addLayer(marker);
    });
    if (pts.length >= 3 && !props.drawing) {
      pts.forEach(({ p, i }, k) => {
        const next = pts[(k + 1) % pts.length]!;
        const mid: Pt = [round6((p[0] + next.p[0]) / 2), round6((p[1] + next.p[1]) / 2)];
        const plus = L.marker(mid, {
          keyboard: false,
          icon: L.divIcon({ className: "vx-icon", iconSize: [12, 12], iconAnchor: [6, 6], html: `<div class="vx-mid" data-midpoint="${i + 1}">+</div>` }),
        });
        plus.on("click", (e) => {
          L.DomEvent.stopPropagation(e);
          cb.current.onInsert(i, mid);
        });
        g.handles.addLayer(plus);
      });
    }
  }, [props.points, props.badVertices, props.drawing]);

  // the view: the whole city, then the chosen region
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    const all = props.regions.flatMap((r) => r.polygon.map((p) => [p[0], p[1]] as Pt));
    if (all.length) m.fitBounds(L.latLngBounds(all), { padding: [20, 20] });
    else m.setView(props.center, 11);
  }, [props.viewKey]);

  useEffect(() => {
    const m = map.current;
    if (!m || props.focusKey === "") return;
    const pts = props.points.filter((p): p is Pt => p !== null);
    if (pts.length >= 2) m.fitBounds(L.latLngBounds(pts).pad(0.4), { maxZoom: 15 });
  }, [props.focusKey]);

  useEffect(() => {
    box.current?.classList.toggle("map-drawing", props.drawing);
  }, [props.drawing]);

  return <div ref={box} className="map-canvas" data-testid="region-map" />;
}

export default RegionMap;
