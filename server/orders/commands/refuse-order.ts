// A driver says no: to a live offer (refused, the next candidate gets it), to
// the confirmation of an attached advance order (PREORDER_CONFIRM_REJECTED),
// or, for an order already theirs, gives it back.
import type { Db } from "../../db";
import { refuseOfferInSet } from "../../dispatch/refusals";
import { refuseAdvanceConfirmation } from "../../dispatch/advance";
import type { OrderDriver } from "./driver-party";
import { giveBackOrder } from "./give-back-order";

export async function refuseOrder(db: Db, me: OrderDriver, input: { uuid: string; reason?: string }): Promise<{ orderId: number }> {
  const refused = await refuseOfferInSet(db, me, { uuid: input.uuid }, input.reason);
  if (refused) return refused;
  const order = await db.order.findUnique({ where: { uuid: input.uuid }, select: { state: true, driverId: true } });
  if (order?.state === "PREORDER_CONFIRM_REQUESTED" && order.driverId === me.id) return refuseAdvanceConfirmation(db, me, input.uuid, input.reason);
  return giveBackOrder(db, me, input);
}
