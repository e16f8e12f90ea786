// The driver's standing with automatic dispatch, on GET /me: whether offers
// come, and if not why (server/dispatch/liveness.ts): set away after offers
// let time out, a position too old, an app silent too long.
import { z } from "zod";
import { isOfferable, livenessOf } from "../dispatch/liveness";

export const dispatchLivenessSchema = z.object({
  /** Automatic dispatch offers this driver orders (when free and on shift). */
  offered: z.boolean(),
  away: z.boolean(),
  away_since: z.string().nullable(),
  stale_position: z.boolean(),
  silent_app: z.boolean(),
});

export function dispatchLivenessView(d: { awaySince: Date | null; positionAt: Date | null; appSeenAt: Date | null; onBreak?: unknown }): z.input<typeof dispatchLivenessSchema> {
  const l = livenessOf(d);
  return {
    // A break (issue 34, driver_break) offers nothing either.
    offered: isOfferable(l) && !d.onBreak,
    away: l.away,
    away_since: l.awaySince?.toISOString() ?? null,
    stale_position: l.stalePosition,
    silent_app: l.silentApp,
  };
}
