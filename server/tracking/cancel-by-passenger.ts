// The passenger cancels through the tracking link: the same move as every
// other cancel (the one state machine, with history and its notifications),
// allowed only until the car has arrived. The order's state is checked
// under the move's row lock, so a driver's "I am here" that lands first wins.
import type { Db } from "../db";
import type { Actor } from "../actor";
import { OrderError } from "../errors";
import { lockOrder, moveOrderInTx, publishMoves } from "../orders/move-order";
import { isOrderState } from "../orders/states";
import { passengerMayCancel, trackingPhase } from "../../shared/tracking/phase";

/** Who cancels in the order's history: the passenger, through their link (no account of theirs exists). */
export const PASSENGER_ACTOR: Actor = { type: "SYSTEM", id: "passenger" };

export async function cancelByPassenger(db: Db, orderId: number, reason: string): Promise<void> {
  const moved = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, { orderId });
    if (!isOrderState(order.state) || !passengerMayCancel(trackingPhase(order.state))) {
      throw new OrderError("NOT_ACCEPTABLE", { reason: "the car has arrived or the trip is over: the order can no longer be cancelled here" });
    }
    return moveOrderInTx(tx, { orderId, to: "DONE_CANCELLED", actor: PASSENGER_ACTOR, reason: `passenger: ${reason}` });
  });
  publishMoves([moved]);
}
