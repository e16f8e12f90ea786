// One dispatch decision: the parking-queue rule first, then the strategy
// (greedy or batched) for the rest. Pure: the same call decides in the
// server and in the strategy comparison.
import { batchedAssign } from "./batched";
import { greedyAssign } from "./greedy";
import { queueAssign } from "./queue-rule";
import type { ArrivalOf, Assignment, CandidatesOf, DispatchStrategyName, DriverToDispatch, OrderToDispatch } from "./types";

export function planAssignments(
  orders: readonly OrderToDispatch[],
  drivers: readonly DriverToDispatch[],
  arrival: ArrivalOf,
  strategy: DispatchStrategyName,
  ageWeight?: number,
  candidatesOf?: CandidatesOf,
): Assignment[] {
  const taken = new Set<number>();
  const { assigned, rest } = queueAssign(orders, drivers, arrival, taken, candidatesOf);
  if (strategy === "BATCHED") return [...assigned, ...batchedAssign(orders, drivers, arrival, taken, rest, ageWeight, candidatesOf)];
  const restOrders = rest.map((i) => orders[i]!);
  return [...assigned, ...greedyAssign(restOrders, drivers, (r, j) => arrival(rest[r]!, j), taken, candidatesOf && ((r) => candidatesOf(rest[r]!)))];
}

export type { ArrivalOf, Assignment, CandidatesOf, DriverToDispatch, OrderToDispatch, OrderRules, DispatchStrategyName, OfferSource } from "./types";
