// The parking-queue rule: an order of a QUEUE region goes first to the
// driver at the head of that region's queue who may take it (arrival order;
// a driver who refused it is skipped). Orders with no such driver are left to
// the candidate rules.
import { isCandidate } from "./eligibility";
import { driversFor, type ArrivalOf, type Assignment, type CandidatesOf, type DriverToDispatch, type OrderToDispatch } from "./types";

export function queueAssign(
  orders: readonly OrderToDispatch[],
  drivers: readonly DriverToDispatch[],
  arrival: ArrivalOf,
  taken: Set<number>,
  candidatesOf?: CandidatesOf,
): { assigned: Assignment[]; rest: number[] } {
  const assigned: Assignment[] = [];
  const rest: number[] = [];
  const byAge = orders.map((o, i) => ({ o, i })).sort((a, b) => b.o.waitingSeconds - a.o.waitingSeconds || a.o.id - b.o.id);
  for (const { o, i } of byAge) {
    if (o.rules.mode !== "QUEUE" || o.regionId === null) {
      rest.push(i);
      continue;
    }
    let head: { j: number; position: number } | undefined;
    for (const j of driversFor(candidatesOf, i, drivers)) {
      const d = drivers[j]!;
      if (taken.has(d.id) || d.busyForSeconds > 0 || d.queue?.regionId !== o.regionId) continue;
      // The queue's head is offered whatever the distance within the region: the radius does not apply.
      if (!isCandidate({ ...o, rules: { ...o.rules, radiusKm: Number.POSITIVE_INFINITY } }, d, arrival(i, j) ?? 0)) continue;
      if (!head || d.queue.position < head.position) head = { j, position: d.queue.position };
    }
    if (!head) {
      rest.push(i);
      continue;
    }
    const d = drivers[head.j]!;
    taken.add(d.id);
    assigned.push({ orderId: o.id, driverId: d.id, arrivalSeconds: Math.round(arrival(i, head.j) ?? 0), source: "QUEUE", chain: false });
  }
  return { assigned, rest };
}
