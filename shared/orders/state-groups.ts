// Named groups of order states, each defined once and named by what it means
// to the code that asks. The moves themselves are decided by canMove
// (states.ts); a group only says which states a rule looks at.
import { ALL_STATES, type OrderState } from "./states";

/** States in which an order holds a driver (the driver is busy). */
export const DRIVER_HOLDING_STATES: OrderState[] = [
  "SENT_TO_DRIVER",
  "RECEIVED_BY_DRIVER",
  "CONFIRMED",
  "CONFIRMED_CLIENT_NOTIFIED",
  "BOUND",
  "AWAITING_CLIENT",
  "AWAITING_CLIENT_NOTIFIED",
  "AWAITING_CLIENT_LONG",
  "IN_PROCESS",
  "AWAITING_PAYMENT",
];

/** States waiting for any driver (the "free orders"). */
export const FREE_STATES: OrderState[] = ["FREE", "FREE_LONG", "ORDER_ON_RADIO"];

/** Advance orders (pre-orders) in any of their states. */
export const ADVANCE_STATES: OrderState[] = ALL_STATES.filter((s) => s.startsWith("PREORDER_"));

/**
 * Moving an order into one of these gives it back to be taken again: it loses
 * its driver (ours, or the exchange executor's).
 */
export const RELEASING_STATES: OrderState[] = [...FREE_STATES, "PREORDER_FREE"];

/** The passenger is aboard or the trip is over but unpaid: too late to swap the driver. */
export const TRIP_STARTED_STATES: OrderState[] = ["IN_PROCESS", "AWAITING_PAYMENT", "AWAITING_COMPLETION"];

/**
 * Targets a dispatcher moves an order into by naming a driver (the console
 * asks for one): an offer, a binding, an attached advance order.
 */
export const DISPATCHER_ASSIGNING_TARGETS: OrderState[] = ["SENT_TO_DRIVER", "BOUND", "PREORDER_ATTACHED"];

/** The statuses a driver may set on an order of theirs (through the state machine). */
export const DRIVER_SETTABLE_TARGETS = [
  "RECEIVED_BY_DRIVER",
  "CONFIRMED",
  "AWAITING_CLIENT",
  "IN_PROCESS",
  "AWAITING_PAYMENT",
  "DONE_CALL_FAILED",
  "PREORDER_CONFIRM_SUCCESSFUL",
] as const satisfies readonly OrderState[];
export type DriverSettableTarget = (typeof DRIVER_SETTABLE_TARGETS)[number];


/** Offered to a driver who has not yet accepted. */
export const DRIVER_OFFERED_STATES: OrderState[] = ["SENT_TO_DRIVER", "RECEIVED_BY_DRIVER"];

/** Accepted, the car is on its way to the pick-up. */
export const DRIVER_EN_ROUTE_STATES: OrderState[] = ["CONFIRMED", "CONFIRMED_CLIENT_NOTIFIED", "BOUND"];

/** The car is at the pick-up, waiting for the passenger. */
export const AWAITING_CLIENT_STATES: OrderState[] = ["AWAITING_CLIENT", "AWAITING_CLIENT_NOTIFIED", "AWAITING_CLIENT_LONG"];

/** A driver is coming to the pick-up (offered or accepted): the map draws their approach. */
export const DRIVER_APPROACHING_STATES: OrderState[] = [...DRIVER_OFFERED_STATES, ...DRIVER_EN_ROUTE_STATES];

/** A live order a driver may give back to the free orders (before the passenger is aboard). */
export const DRIVER_REFUSABLE_LIVE_STATES: OrderState[] = [...DRIVER_APPROACHING_STATES, ...AWAITING_CLIENT_STATES];

/** An attached advance order a driver may give back to the free advance orders. */
export const DRIVER_REFUSABLE_ADVANCE_STATES: OrderState[] = [
  "PREORDER_ATTACHED",
  "PREORDER_ATTACHED_NOTIFIED",
  "PREORDER_CONFIRM_REQUESTED",
  "PREORDER_CONFIRM_SUCCESSFUL",
  "PREORDER_CONFIRM_REJECTED",
  "PREORDER_CONFIRM_TIMEOUT",
];

/** The passenger is aboard or paying: the driver may complete the order. */
export const RIDING_STATES: OrderState[] = ["IN_PROCESS", "AWAITING_PAYMENT"];

/** Waiting for someone to act on it: free, unprocessed, or refused by its driver. */
export const WAITING_STATES: OrderState[] = [...FREE_STATES, "NOT_REGISTERED", "REJECTED_BY_DRIVER"];

/** An advance order attached to a driver (before the trip begins). */
export const ADVANCE_ATTACHED_STATES: OrderState[] = [
  "PREORDER_ATTACHED",
  "PREORDER_ATTACHED_NOTIFIED",
  "PREORDER_CONFIRM_REQUESTED",
  "PREORDER_CONFIRM_SUCCESSFUL",
  "PREORDER_CONFIRM_REJECTED",
  "PREORDER_CONFIRM_TIMEOUT",
];

/** What a driver's app shows as its order (holding states and attached advance orders with the driver). */
export const DRIVER_ASSIGNED_STATES: OrderState[] = [...DRIVER_HOLDING_STATES, ...ADVANCE_ATTACHED_STATES.slice(0, 4)];

/** The states an offer of each kind (server/dispatch/offer.ts) may be made from. */
export const OFFERABLE_STATES = {
  LIVE: ["FREE", "FREE_LONG", "ORDER_ON_RADIO"],
  CHAIN: ["FREE", "FREE_LONG"],
  ADVANCE: ["PREORDER_FREE"],
} as const satisfies Record<"LIVE" | "CHAIN" | "ADVANCE", readonly OrderState[]>;

/** Orders in trouble for the dispatcher's panel: free too long, on the radio, an advance order nobody confirmed. */
export const TROUBLE_STATES: OrderState[] = ["FREE_LONG", "ORDER_ON_RADIO", "PREORDER_CONFIRM_REJECTED", "PREORDER_CONFIRM_TIMEOUT"];
