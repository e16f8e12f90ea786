// Which of the driver's orders the trip screen shows, and which moves its
// buttons offer: only those the one state machine (shared/orders/states.ts,
// the same `canMove` the server decides with) allows from the order's state.
import { canMove, isOrderState, type OrderState } from "@/shared/orders/states";
import type { DriverOrder } from "./api";

export type OrderMove = "AWAITING_CLIENT" | "IN_PROCESS" | "DONE_CALL_FAILED" | "complete";

/** The order the driver is driving now (before the advance orders waiting for their time). */
const TRIP_STATES: readonly string[] = [
  "IN_PROCESS",
  "AWAITING_PAYMENT",
  "AWAITING_COMPLETION",
  "AWAITING_CLIENT",
  "AWAITING_CLIENT_NOTIFIED",
  "AWAITING_CLIENT_LONG",
  "CONFIRMED",
  "CONFIRMED_CLIENT_NOTIFIED",
  "PREORDER_CONFIRM_SUCCESSFUL",
  "BOUND",
];

export function activeOrderOf(orders: DriverOrder[]): DriverOrder | null {
  for (const state of TRIP_STATES) {
    const found = orders.find((o) => o.state === state);
    if (found) return found;
  }
  return null;
}

/** An attached advance order whose confirmation the dispatch asks for. */
export function confirmationOf(orders: DriverOrder[]): DriverOrder | null {
  return orders.find((o) => o.state === "PREORDER_CONFIRM_REQUESTED") ?? null;
}

/** Whether the passenger is aboard (the route then leads to the destination). */
export function tripStarted(order: DriverOrder): boolean {
  return ["IN_PROCESS", "AWAITING_PAYMENT", "AWAITING_COMPLETION", "DONE_SUCCESSFUL"].includes(order.state);
}

export function movesFrom(order: DriverOrder): OrderMove[] {
  if (!isOrderState(order.state)) return [];
  const from: OrderState = order.state;
  const moves: OrderMove[] = [];
  if (canMove(from, "AWAITING_CLIENT")) moves.push("AWAITING_CLIENT");
  if (canMove(from, "IN_PROCESS")) moves.push("IN_PROCESS");
  if (canMove(from, "DONE_SUCCESSFUL")) moves.push("complete");
  // The machine allows DONE_CALL_FAILED from any open state; a driver declares a no-show only after arriving.
  if (canMove(from, "DONE_CALL_FAILED") && from.startsWith("AWAITING_CLIENT")) moves.push("DONE_CALL_FAILED");
  return moves;
}
