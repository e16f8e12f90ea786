// An order's age as a dispatcher reads it (issue 34): how long it has waited
// in its state (since its creation while it waits for a car), and whether
// that is past the limits an administrator set for that kind of wait: amber,
// then red. An advance order not yet confirmed counts down to its pickup
// time instead: amber, then red, as the pickup comes near. Browser-safe.

export const AGE_KINDS = ["MODERATION", "FREE", "RADIO", "OFFERED", "ACCEPTED", "ADVANCE"] as const;
export type AgeKind = (typeof AGE_KINDS)[number];

export interface AgeLimit {
  kind: AgeKind;
  amberSeconds: number;
  redSeconds: number;
}

export type AgeLevel = "ok" | "amber" | "red";

const KIND_OF_STATE: Record<string, AgeKind> = {
  ON_MODERATION: "MODERATION",
  FREE: "FREE",
  FREE_LONG: "FREE",
  ORDER_ON_RADIO: "RADIO",
  SENT_TO_DRIVER: "OFFERED",
  RECEIVED_BY_DRIVER: "OFFERED",
  CONFIRMED: "ACCEPTED",
  CONFIRMED_CLIENT_NOTIFIED: "ACCEPTED",
  BOUND: "ACCEPTED",
  PREORDER_FREE: "ADVANCE",
  PREORDER_ATTACHED: "ADVANCE",
  PREORDER_ATTACHED_NOTIFIED: "ADVANCE",
  PREORDER_CONFIRM_REQUESTED: "ADVANCE",
  PREORDER_CONFIRM_REJECTED: "ADVANCE",
  PREORDER_CONFIRM_TIMEOUT: "ADVANCE",
};

/** The states whose orders' age is watched. */
export const WATCHED_STATES: readonly string[] = Object.keys(KIND_OF_STATE);

/** The kind of wait an order in this state is in; undefined: its age is not watched. */
export function ageKindOf(state: string): AgeKind | undefined {
  return KIND_OF_STATE[state];
}

/** States whose orders wait for a car: their age counts from creation (a re-offer does not reset it). */
const SINCE_CREATION: ReadonlySet<string> = new Set(["FREE", "FREE_LONG", "ORDER_ON_RADIO", "SENT_TO_DRIVER", "RECEIVED_BY_DRIVER"]);

export interface AgedOrder {
  state: string;
  createdAt: Date;
  /** When the order entered its present state. */
  stateAt: Date;
  preOrderTime: Date | null;
}

export interface Age {
  kind: AgeKind | undefined;
  /** Seconds waited; for an advance order, seconds left until its pickup (negative: late). */
  seconds: number;
  level: AgeLevel;
}

export function ageOf(order: AgedOrder, limits: ReadonlyMap<AgeKind, AgeLimit> | undefined, now: number): Age {
  const kind = ageKindOf(order.state);
  if (kind === "ADVANCE") {
    const seconds = order.preOrderTime ? Math.round((order.preOrderTime.getTime() - now) / 1000) : 0;
    const limit = limits?.get(kind);
    const level: AgeLevel = !limit || !order.preOrderTime ? "ok" : seconds <= limit.redSeconds ? "red" : seconds <= limit.amberSeconds ? "amber" : "ok";
    return { kind, seconds, level };
  }
  // A waiting advance order that has become due counts from its pickup time, as dispatch does.
  const created = order.preOrderTime && order.preOrderTime.getTime() < now && order.preOrderTime > order.createdAt ? order.preOrderTime : order.createdAt;
  const since = SINCE_CREATION.has(order.state) ? created : order.stateAt;
  const seconds = Math.max(0, Math.round((now - since.getTime()) / 1000));
  const limit = kind ? limits?.get(kind) : undefined;
  const level: AgeLevel = !limit ? "ok" : seconds >= limit.redSeconds ? "red" : seconds >= limit.amberSeconds ? "amber" : "ok";
  return { kind, seconds, level };
}

/** "4:05", "1:02:03": minutes and seconds of an age (the sign for an advance order's countdown). */
export function formatAge(seconds: number): string {
  const sign = seconds < 0 ? "−" : "";
  const s = Math.abs(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${sign}${h}:${String(m).padStart(2, "0")}:${sec}` : `${sign}${m}:${sec}`;
}

/** Limits as an administrator may set them: amber before red (for an advance order: more seconds before the pickup). */
export function limitsValid(kind: AgeKind, amberSeconds: number, redSeconds: number): boolean {
  return kind === "ADVANCE" ? amberSeconds > redSeconds : amberSeconds < redSeconds;
}
