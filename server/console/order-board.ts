// Read model of the order board: server-side filtering and cursor paging
// (newest first, by id), the moderation queue, per-group counts, and the
// rows of given orders under the board's filter (for live patching). The SQL
// is in board-data.ts.
import type { Db } from "../db";
import { groupOfState, type BoardGroup, type ParsedBoardFilter } from "../../shared/orders/board-filter";
import { isOrderState, NOT_DONE_STATES } from "../orders/states";
import { subscribe } from "../events/bus";
import { countByState, selectBoardPage, selectBoardRows, selectModerationQueue } from "./board-data";
import { BoardRowPage, type BoardRow } from "../../shared/board-wire";

export type { BoardRow } from "../../shared/board-wire";

/** A page of the board; its rows travel as compact tuples (shared/board-wire.ts). */
export async function listBoardOrders(db: Db, input: { filter: ParsedBoardFilter; cursor?: number | null; limit: number }): Promise<BoardRowPage> {
  const rows = await selectBoardPage(db, { ...input, limit: input.limit + 1 });
  const items = rows.slice(0, input.limit);
  return new BoardRowPage(items, rows.length > input.limit ? (items.at(-1)?.id ?? null) : null);
}

/** The rows among `ids` that match the filter (the others left it or never were on it). */
export async function boardRowsByIds(db: Db, input: { filter: ParsedBoardFilter; ids: number[] }): Promise<BoardRow[]> {
  if (!input.ids.length) return [];
  return selectBoardRows(db, input.filter, input.ids);
}

/** Orders waiting for a dispatcher's decision, oldest first. */
export async function listModerationQueue(db: Db, limit = 100): Promise<{ items: BoardRow[]; total: number }> {
  return selectModerationQueue(db, limit);
}

export type GroupCounts = Record<Exclude<BoardGroup, "done" | "all">, number>;

// The tab badges' counts are kept until an order is created or changes (the
// event bus: this instance's changes and, on PostgreSQL, the other
// instances'): every open console asks for them on every live event and on
// every load, and counting 10,000 active orders each time was most of a
// board load's database work. A change that arrives while a count is running
// discards that count's result. Kept at most COUNTS_MAX_AGE_MS, so a change
// made without an event (plain SQL) shows within seconds.
const COUNTS_MAX_AGE_MS = 5_000;
const countsKey = Symbol.for("taxi.boardCounts");
interface CountsCache { value?: Promise<GroupCounts>; at: number; generation: number; off?: () => void }
type Holder = { [countsKey]?: CountsCache };

function countsCache(): CountsCache {
  const holder = globalThis as Holder;
  if (!holder[countsKey]) {
    const cache: CountsCache = { at: 0, generation: 0 };
    cache.off = subscribe((event) => {
      if (event.type === "order.changed" || event.type === "order.created") {
        cache.generation++;
        cache.value = undefined;
      }
    });
    holder[countsKey] = cache;
  }
  return holder[countsKey];
}

async function countGroups(db: Db): Promise<GroupCounts> {
  const counts: GroupCounts = { active: 0, moderation: 0, free: 0, assigned: 0, preorders: 0 };
  for (const row of await countByState(db, NOT_DONE_STATES)) {
    if (!isOrderState(row.state)) continue;
    counts.active += row.n;
    const group = groupOfState(row.state);
    if (group !== "done") counts[group] += row.n;
  }
  return counts;
}

/** How many unfinished orders each group holds (the board's tab badges). */
export async function countBoardGroups(db: Db): Promise<GroupCounts> {
  const cache = countsCache();
  if (cache.value && Date.now() - cache.at < COUNTS_MAX_AGE_MS) return { ...(await cache.value) };
  const generation = cache.generation;
  const value = countGroups(db);
  cache.value = value;
  cache.at = Date.now();
  value.then(
    () => {
      if (cache.generation !== generation && cache.value === value) cache.value = undefined;
    },
    () => {
      if (cache.value === value) cache.value = undefined;
    },
  );
  return { ...(await value) };
}
