// When a move happened, as its history records it. A driver's app that lost
// its connection queues the driver's moves and replays them later, each with
// `at`, the moment the driver pressed the button: the waiting at the pickup
// and the trip's minutes (the taximeter, server/meter/order-meter.ts) are
// measured between these moments, so recording the replay's arrival instead
// would undercount the waiting.
//
// The bounds, checked here for every interface alike:
// - later than now beyond the clock skew a phone may have: refused
//   (BAD_PARAMETER `at`): the phone's clock cannot be trusted for the fare;
//   within the skew it is clamped to now;
// - older than MAX_MOVE_AGE_MS: refused (BAD_PARAMETER `at`): no replay waits
//   that long, and a moment that old would rewrite a shift's history;
// - earlier than the order's last recorded move: clamped to that move's time,
//   not refused. A phone's clock a little behind the server's, or a move queued
//   just after one the server recorded on its own clock, would otherwise be
//   lost; the history stays in order and the meter never counts a negative span.
import type { Tx } from "../db";
import { OrderError } from "../errors";
import { CLOCK_SKEW_MS } from "../meter/fix-time";

export const MAX_MOVE_AGE_MS = 6 * 3_600_000;

/** The time the move is recorded at: `reported` within the bounds above, else now. */
export async function moveTimeOf(tx: Tx, orderId: number, reported: Date | undefined, now: Date): Promise<Date> {
  if (reported === undefined) return now;
  const t = reported.getTime();
  if (!Number.isFinite(t)) throw new OrderError("BAD_PARAMETER", { parameter: "at", expected: "ISO 8601 time" });
  if (t > now.getTime() + CLOCK_SKEW_MS) throw new OrderError("BAD_PARAMETER", { parameter: "at", expected: "a time not in the future" });
  if (t < now.getTime() - MAX_MOVE_AGE_MS) throw new OrderError("BAD_PARAMETER", { parameter: "at", expected: `a time within the last ${MAX_MOVE_AGE_MS / 3_600_000} hours` });
  const last = await tx.orderStatusChange.findFirst({ where: { orderId }, orderBy: { id: "desc" }, select: { at: true } });
  const earliest = last?.at.getTime() ?? Number.NEGATIVE_INFINITY;
  return new Date(Math.min(now.getTime(), Math.max(t, earliest)));
}
