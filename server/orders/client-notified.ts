// After the passenger has been told by SMS, the order says so: CONFIRMED
// moves on to CONFIRMED_CLIENT_NOTIFIED (10, "the client was told the arrival
// time") and AWAITING_CLIENT to AWAITING_CLIENT_NOTIFIED (11, "told the car is
// waiting"), each with its own status callback, as the original does. Chat
// bots send their own messages on exactly these codes (and track the driver
// live only while the order is in 10 or 11), so the moves must happen in the
// normal flow, whoever set the earlier status.
//
// The outbox worker calls this once the SMS has gone, before marking it sent:
// a crash in between sends the SMS again and finds the move made.
import { z } from "zod";
import type { Db } from "../db";
import { SYSTEM_ACTOR } from "../actor";
import { lockOrder, moveOrderInTx, publishMoves, type MovedOrder } from "./move-order";
import { TOLD_BY_SMS, type ToldBySmsState } from "./states";

/** What an SMS message of the outbox carries besides its text, so that its delivery can move the order. */
export const clientSmsPayload = z.object({
  text: z.string(),
  orderId: z.number().int().optional(),
  /** the state the SMS tells of */
  state: z.enum(["CONFIRMED", "AWAITING_CLIENT"]).optional(),
});

/**
 * Records that the passenger was told: moves the order on if it is still in
 * the state the SMS told of. When it has moved on meanwhile (the driver
 * arrived, the trip started, the order was cancelled) the news is stale and
 * nothing is recorded. Returns the move made, if any.
 */
export async function recordClientTold(db: Db, orderId: number, told: ToldBySmsState): Promise<MovedOrder | null> {
  const moved = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, { orderId });
    if (order.state !== told) return null;
    return moveOrderInTx(tx, { orderId, to: TOLD_BY_SMS[told], actor: SYSTEM_ACTOR, reason: "client notified by SMS" });
  });
  if (moved) publishMoves([moved]);
  return moved;
}

/** The follow-up of a delivered SMS (see the worker): nothing for SMS that tell of no state. */
export async function afterClientSms(db: Db, payload: unknown): Promise<void> {
  const parsed = clientSmsPayload.safeParse(payload);
  if (!parsed.success || parsed.data.orderId === undefined || parsed.data.state === undefined) return;
  await recordClientTold(db, parsed.data.orderId, parsed.data.state);
}
