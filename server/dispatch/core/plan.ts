// One dispatch decision: the parking-queue rule first, then the strategy
// (greedy or batched) for the rest. Pure: the same call decides in the
// server and in the strategy comparison.
import { batchedAssign } from "./batched";
import { greedyAssign } from "./greedy";
import { queueAssign } from "./queue-rule";
import type { ArrivalOf, Assignment, DispatchStrategyName, DriverToDispatch, OrderToDispatch } from "./types";

export function planAssignments(
  orders: readonly OrderToDispatch[],
  drivers: readonly DriverToDispatch[],
  arrival: ArrivalOf,
  strategy: DispatchStrategyName,
  ageWeight?: number,
): Assignment[] {
  const taken = new Set<number>();
  const { assigned, rest } = queueAssign(orders, drivers, arrival, taken);
  if (strategy === "BATCHED") return [...assigned, ...batchedAssign(orders, drivers, arrival, taken, rest, ageWeight)];
  const restOrders = rest.map((i) => orders[i]!);
  return [...assigned, ...greedyAssign(restOrders, drivers, (r, j) => arrival(rest[r]!, j), taken)];
}

export type { ArrivalOf, Assignment, DriverToDispatch, OrderToDispatch, OrderRules, DispatchStrategyName, OfferSource } from "./types";
