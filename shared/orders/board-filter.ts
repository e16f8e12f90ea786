// The order board's filter: shared by the server (the query) and the console
// (its controls), so it must stay free of server-only imports.
import { z } from "zod";
import { ALL_STATES, DONE_STATES, NOT_DONE_STATES, type OrderState } from "./states";
import { ADVANCE_STATES, DRIVER_HOLDING_STATES, WAITING_STATES } from "./state-groups";

export const BOARD_GROUPS = ["active", "moderation", "free", "assigned", "preorders", "done", "all"] as const;
export type BoardGroup = (typeof BOARD_GROUPS)[number];

/** The states of each group; null: every state. */
export const GROUP_STATES: Record<BoardGroup, readonly OrderState[] | null> = {
  active: NOT_DONE_STATES,
  moderation: ["ON_MODERATION"],
  free: WAITING_STATES,
  assigned: NOT_DONE_STATES.filter(
    (s) => DRIVER_HOLDING_STATES.includes(s) || (!WAITING_STATES.includes(s) && !ADVANCE_STATES.includes(s) && s !== "ON_MODERATION"),
  ),
  preorders: ADVANCE_STATES,
  done: DONE_STATES,
  all: null,
};

export function groupOfState(state: OrderState): Exclude<BoardGroup, "active" | "all"> {
  for (const group of ["moderation", "free", "preorders", "done", "assigned"] as const) {
    if (GROUP_STATES[group]?.includes(state)) return group;
  }
  return "assigned";
}

export const orderStateSchema = z.enum(ALL_STATES as [OrderState, ...OrderState[]]);

export const boardFilterSchema = z.object({
  group: z.enum(BOARD_GROUPS).default("active"),
  state: orderStateSchema.optional(),
  serviceId: z.number().int().positive().optional(),
  regionId: z.number().int().positive().optional(),
  /** Phone digits, an address fragment, a call sign or an order number. */
  q: z.string().trim().max(100).optional(),
});

export type BoardFilter = z.input<typeof boardFilterSchema>;
export type ParsedBoardFilter = z.output<typeof boardFilterSchema>;
