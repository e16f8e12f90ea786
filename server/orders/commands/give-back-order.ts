// A driver gives back an order they hold: back to the free orders (an
// attached advance order: to the free advance orders). An order bought on
// the exchange goes back to the exchange instead: DONE_DRIVER_REJECTED here,
// `rejectdriver` there (the exchange offers it again). The console's
// rejection of a moderated order is another verb (console/moderate-order.ts).
import type { Db } from "../../db";
import { moveOrderInTx, publishMoves } from "../move-order";
import { ADVANCE_ATTACHED_STATES, DRIVER_REFUSABLE_LIVE_STATES, type OrderState } from "../states";
import { driverActor, forbiddenMove, lockDriversOrder, type OrderDriver } from "./driver-party";

export async function giveBackOrder(db: Db, me: OrderDriver, input: { uuid: string; reason?: string }): Promise<{ orderId: number }> {
  const actor = driverActor(me);
  const reason = `refused by driver ${me.callSign}${input.reason ? `: ${input.reason}` : ""}`;
  const moved = await db.$transaction(async (tx) => {
    const order = await lockDriversOrder(tx, me, input.uuid);
    const link = await tx.exchangeLink.findUnique({ where: { orderId: order.id }, select: { role: true } });
    const back: OrderState = link?.role === "BOUGHT" ? "DONE_DRIVER_REJECTED" : "FREE";
    const to: OrderState | undefined = DRIVER_REFUSABLE_LIVE_STATES.includes(order.state) ? back : ADVANCE_ATTACHED_STATES.includes(order.state) ? "PREORDER_FREE" : undefined;
    if (!to) throw forbiddenMove(order.state, back);
    return moveOrderInTx(tx, { orderId: order.id, to, actor, reason });
  });
  publishMoves([moved]);
  return { orderId: moved.id };
}
