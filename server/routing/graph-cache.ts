// The road graphs of the cities in memory, one per city per process, loaded
// on first use and again after a change: statement triggers on road_node,
// road_segment and road_speed NOTIFY `taxi_road` (migration road_network),
// whoever writes. As for the street index (geo/street-index.ts), a
// generation counter bumped by every notification tells whether a graph in
// hand was read after the last change; a load that started before a change
// serves those already waiting for it but is not kept as current. Unlike
// the street index, an out-of-date graph is served while the new one loads.
import { connection, type Connection, type DbOrTx } from "../db";
import { rawQuery } from "../db/sql";
import { listenChannel } from "../db/listen";
import { log } from "../log";
import { citiesWithRoads, readCityNetwork } from "./data";
import { RoadGraph } from "./graph";
import { Router } from "./search";

export const ROAD_CHANNEL = "taxi_road";

/** A city's router; none when the city has no roads. */
export interface CityRoads {
  cityId: number;
  timezone: string;
  router: Router | undefined;
  loadMs: number;
}

interface CityState {
  current?: { roads: CityRoads; generation: number };
  loading?: { promise: Promise<CityRoads>; generation: number };
}

interface State {
  conn: Connection;
  generation: number;
  cities: Map<number, CityState>;
  listening?: Promise<void>;
  loads: number;
}

// On globalThis: the custom server and Next's bundle share one set of graphs.
const key = Symbol.for("taxi.roadGraphs");
type Holder = { [key]?: State };

function state(): State {
  const conn = connection();
  const holder = globalThis as Holder;
  let s = holder[key];
  if (!s || s.conn !== conn) {
    s = { conn, generation: 0, cities: new Map(), loads: 0 };
    holder[key] = s;
  }
  return s;
}

/** Reads and builds a city's graph and its landmarks. */
export async function buildCityRoads(db: DbOrTx, cityId: number): Promise<CityRoads> {
  const t0 = performance.now();
  const network = await readCityNetwork(rawQuery(db), cityId);
  const graph = network && network.segments.length > 0 ? new RoadGraph(network) : undefined;
  const router = graph && graph.segmentCount > 0 ? new Router(graph) : undefined;
  return { cityId, timezone: network?.timezone ?? "UTC", router, loadMs: Math.round(performance.now() - t0) };
}

function ensureListening(s: State): Promise<void> {
  s.listening ??= listenChannel(s.conn, ROAD_CHANNEL, {
    notify: () => void s.generation++,
    resync: () => void s.generation++,
  }).catch((error: unknown) => log.warn("road graphs: not listening for changes", error));
  return s.listening;
}

async function reload(s: State, city: CityState, cityId: number): Promise<CityRoads> {
  // Listening first: a change committed after the read is then noticed.
  await ensureListening(s);
  if (city.loading && city.loading.generation === s.generation) return city.loading.promise;
  const generation = s.generation;
  const promise = (async () => {
    s.loads++;
    const roads = await buildCityRoads(s.conn.prisma, cityId);
    if (!city.current || city.current.generation <= generation) city.current = { roads, generation };
    if (roads.router) log.info("road graph loaded", { cityId, segments: roads.router.graph.segmentCount, ms: roads.loadMs });
    return roads;
  })();
  city.loading = { promise, generation };
  promise
    .finally(() => {
      if (city.loading?.promise === promise) city.loading = undefined;
    })
    .catch(() => undefined);
  return promise;
}

/**
 * The city's roads in this process. The first use waits for the graph to
 * load. After a change the graph in hand keeps answering while the new one
 * loads in the background (a large city takes seconds to load; a route a
 * moment old is harmless, and an estimate must not wait that long). Inside
 * a transaction (a `db` other than the process's client) with no graph in
 * hand the answer is "no roads" (the caller falls back to the straight line)
 * and the graph is loaded in the background: reading a city's network
 * inside a transaction would hold its locks for as long, and the process's
 * own connection may be the one the transaction holds.
 */
export async function cityRoads(db: DbOrTx, cityId: number): Promise<CityRoads> {
  const s = state();
  let city = s.cities.get(cityId);
  if (!city) s.cities.set(cityId, (city = {}));
  const current = city.current;
  if (current && current.generation === s.generation) return current.roads;
  if (current || db !== s.conn.prisma) {
    // Out of date (or in a transaction): load in the background and answer now.
    if (!city.loading || city.loading.generation !== s.generation) {
      reload(s, city, cityId).catch((error: unknown) => log.warn("road graph: background load failed", error));
    }
    return current ? current.roads : { cityId, timezone: "UTC", router: undefined, loadMs: 0 };
  }
  return reload(s, city, cityId);
}

/** Loads the graph of every city that has roads, one after another (at start-up, so that no request waits for it). */
export async function warmRoadGraphs(db: DbOrTx): Promise<void> {
  for (const cityId of await citiesWithRoads(rawQuery(db))) await cityRoads(db, cityId);
}

/** Call after changing roads through this instance (the notification follows anyway). */
export function forgetRoads(): void {
  const s = (globalThis as Holder)[key];
  if (s) s.generation++;
}

/** For tests and diagnostics. */
export function roadGraphStatus(): { loads: number; generation: number; cities: Array<{ cityId: number; current: boolean; segments: number }> } {
  const s = state();
  return {
    loads: s.loads,
    generation: s.generation,
    cities: [...s.cities].map(([cityId, c]) => ({ cityId, current: c.current?.generation === s.generation, segments: c.current?.roads.router?.graph.segmentCount ?? 0 })),
  };
}
