// Batched assignment: the free orders against the free drivers as one
// assignment problem (Hungarian algorithm, the `munkres` package, which takes
// rectangular matrices), minimising the total cost: arrival times with the
// drivers' fairness weight, less an optional weight for how long each order
// has waited (production: none — the comparison found it did not help,
// docs/dispatch.md; server/dispatch/core/defaults.ts).
import { munkres } from "munkres";
import { costOf, isCandidate } from "./eligibility";
import { PRODUCTION_DEFAULT } from "./defaults";
import type { ArrivalOf, Assignment, DriverToDispatch, OrderToDispatch } from "./types";

/** The cost of a pair that may not be chosen; kept finite so that sums stay numbers. */
const FORBIDDEN = 1e9;

/** Seconds of cost one second of an order's waiting takes off: production's (defaults.ts). */
export const ORDER_AGE_WEIGHT = PRODUCTION_DEFAULT.ageWeight;

export function batchedAssign(
  orders: readonly OrderToDispatch[],
  drivers: readonly DriverToDispatch[],
  arrival: ArrivalOf,
  taken: Set<number> = new Set(),
  orderIndexes: readonly number[] = orders.map((_, i) => i),
  ageWeight: number = ORDER_AGE_WEIGHT,
): Assignment[] {
  const cols = drivers.map((d, j) => ({ d, j })).filter(({ d }) => !taken.has(d.id));
  // Rows that have no candidate at all only slow the algorithm down.
  const rows = orderIndexes.filter((i) => cols.some(({ d, j }) => isCandidate(orders[i]!, d, arrival(i, j))));
  if (rows.length === 0 || cols.length === 0) return [];
  const matrix = rows.map((i) => {
    const o = orders[i]!;
    return cols.map(({ d, j }) => {
      const seconds = arrival(i, j);
      if (!isCandidate(o, d, seconds)) return FORBIDDEN;
      return costOf(o, d, seconds!) - ageWeight * o.waitingSeconds;
    });
  });
  const out: Assignment[] = [];
  for (const [r, c] of munkres(matrix)) {
    if (matrix[r]![c]! >= FORBIDDEN / 2) continue;
    const i = rows[r]!;
    const { d, j } = cols[c]!;
    taken.add(d.id);
    out.push({ orderId: orders[i]!.id, driverId: d.id, arrivalSeconds: Math.round(arrival(i, j)! + d.busyForSeconds), source: "BATCH", chain: d.busyForSeconds > 0 });
  }
  return out;
}
