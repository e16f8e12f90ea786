// What a city needs from an OpenStreetMap extract, in two streaming passes
// (so that only the nodes the roads and addresses use are kept, never every
// node of the file):
//   1. ways: the drivable roads (class, one-way, name) and the buildings with
//      an address; the nodes they use are counted;
//   2. nodes: the coordinates of the counted nodes, the address points and
//      the named places.
// Roads are then cut into segments at junctions (a node two roads share, or
// a road's end), drawn through the nodes between.
import { haversineMetres } from "../geo/distance";
import type { RoadClass } from "../routing/speeds";
import { readOsm, type Tags } from "./read";

export interface OsmSegment {
  wayId: number;
  /** The segment's place along its way, from 0. */
  part: number;
  from: number;
  to: number;
  length: number;
  roadClass: RoadClass;
  oneway: boolean;
  name: string;
  /** lat, lon of the nodes between the junctions. */
  shape: number[];
}

export interface OsmCity {
  /** Junctions by OSM node id. */
  junctions: Map<number, { lat: number; lon: number }>;
  segments: OsmSegment[];
  /** Street names (of roads and of addresses), with a point of each. */
  streets: Map<string, { lat: number; lon: number }>;
  houses: Array<{ street: string; number: string; lat: number; lon: number }>;
  places: Array<{ name: string; lat: number; lon: number }>;
  ways: number;
  bounds: { minLat: number; maxLat: number; minLon: number; maxLon: number };
}

const HIGHWAY_CLASS: Readonly<Record<string, RoadClass>> = {
  motorway: "MOTORWAY",
  motorway_link: "MOTORWAY",
  trunk: "TRUNK",
  trunk_link: "TRUNK",
  primary: "PRIMARY",
  primary_link: "PRIMARY",
  secondary: "SECONDARY",
  secondary_link: "SECONDARY",
  tertiary: "TERTIARY",
  tertiary_link: "TERTIARY",
  unclassified: "RESIDENTIAL",
  residential: "RESIDENTIAL",
  living_street: "RESIDENTIAL",
  road: "RESIDENTIAL",
  service: "SERVICE",
};

/** The class of a road a taxi may drive, or undefined (footways, tracks, private or closed roads, areas). */
export function roadClassOf(tags: Tags): RoadClass | undefined {
  const cls = tags.highway === undefined ? undefined : HIGHWAY_CLASS[tags.highway];
  if (!cls) return undefined;
  if (tags.area === "yes") return undefined;
  if (["no", "private"].includes(tags.access ?? "") || tags.motor_vehicle === "no" || tags.motorcar === "no") return undefined;
  return cls;
}

/** One-way, and whether against the order of its nodes (oneway=-1). */
export function onewayOf(tags: Tags): { oneway: boolean; reverse: boolean } {
  const v = tags.oneway;
  if (v === "-1" || v === "reverse") return { oneway: true, reverse: true };
  if (v === "yes" || v === "true" || v === "1") return { oneway: true, reverse: false };
  if (v === "no" || v === "false" || v === "0") return { oneway: false, reverse: false };
  const implied = tags.junction === "roundabout" || tags.junction === "circular" || tags.highway === "motorway" || tags.highway === "motorway_link";
  return { oneway: implied, reverse: false };
}

/** Names of places worth finding by name (the public places of the street search). */
function isPlace(tags: Tags): boolean {
  if (!tags.name) return false;
  return (
    tags.railway === "station" ||
    tags.aeroway === "aerodrome" ||
    tags.aeroway === "terminal" ||
    tags.public_transport === "station" ||
    tags.shop === "mall" ||
    ["hospital", "university", "college", "theatre", "cinema", "bus_station", "townhall", "stadium"].includes(tags.amenity ?? "") ||
    ["museum", "hotel", "attraction"].includes(tags.tourism ?? "") ||
    ["park", "stadium"].includes(tags.leisure ?? "")
  );
}

interface RoadWay {
  id: number;
  refs: number[];
  roadClass: RoadClass;
  oneway: boolean;
  name: string;
}

export async function extractCity(file: string): Promise<OsmCity> {
  // Pass 1: ways.
  const roads: RoadWay[] = [];
  const buildings: Array<{ refs: number[]; street: string; number: string }> = [];
  /** Uses of each node by roads (a way's ends count twice: they always cut). */
  const uses = new Map<number, number>();
  const wanted = new Set<number>();
  let ways = 0;
  for await (const e of readOsm(file, { nodes: false, ways: true })) {
    if (e.type !== "way") continue;
    ways++;
    const cls = roadClassOf(e.tags);
    if (cls && e.refs.length >= 2) {
      const { oneway, reverse } = onewayOf(e.tags);
      const refs = reverse ? [...e.refs].reverse() : e.refs;
      roads.push({ id: e.id, refs, roadClass: cls, oneway, name: (e.tags.name ?? "").trim() });
      refs.forEach((ref, k) => uses.set(ref, (uses.get(ref) ?? 0) + (k === 0 || k === refs.length - 1 ? 2 : 1)));
    }
    const street = e.tags["addr:street"]?.trim();
    const number = e.tags["addr:housenumber"]?.trim();
    if (street && number && e.refs.length > 0) {
      buildings.push({ refs: e.refs, street, number });
      for (const ref of e.refs) wanted.add(ref);
    }
  }

  // Pass 2: nodes.
  const coords = new Map<number, { lat: number; lon: number }>();
  const houses: OsmCity["houses"] = [];
  const places: OsmCity["places"] = [];
  const bounds = { minLat: Infinity, maxLat: -Infinity, minLon: Infinity, maxLon: -Infinity };
  for await (const e of readOsm(file, { nodes: true, ways: false })) {
    if (e.type !== "node") continue;
    if (uses.has(e.id) || wanted.has(e.id)) {
      coords.set(e.id, { lat: e.lat, lon: e.lon });
      bounds.minLat = Math.min(bounds.minLat, e.lat);
      bounds.maxLat = Math.max(bounds.maxLat, e.lat);
      bounds.minLon = Math.min(bounds.minLon, e.lon);
      bounds.maxLon = Math.max(bounds.maxLon, e.lon);
    }
    const street = e.tags["addr:street"]?.trim();
    const number = e.tags["addr:housenumber"]?.trim();
    if (street && number) houses.push({ street, number, lat: e.lat, lon: e.lon });
    if (isPlace(e.tags)) places.push({ name: e.tags.name!.trim(), lat: e.lat, lon: e.lon });
  }
  wanted.clear();

  // Buildings: at the middle of their outline.
  for (const b of buildings) {
    let lat = 0;
    let lon = 0;
    let n = 0;
    for (const ref of b.refs) {
      const c = coords.get(ref);
      if (!c) continue;
      lat += c.lat;
      lon += c.lon;
      n++;
    }
    if (n > 0) houses.push({ street: b.street, number: b.number, lat: lat / n, lon: lon / n });
  }

  // Roads cut at junctions. A node missing from the file (the extract's edge) cuts the road too.
  const junctions: OsmCity["junctions"] = new Map();
  const segments: OsmSegment[] = [];
  const streetPoints = new Map<string, { lat: number; lon: number; n: number }>();
  for (const road of roads) {
    let part = 0;
    let start = -1;
    let shape: number[] = [];
    let length = 0;
    let previous: { lat: number; lon: number } | undefined;
    for (let k = 0; k < road.refs.length; k++) {
      const ref = road.refs[k]!;
      const c = coords.get(ref);
      if (!c) {
        start = -1;
        previous = undefined;
        continue;
      }
      if (previous) length += haversineMetres(previous, c);
      previous = c;
      if (road.name) {
        const p = streetPoints.get(road.name) ?? { lat: 0, lon: 0, n: 0 };
        p.lat += c.lat;
        p.lon += c.lon;
        p.n++;
        streetPoints.set(road.name, p);
      }
      const cut = (uses.get(ref) ?? 0) >= 2 || k === road.refs.length - 1 || !coords.has(road.refs[k + 1]!);
      if (start === -1) {
        // The first node of a stretch starts a segment; it is a junction (a cut) by construction.
        start = ref;
        shape = [];
        length = 0;
        junctions.set(ref, c);
        continue;
      }
      if (!cut) {
        shape.push(c.lat, c.lon);
        continue;
      }
      junctions.set(ref, c);
      segments.push({ wayId: road.id, part: part++, from: start, to: ref, length: Math.round(length * 10) / 10, roadClass: road.roadClass, oneway: road.oneway, name: road.name, shape });
      start = ref;
      shape = [];
      length = 0;
    }
  }

  const streets: OsmCity["streets"] = new Map();
  for (const [name, p] of streetPoints) streets.set(name, { lat: p.lat / p.n, lon: p.lon / p.n });
  for (const h of houses) if (!streets.has(h.street)) streets.set(h.street, { lat: h.lat, lon: h.lon });
  return { junctions, segments, streets, houses, places, ways, bounds };
}
