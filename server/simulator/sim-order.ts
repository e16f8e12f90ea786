// An order as the simulator follows it, and the states in which it is with a driver.
import { DRIVER_ASSIGNED_STATES } from "../orders/states";

export interface SimOrder {
  uuid: string;
  /** Created by the simulated passengers (others: seeded, console, API clients). */
  ours: boolean;
  createdAt: number;
  advanceAt: number | null;
  state: string;
  code: number;
  /** The call sign of the driver holding it. */
  driver: string | null;
  boarded: boolean;
  final: boolean;
  lost: boolean;
  lastPolled: number;
  giveUpAt: number;
  hardDeadline: number;
  stuckAt: number;
  cancelAfterAssign: number | null;
  cancelAt: number | null;
  noShow: boolean;
  boardDelay: number;
}

/** States in which an order is with a driver (held, or an attached advance order): the state machine's group. */
export const HOLDING: ReadonlySet<string> = new Set<string>(DRIVER_ASSIGNED_STATES);
