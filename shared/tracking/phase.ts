// What the passenger sees of an order's state on the tracking page: a few
// phases in the passenger's words, read from the one state machine's groups.
import { isDone, type OrderState } from "../orders/states";
import { ADVANCE_STATES, AWAITING_CLIENT_STATES, DRIVER_EN_ROUTE_STATES, TRIP_STARTED_STATES } from "../orders/state-groups";

export const TRACKING_PHASES = ["searching", "scheduled", "coming", "arrived", "riding", "done", "cancelled"] as const;
export type TrackingPhase = (typeof TRACKING_PHASES)[number];

export function trackingPhase(state: OrderState): TrackingPhase {
  if (state === "DONE_SUCCESSFUL") return "done";
  if (isDone(state)) return "cancelled";
  if (TRIP_STARTED_STATES.includes(state)) return "riding";
  if (AWAITING_CLIENT_STATES.includes(state)) return "arrived";
  if (DRIVER_EN_ROUTE_STATES.includes(state)) return "coming";
  if (ADVANCE_STATES.includes(state)) return "scheduled";
  return "searching";
}

/** The passenger may cancel until the car has arrived (after that, they talk to the driver). */
export function passengerMayCancel(phase: TrackingPhase): boolean {
  return phase === "searching" || phase === "scheduled" || phase === "coming";
}

/** The driver's phone is reachable (through /t/<token>/call) while a car is assigned and the trip is not over. */
export function passengerMayCall(phase: TrackingPhase): boolean {
  return phase === "coming" || phase === "arrived" || phase === "riding";
}

export const RATING_STARS = [1, 2, 3, 4, 5] as const;
export const RATING_COMMENT_MAX = 500;
export const CANCEL_REASON_MAX = 200;
