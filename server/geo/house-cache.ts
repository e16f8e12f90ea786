// Houses this process has looked up, kept in memory: an address-form order
// or estimate otherwise pays a round trip to the database for its house,
// which on these machines costs as much as the order's own insert
// (docs/performance.md). The database says when to forget them: a trigger
// on `house` sends NOTIFY taxi_reference (migration house_notify), heard by
// the street index's listener, whose generation every entry is checked
// against; any street or house change empties the cache. Entries also
// expire after a minute, a bound on staleness should a notification be
// lost while the listener reconnects. Inside a transaction the database is
// asked (the transaction may have changed houses itself).
import { LRUCache } from "lru-cache";
import { connectionOf, type DbOrTx } from "../db";
import { referenceGeneration } from "./street-index";
import { cacheSizes } from "../metrics/collectors";

export interface CachedHouse {
  number: string;
  lat: number;
  lon: number;
  regionId: number | null;
}

/** Enough for a large city's busy addresses; each entry is a few hundred bytes. */
const MAX_HOUSES = 20_000;
const TTL_MS = 60_000;

interface State {
  generation: number;
  /** `missing`: the house is not in the database (asked again and again by typos too). */
  houses: LRUCache<string, CachedHouse | { missing: true }>;
}

const key = Symbol.for("taxi.houseCache");
type Holder = { [key]?: State };

function cacheFor(db: DbOrTx): State | undefined {
  if (!connectionOf(db)) return undefined;
  const generation = referenceGeneration();
  if (generation === undefined) return undefined;
  const holder = globalThis as Holder;
  if (holder[key]?.generation !== generation) holder[key] = { generation, houses: new LRUCache({ max: MAX_HOUSES, ttl: TTL_MS }) };
  return holder[key];
}

/** The house, from memory when known there; `find` asks the database. */
export async function cachedHouse(db: DbOrTx, streetId: number, numberKey: string, find: () => Promise<CachedHouse | undefined>): Promise<CachedHouse | undefined> {
  const cache = cacheFor(db);
  const id = `${streetId}:${numberKey}`;
  const hit = cache?.houses.get(id);
  if (hit) return "missing" in hit ? undefined : hit;
  const found = await find();
  // Kept only if nothing changed while the database was asked.
  if (cache && cacheFor(db) === cache) cache.houses.set(id, found ?? { missing: true });
  return found;
}

/** For tests and the metrics (taxi_cache_entries{cache="houses"}). */
export function houseCacheSize(): number {
  return (globalThis as Holder)[key]?.houses.size ?? 0;
}
cacheSizes().set("houses", houseCacheSize);
