// A driver moves an order of theirs to a status a driver may set; the state
// machine decides. CONFIRMED on an order offered to the driver is the
// acceptance of the offer.
import type { Db } from "../../db";
import { acceptOffer } from "../../dispatch/answer-offer";
import { moveOrderInTx, publishMoves } from "../move-order";
import { driverActor, lockDriversOrder, type OrderDriver } from "./driver-party";

import type { DriverSettableTarget } from "../states";

export interface DriverStatusInput {
  uuid: string;
  status: DriverSettableTarget;
  arrivalMinutes?: number;
  version?: number;
  reason?: string;
  /** When the driver made the move (a replay after a connection loss); bounds in ../move-time.ts. */
  at?: Date;
}

export async function setDriverStatus(db: Db, me: OrderDriver, input: DriverStatusInput): Promise<{ orderId: number }> {
  if (input.status === "CONFIRMED") {
    const accepted = await acceptOffer(db, me, { uuid: input.uuid }, input.arrivalMinutes);
    if (accepted) return accepted;
  }
  const actor = driverActor(me);
  const moved = await db.$transaction(async (tx) => {
    const order = await lockDriversOrder(tx, me, input.uuid);
    return moveOrderInTx(tx, {
      orderId: order.id,
      to: input.status,
      actor,
      expectedVersion: input.version,
      arrivalMinutes: input.arrivalMinutes,
      reason: input.reason ?? `set by driver ${me.callSign}`,
      at: input.at,
    });
  });
  publishMoves([moved]);
  return { orderId: moved.id };
}
