// A driver moves an order of theirs to a status a driver may set; the state
// machine decides. CONFIRMED on an order offered to the driver is the
// acceptance of the offer.
import type { Db } from "../../db";
import { acceptOffer } from "../../dispatch/answer-offer";
import { moveOrderInTx, publishMoves } from "../move-order";
import type { OrderState } from "../states";
import { driverActor, lockDriversOrder, type OrderDriver } from "./driver-party";

/** The statuses a driver may set on an order of theirs (through the state machine). */
export const DRIVER_TARGETS = [
  "RECEIVED_BY_DRIVER",
  "CONFIRMED",
  "AWAITING_CLIENT",
  "IN_PROCESS",
  "AWAITING_PAYMENT",
  "DONE_CALL_FAILED",
  "PREORDER_CONFIRM_SUCCESSFUL",
] as const satisfies readonly OrderState[];
export type DriverTarget = (typeof DRIVER_TARGETS)[number];

export interface DriverStatusInput {
  uuid: string;
  status: DriverTarget;
  arrivalMinutes?: number;
  version?: number;
  reason?: string;
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
    });
  });
  publishMoves([moved]);
  return { orderId: moved.id };
}
