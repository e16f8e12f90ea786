// Demand: when the free orders of a region outnumber its free drivers, the
// price rises by DEMAND_STEP_PERCENT per order in excess, up to
// DEMAND_MAX_PERCENT.
//
// Every estimate and every priced order needs it, so the counts of a region
// are read at most once per DEMAND_CACHE_MS (one raw query for both) and
// shared by the requests of that moment: a market signal a second old prices
// the same as a fresh one, and under load this takes a query off each request.
import type { DbOrTx } from "../db";
import { rawQuery } from "../db/sql";
import { FREE_STATES, codeOf } from "../orders/states";

const DEMAND_CACHE_MS = 1_000;
const FREE_CODES = FREE_STATES.map(codeOf);

const COUNTS_SQL = `
  SELECT (SELECT count(*)::int FROM orders WHERE region_id = $1 AND status_code IN (${FREE_CODES.join(", ")})) AS "freeOrders",
         (SELECT count(*)::int FROM driver WHERE region_id = $1 AND state = 'FREE' AND active) AS "freeDrivers"`;

interface Counts {
  freeOrders: number;
  freeDrivers: number;
}

const key = Symbol.for("taxi.demandCache");
type Holder = { [key]?: Map<number, { at: number; counts: Promise<Counts> }> };

function cache(): Map<number, { at: number; counts: Promise<Counts> }> {
  const holder = globalThis as Holder;
  holder[key] ??= new Map();
  return holder[key];
}

function regionCounts(db: DbOrTx, regionId: number): Promise<Counts> {
  const now = Date.now();
  const hit = cache().get(regionId);
  if (hit && now - hit.at < DEMAND_CACHE_MS) return hit.counts;
  // by code: the (region_id, status_code) index answers it
  const counts = rawQuery(db)<Counts>(COUNTS_SQL, [regionId]).then((rows) => rows[0] ?? { freeOrders: 0, freeDrivers: 0 });
  cache().set(regionId, { at: now, counts });
  counts.catch(() => {
    if (cache().get(regionId)?.counts === counts) cache().delete(regionId);
  });
  return counts;
}

export async function demandMarkupPercent(
  db: DbOrTx,
  regionId: number | null,
  settings: { stepPercent: number; maxPercent: number },
): Promise<number> {
  if (regionId === null || settings.stepPercent === 0) return 0;
  const { freeOrders, freeDrivers } = await regionCounts(db, regionId);
  const excess = freeOrders - freeDrivers;
  return excess > 0 ? Math.min(settings.maxPercent, excess * settings.stepPercent) : 0;
}
