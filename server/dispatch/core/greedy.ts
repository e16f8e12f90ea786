// The greedy rule: orders oldest first, each to its cheapest candidate not
// yet taken in this round (nearest first, fairness as a tie-breaker weight).
import { costOf, isCandidate } from "./eligibility";
import { driversFor, type ArrivalOf, type Assignment, type CandidatesOf, type DriverToDispatch, type OrderToDispatch } from "./types";

export function greedyAssign(
  orders: readonly OrderToDispatch[],
  drivers: readonly DriverToDispatch[],
  arrival: ArrivalOf,
  taken: Set<number> = new Set(),
  candidatesOf?: CandidatesOf,
): Assignment[] {
  const out: Assignment[] = [];
  const byAge = orders.map((o, i) => ({ o, i })).sort((a, b) => b.o.waitingSeconds - a.o.waitingSeconds || a.o.id - b.o.id);
  for (const { o, i } of byAge) {
    let best: { j: number; cost: number; seconds: number } | undefined;
    for (const j of driversFor(candidatesOf, i, drivers)) {
      const d = drivers[j]!;
      if (taken.has(d.id)) continue;
      const seconds = arrival(i, j);
      if (!isCandidate(o, d, seconds)) continue;
      const cost = costOf(o, d, seconds!);
      if (!best || cost < best.cost || (cost === best.cost && d.id < drivers[best.j]!.id)) best = { j, cost, seconds: seconds! };
    }
    if (!best) continue;
    const d = drivers[best.j]!;
    taken.add(d.id);
    out.push({ orderId: o.id, driverId: d.id, arrivalSeconds: Math.round(best.seconds + d.busyForSeconds), source: "AUTO", chain: d.busyForSeconds > 0 });
  }
  return out;
}
