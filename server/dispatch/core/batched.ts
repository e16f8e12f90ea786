// Batched assignment: the free orders against the free drivers as one
// assignment problem (Hungarian algorithm, the `munkres` package, which takes
// rectangular matrices), minimising the total cost: arrival times with the
// drivers' fairness weight, less an optional weight for how long each order
// has waited (production: none — the comparison found it did not help,
// docs/dispatch.md; server/dispatch/core/defaults.ts).
import { munkres } from "munkres";
import { costOf, isCandidate } from "./eligibility";
import { PRODUCTION_DEFAULT } from "./defaults";
import { driversFor, type ArrivalOf, type Assignment, type CandidatesOf, type DriverToDispatch, type OrderToDispatch } from "./types";

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
  candidatesOf?: CandidatesOf,
): Assignment[] {
  // Sparse: each order's candidate pairs (the rules and the radius; only
  // among `candidatesOf` when the round knows them), and of them only its k
  // cheapest, k being one more than its rivals (the other orders sharing a
  // candidate with it). That keeps an optimal assignment: an order given a
  // column outside its k cheapest always has one of those k left free (only
  // its rivals can hold them, at most k - 1), at no more cost. So the matrix
  // is orders × (the union of those columns), not orders × the fleet
  // (300 × 10,000 at the evening peak; docs/performance.md).
  const pairs = orderIndexes.map((i) => {
    const o = orders[i]!;
    const list: Array<{ j: number; cost: number }> = [];
    for (const j of driversFor(candidatesOf, i, drivers)) {
      const d = drivers[j]!;
      if (taken.has(d.id)) continue;
      const seconds = arrival(i, j);
      if (isCandidate(o, d, seconds)) list.push({ j, cost: costOf(o, d, seconds!) - ageWeight * o.waitingSeconds });
    }
    return { i, list };
  });
  const withCandidates = pairs.filter((p) => p.list.length > 0);
  const ordersOf = new Map<number, number[]>();
  withCandidates.forEach((p, r) => {
    for (const { j } of p.list) {
      const list = ordersOf.get(j);
      if (list) list.push(r);
      else ordersOf.set(j, [r]);
    }
  });
  const keep = new Set<number>();
  // Rivals counted with a mark per order (the round's 300 orders share ~50,000 pairs: no set per order).
  const seen = new Int32Array(withCandidates.length).fill(-1);
  withCandidates.forEach((p, r) => {
    let rivals = 0;
    seen[r] = r;
    for (const { j } of p.list) {
      for (const other of ordersOf.get(j)!) {
        if (seen[other] === r) continue;
        seen[other] = r;
        rivals++;
      }
    }
    // Ties by the driver's place in the input, as the dense matrix had them.
    p.list.sort((a, b) => a.cost - b.cost || a.j - b.j);
    for (const c of p.list.slice(0, rivals + 1)) keep.add(c.j);
  });
  const cols = [...keep].sort((a, b) => a - b).map((j) => ({ d: drivers[j]!, j }));
  // Rows that have no candidate at all only slow the algorithm down.
  const rows = withCandidates.map((p) => p.i);
  if (rows.length === 0 || cols.length === 0) return [];
  // Each row FORBIDDEN but at its own pairs' columns: the pairs written
  // once, not a lookup per cell (a round's ~300 × 3,700 cells by map lookups
  // were most of its assignment's time; docs/performance.md).
  const columnOf = new Int32Array(drivers.length).fill(-1);
  cols.forEach(({ j }, c) => (columnOf[j] = c));
  const matrix = withCandidates.map((p) => {
    const row = new Array<number>(cols.length).fill(FORBIDDEN);
    for (const { j, cost } of p.list) {
      const c = columnOf[j]!;
      if (c >= 0) row[c] = cost;
    }
    return row;
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
