// The streets of all cities in memory, one index per process, so that street
// search and lookup never go to the database on a request. It answers exactly
// what the SQL over `street`/`street_word` answered (see searchStreets), from
// the same rows: every street with the words stored for it in street_word.
//
// Freshness is decided by the database: statement triggers on street and
// street_word NOTIFY on `taxi_reference` (migration street_index_notify), so a
// change by any writer (the console, a script, another instance, a test
// writing directly) makes the next use load the index again. A generation
// counter, bumped by every notification, tells whether the index in hand was
// read after the last change: a load that started before a change is used by
// those already waiting for it, but is not kept as current. On PostgreSQL, as
// a safety net, an index older than MAX_AGE_MS is reloaded in the background
// (the old one is served meanwhile). Not on PGlite: every writer is this
// process, whose notifications cannot be lost, and a reload there runs on the
// server's own thread (the PGlite soak showed it as a p99 spike every five
// minutes, docs/performance.md).
import { connection, type Connection, type DbOrTx } from "../db";
import { rawQuery, type RawQuery } from "../db/sql";
import { listenChannel } from "../db/listen";
import { log } from "../log";
import { normalizeForSearch, searchWords } from "./normalize";

export interface StreetMatch {
  id: number;
  cityId: number;
  fullName: string;
  kind: "STREET" | "PUBLIC_PLACE";
  lat: number;
  lon: number;
}

export interface StreetSearch {
  pattern: string;
  cityId?: number;
  limit?: number;
}

/** The channel the triggers notify (payload: the table group, "street"). */
export const REFERENCE_CHANNEL = "taxi_reference";
const MAX_AGE_MS = 5 * 60_000;
/** After a failed background reload, the next attempt waits this long. */
const RETRY_MS = 5_000;
/** At most this many words of a pattern are matched (as the SQL did). */
const MAX_PATTERN_WORDS = 6;

/** One row per street with its stored words in position order (null: none). */
export const STREET_INDEX_SQL = `
  SELECT s.id, s.city_id AS "cityId", s.kind::text AS kind, s.name, s.full_name AS "fullName",
         s.search_key AS "searchKey", s.lat, s.lon, w.words
    FROM street s
    LEFT JOIN (SELECT street_id, array_agg(word ORDER BY position) AS words FROM street_word GROUP BY street_id) w
      ON w.street_id = s.id`;

export interface StreetRow {
  id: number;
  cityId: number;
  kind: string;
  name: string;
  fullName: string;
  searchKey: string;
  lat: number;
  lon: number;
  words: string[] | null;
}

// ------------------------------------------------------------ string rules

/** length() of PostgreSQL: characters (code points), not UTF-16 units. */
function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const h = s.charCodeAt(i - 1);
      if (h >= 0xd800 && h <= 0xdbff) n--;
    }
  }
  return n;
}

/**
 * The order of the C / C.UTF-8 collations (byte order of UTF-8): code point
 * order. It differs from UTF-16 unit order only between astral characters
 * and U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x += x >= 0xe000 ? -0x800 : 0x2000;
    if (y >= 0xd800) y += y >= 0xe000 ? -0x800 : 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * lower() of PostgreSQL on a UTF-8 database (towlower, character by
 * character): the simple case mapping, so one character stays one ("İ" gives
 * "i", where JavaScript's toLowerCase gives "i̇").
 */
function lowerLikeDb(s: string): string {
  // toLowerCase differs from the simple mapping only for U+0130 and the
  // final sigma (SpecialCasing); elsewhere it is the same, and faster.
  if (!/[\u0130\u03a3]/.test(s)) return s.toLowerCase();
  let out = "";
  for (const ch of s) {
    const lower = ch.toLowerCase();
    out += lower === ch ? ch : String.fromCodePoint(lower.codePointAt(0)!);
  }
  return out;
}

/** Index of the first entry of the sorted `words` that is >= `key` (UTF-16 unit order). */
function lowerBound(words: readonly string[], key: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The end of the range of words beginning with `prefix` that starts at `lo`
 * (its lower bound): the words from there that begin with it come first.
 */
function prefixEnd(words: readonly string[], prefix: string, lo: number): number {
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]!.startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ------------------------------------------------------------ the index

export class StreetIndex {
  readonly size: number;
  /** Returned (copied) to callers, by street position. */
  private readonly streets: readonly StreetMatch[];
  private readonly cityIds: Int32Array;
  private readonly searchKeys: readonly string[];
  /** lower(replace(name, 'ё', 'е')) as the database computes it. */
  private readonly nameKeys: readonly string[];
  /** The words stored for each street. */
  private readonly ownWords: readonly (readonly string[])[];
  /** Position of each street in the order length(full_name), full_name, id. */
  private readonly rankInOrder: Int32Array;
  /** The street at each position of that order. */
  private readonly byOrder: Int32Array;
  /** The distinct words, sorted (UTF-16 unit order): the words with a prefix are one range. */
  private readonly words: readonly string[];
  /** The streets of words[i]: wordStreets[wordStart[i] .. wordStart[i + 1]). */
  private readonly wordStart: Int32Array;
  private readonly wordStreets: Int32Array;
  /** search_key -> the street, or the streets (lowest id first) when several cities have it. */
  private readonly byKey: Map<string, number | number[]>;
  // Scratch space of one (synchronous) search at a time.
  private readonly seen: Uint32Array;
  private stamp = 0;
  private readonly keys: Float64Array;
  /** The whole list per city (key: city id, 0 for all cities), made on first ask: the index is rebuilt on change. */
  private readonly wholeLists = new Map<number, readonly string[]>();

  constructor(rows: readonly StreetRow[]) {
    const sorted = [...rows].sort((a, b) => a.id - b.id);
    const n = sorted.length;
    this.size = n;
    this.streets = sorted.map((r) =>
      Object.freeze({ id: r.id, cityId: r.cityId, fullName: r.fullName, kind: r.kind as StreetMatch["kind"], lat: r.lat, lon: r.lon }),
    );
    this.cityIds = Int32Array.from(sorted, (r) => r.cityId);
    this.searchKeys = sorted.map((r) => r.searchKey);
    this.nameKeys = sorted.map((r) => lowerLikeDb(r.name.replace(/ё/g, "е")));
    // One string per distinct word, shared by the streets that have it.
    const byWord = new Map<string, { word: string; streets: number[] }>();
    this.ownWords = sorted.map((r, street) =>
      (r.words ?? []).map((word) => {
        let entry = byWord.get(word);
        if (!entry) byWord.set(word, (entry = { word, streets: [] }));
        if (entry.streets.at(-1) !== street) entry.streets.push(street);
        return entry.word;
      }),
    );
    this.words = [...byWord.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.wordStart = new Int32Array(this.words.length + 1);
    let total = 0;
    this.words.forEach((word, i) => {
      this.wordStart[i] = total;
      total += byWord.get(word)!.streets.length;
    });
    this.wordStart[this.words.length] = total;
    this.wordStreets = new Int32Array(total);
    this.words.forEach((word, i) => this.wordStreets.set(byWord.get(word)!.streets, this.wordStart[i]));

    const lengths = sorted.map((r) => codePointLength(r.fullName));
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => lengths[a]! - lengths[b]! || compareCodePoints(sorted[a]!.fullName, sorted[b]!.fullName) || a - b);
    this.byOrder = Int32Array.from(order);
    this.rankInOrder = new Int32Array(n);
    order.forEach((street, position) => (this.rankInOrder[street] = position));

    this.byKey = new Map();
    sorted.forEach((r, street) => {
      const known = this.byKey.get(r.searchKey);
      if (known === undefined) this.byKey.set(r.searchKey, street);
      else if (typeof known === "number") this.byKey.set(r.searchKey, [known, street]);
      else known.push(street);
    });
    this.seen = new Uint32Array(n);
    this.keys = new Float64Array(n);
  }

  /** The street whose search_key is `key` (lowest id), within the city when given. */
  exact(key: string, cityId?: number): StreetMatch | undefined {
    const known = this.byKey.get(key);
    if (known === undefined) return undefined;
    for (const street of typeof known === "number" ? [known] : known) {
      if (cityId === undefined || this.cityIds[street] === cityId) return { ...this.streets[street]! };
    }
    return undefined;
  }

  /**
   * Streets whose words include, for every word of the pattern (at most 6),
   * one beginning with it; within the city when given. Ordered by rank (0: the
   * search key or the name begins with the whole pattern, 1: the name begins
   * with the first word, 2: the rest), then length(full_name), full_name (code
   * point order), id. At most `limit` (1..200, default 50).
   */
  search(input: StreetSearch): StreetMatch[] {
    const words = searchWords(input.pattern).slice(0, MAX_PATTERN_WORDS);
    if (words.length === 0 || this.size === 0) return [];
    const limit = Math.floor(Math.min(Math.max(input.limit ?? 50, 1), 200));
    const normalized = normalizeForSearch(input.pattern);
    const first = words[0]!;
    const cityId = input.cityId;

    // The pattern word with the fewest (word, street) pairs drives the scan;
    // a street may come more than once (several of its words in the range).
    let from = 0;
    let to = 0;
    let driver = -1;
    for (let w = 0; w < words.length; w++) {
      const prefix = words[w]!;
      const lo = lowerBound(this.words, prefix);
      const hi = prefixEnd(this.words, prefix, lo);
      if (hi === lo) return [];
      const start = this.wordStart[lo]!;
      const end = this.wordStart[hi]!;
      if (driver === -1 || end - start < to - from) {
        driver = w;
        from = start;
        to = end;
      }
    }

    if (++this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    const size = this.size;
    const keys = this.keys;
    let count = 0;
    for (let i = from; i < to; i++) {
      const street = this.wordStreets[i]!;
      if (this.seen[street] === stamp) continue;
      this.seen[street] = stamp;
      if (cityId !== undefined && this.cityIds[street] !== cityId) continue;
      if (words.length > 1 && !this.hasAllWords(street, words, driver)) continue;
      const nameKey = this.nameKeys[street]!;
      const rank = this.searchKeys[street]!.startsWith(normalized) || nameKey.startsWith(normalized) ? 0 : nameKey.startsWith(first) ? 1 : 2;
      keys[count++] = rank * size + this.rankInOrder[street]!;
    }
    const chosen = keys.subarray(0, count);
    if (count > limit) selectSmallest(chosen, limit);
    const top = chosen.subarray(0, Math.min(limit, count)).sort();
    const out: StreetMatch[] = new Array(top.length);
    for (let i = 0; i < top.length; i++) out[i] = { ...this.streets[this.byOrder[top[i]! % size]!]! };
    return out;
  }

  /**
   * Every street and public place of the city (of all cities without one):
   * each full name once, ordered by the name without its prefix, then the
   * full name, in code point order, so that every instance answers alike.
   * Chat bots download this nightly and build their own pickers from it.
   */
  names(cityId?: number): readonly string[] {
    const cached = this.wholeLists.get(cityId ?? 0);
    if (cached) return cached;
    const chosen: number[] = [];
    for (let street = 0; street < this.size; street++) {
      if (cityId === undefined || this.cityIds[street] === cityId) chosen.push(street);
    }
    chosen.sort(
      (a, b) =>
        compareCodePoints(this.nameKeys[a]!, this.nameKeys[b]!) ||
        compareCodePoints(this.streets[a]!.fullName, this.streets[b]!.fullName) ||
        a - b,
    );
    const list = Object.freeze([...new Set(chosen.map((street) => this.streets[street]!.fullName))]);
    this.wholeLists.set(cityId ?? 0, list);
    return list;
  }

  private hasAllWords(street: number, words: readonly string[], skip: number): boolean {
    const own = this.ownWords[street]!;
    for (let w = 0; w < words.length; w++) {
      if (w === skip) continue;
      const prefix = words[w]!;
      let found = false;
      for (const word of own) {
        if (word.startsWith(prefix)) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
  }
}

/** Moves the k smallest values of `a` to its first k places (unordered): quickselect. */
function selectSmallest(a: Float64Array, k: number): void {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}

/** Reads every street with its words and builds the index. */
export async function loadStreetIndex(query: RawQuery): Promise<StreetIndex> {
  return new StreetIndex(await query<StreetRow>(STREET_INDEX_SQL));
}

// ------------------------------------------------------------ per process

interface State {
  conn: Connection;
  /** Bumped by every change notification (and by a reconnection of the listener). */
  generation: number;
  current?: { index: StreetIndex; generation: number; loadedAt: number };
  loading?: { promise: Promise<StreetIndex>; generation: number };
  listening?: Promise<void>;
  /** Whether the listener's first attempt has finished (a later reconnection bumps the generation). */
  listened?: boolean;
  loads: number;
}

// On globalThis: the custom server and Next's bundle each load their own copy
// of this module in one process, and must share one index and one listener.
const key = Symbol.for("taxi.streetIndex");
type Holder = { [key]?: State };

function state(): State {
  const conn = connection();
  const holder = globalThis as Holder;
  let s = holder[key];
  if (!s || s.conn !== conn) {
    s = { conn, generation: 0, loads: 0 };
    holder[key] = s;
  }
  return s;
}

function ensureListening(s: State): Promise<void> {
  s.listening ??= listenChannel(s.conn, REFERENCE_CHANNEL, {
    notify: () => void s.generation++,
    resync: () => void s.generation++,
  })
    .then(() => void (s.listened = true))
    .catch((error: unknown) => log.warn("street index: not listening for changes", error));
  return s.listening;
}

async function reload(s: State): Promise<StreetIndex> {
  // Listening first: a change committed after the read below is then noticed.
  await ensureListening(s);
  if (s.loading && s.loading.generation === s.generation) return s.loading.promise;
  const generation = s.generation;
  const loadedAt = Date.now();
  const promise = (async () => {
    s.loads++;
    const index = await loadStreetIndex(s.conn.query);
    if (!s.current || s.current.generation <= generation) s.current = { index, generation, loadedAt };
    return index;
  })();
  s.loading = { promise, generation };
  // A failed load is not kept: the next use tries again.
  promise
    .finally(() => {
      if (s.loading?.promise === promise) s.loading = undefined;
    })
    .catch(() => undefined);
  return promise;
}

/**
 * The process's street index, loaded on first use and again after a change.
 * Inside a transaction (a `db` other than the process's client) an index not
 * yet loaded or out of date is read through that transaction and not kept:
 * the process's own connection may be the one the transaction holds.
 */
export async function streetIndex(db: DbOrTx): Promise<StreetIndex> {
  const s = state();
  const current = s.current;
  if (current && current.generation === s.generation) {
    if (!s.conn.pglite && Date.now() - current.loadedAt > MAX_AGE_MS && !s.loading) {
      reload(s).catch((error: unknown) => {
        log.warn("street index: background reload failed", error);
        // Keep serving it; try again a little later rather than on every request.
        current.loadedAt = Date.now() - MAX_AGE_MS + RETRY_MS;
      });
    }
    return current.index;
  }
  if (db !== s.conn.prisma) return loadStreetIndex(rawQuery(db));
  return reload(s);
}

/**
 * The generation of this process's reference data: bumped by every change
 * notification (streets, their words, houses) and by a reconnection of the
 * listener. Undefined until the listener is in place: a cache keyed by it
 * must not keep anything then (server/geo/house-cache.ts).
 */
export function referenceGeneration(): number | undefined {
  const s = (globalThis as Holder)[key];
  return s?.listened ? s.generation : undefined;
}

/** Call after changing streets through this instance (the notification follows anyway). */
export function forgetStreets(): void {
  const s = (globalThis as Holder)[key];
  if (s) s.generation++;
}

/** For tests and diagnostics: how many loads, whether the index in hand is current, and whether a load is under way. */
export function streetIndexStatus(): { loads: number; generation: number; current: boolean; loading: boolean; streets: number } {
  const s = state();
  return { loads: s.loads, generation: s.generation, current: s.current?.generation === s.generation, loading: s.loading !== undefined, streets: s.current?.index.size ?? 0 };
}
