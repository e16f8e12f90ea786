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
  // Sparse: each order's candidate pairs (the rules and the radius), and of
  // them only its `rows.length` cheapest. That keeps an optimal assignment:
  // an order given a column outside its k cheapest (k orders in all) always
  // has one of those k left free by the other k - 1 orders, at no more cost.
  // So the matrix is orders × (the union of those columns), not orders × the
  // fleet (300 × 10,000 at the evening peak; docs/performance.md).
  const free = drivers.map((d, j) => ({ d, j })).filter(({ d }) => !taken.has(d.id));
  const pairs = orderIndexes.map((i) => {
    const o = orders[i]!;
    const list: Array<{ j: number; cost: number }> = [];
    for (const { d, j } of free) {
      const seconds = arrival(i, j);
      if (isCandidate(o, d, seconds)) list.push({ j, cost: costOf(o, d, seconds!) - ageWeight * o.waitingSeconds });
    }
    return { i, list };
  });
  const withCandidates = pairs.filter((p) => p.list.length > 0);
  const k = withCandidates.length;
  const keep = new Set<number>();
  for (const p of withCandidates) {
    // Ties by the driver's place in the input, as the dense matrix had them.
    p.list.sort((a, b) => a.cost - b.cost || a.j - b.j);
    for (const c of p.list.slice(0, k)) keep.add(c.j);
  }
  const cols = free.filter(({ j }) => keep.has(j));
  // Rows that have no candidate at all only slow the algorithm down.
  const rows = withCandidates.map((p) => p.i);
  if (rows.length === 0 || cols.length === 0) return [];
  const costs = new Map(withCandidates.map((p) => [p.i, new Map(p.list.map((c) => [c.j, c.cost]))]));
  const matrix = rows.map((i) => {
    const mine = costs.get(i)!;
    return cols.map(({ j }) => mine.get(j) ?? FORBIDDEN);
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
