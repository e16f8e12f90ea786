// Advance orders under automatic dispatch, with the reference's states:
//   PREORDER_FREE, advanceLeadMinutes before the time: offered (ADVANCE
//     offers, the greedy rule among free drivers); accepted ->
//     PREORDER_ATTACHED to the driver (who stays free meanwhile);
//   confirmLeadMinutes before the time: PREORDER_CONFIRM_REQUESTED — the
//     driver confirms (PREORDER_CONFIRM_SUCCESSFUL, then drives: AWAITING_CLIENT)
//     or refuses (PREORDER_CONFIRM_REJECTED) within acceptSeconds x 6; no
//     answer: PREORDER_CONFIRM_TIMEOUT. Both go back to PREORDER_FREE and the
//     driver is not offered the order again;
//   an advance order still free when its confirmation time comes is
//     dispatched as a live order (FREE).
import type { Db, Tx } from "../db";
import { SYSTEM_ACTOR, type Actor } from "../actor";
import { OrderError } from "../errors";
import { lockOrder, moveOrderInTx, publishMoves, type MovedOrder } from "../orders/move-order";
import { arrivalTimes, driverInput, orderInput } from "./candidates";
import { greedyAssign } from "./core/greedy";
import { readFreeDrivers, readFreeOrders, readOrdersInStates, readQueuePlaces } from "./data";
import { makeOffer } from "./offer";
import { loadSettings } from "./settings";
import { moveIfStill } from "./timed-moves";

/** How long a driver has to confirm an advance order, in multiples of the service's acceptance timeout. */
export const CONFIRM_WINDOW_FACTOR = 6;

export async function advanceRound(db: Db, now = new Date()): Promise<number> {
  const settings = await loadSettings(db);
  if (settings.empty) return 0;
  let changes = 0;
  const offerable: Array<{ row: Awaited<ReturnType<typeof readFreeOrders>>[number]; s: NonNullable<ReturnType<typeof settings.forOrder>> }> = [];
  for (const row of await readFreeOrders(db, ["PREORDER_FREE"])) {
    const s = settings.forOrder(row.service_id, row.region_id);
    if (!s || (s.mode !== "AUTO" && s.mode !== "QUEUE") || row.paused || !row.pre_order_time) continue;
    const lead = row.pre_order_time.getTime() - now.getTime();
    if (lead <= s.confirmLeadMinutes * 60_000) {
      if (await moveIfStill(db, row.id, ["PREORDER_FREE"], "FREE", "advance order due and not attached: dispatched now")) changes += 1;
    } else if (lead <= s.advanceLeadMinutes * 60_000) offerable.push({ row, s });
  }
  if (offerable.length > 0) {
    const queue = new Map((await readQueuePlaces(db)).map((q) => [q.driver_id, q]));
    const free = await readFreeDrivers(db);
    for (const cityId of new Set(offerable.map((o) => o.row.city_id))) {
      const mine = offerable.filter((o) => o.row.city_id === cityId);
      const orders = mine.map((o) => orderInput(o.row, o.s, now));
      const drivers = free.filter((d) => d.city_id === cityId).map((d) => driverInput(d, queue, now));
      if (drivers.length === 0) continue;
      const matrix = await arrivalTimes(db, cityId, orders, drivers, now);
      for (const a of greedyAssign(orders, drivers, (i, j) => matrix[i]![j])) {
        const s = mine.find((o) => o.row.id === a.orderId)!.s;
        const made = await makeOffer(db, { orderId: a.orderId, driverId: a.driverId, kind: "ADVANCE", source: "AUTO", arrivalSeconds: a.arrivalSeconds, acceptSeconds: s.acceptSeconds, actor: SYSTEM_ACTOR });
        if (made) changes += 1;
      }
    }
  }
  for (const row of await readOrdersInStates(db, ["PREORDER_ATTACHED", "PREORDER_ATTACHED_NOTIFIED"])) {
    const s = settings.forOrder(row.service_id, row.region_id);
    if (!s || !row.pre_order_time || row.pre_order_time.getTime() - now.getTime() > s.confirmLeadMinutes * 60_000) continue;
    const until = new Date(now.getTime() + s.acceptSeconds * CONFIRM_WINDOW_FACTOR * 1000);
    const asked = await moveIfStill(db, row.id, ["PREORDER_ATTACHED", "PREORDER_ATTACHED_NOTIFIED"], "PREORDER_CONFIRM_REQUESTED", "the driver is asked to confirm", async (tx) => {
      await tx.dispatchOrder.upsert({ where: { orderId: row.id }, create: { orderId: row.id, nextTryAt: until }, update: { nextTryAt: until }, select: { orderId: true } });
    });
    if (asked) changes += 1;
  }
  for (const row of await readOrdersInStates(db, ["PREORDER_CONFIRM_REQUESTED"])) {
    if (!row.next_try_at || row.next_try_at > now || row.driver_id === null) continue;
    const driverId = row.driver_id;
    const done = await moveIfStill(db, row.id, ["PREORDER_CONFIRM_REQUESTED"], "PREORDER_CONFIRM_TIMEOUT", "the driver did not confirm in time", (tx) =>
      releaseAdvance(tx, row.id, driverId, "TIMED_OUT", SYSTEM_ACTOR, "the driver did not confirm the advance order in time"),
    );
    if (done) changes += 1;
  }
  return changes;
}

/** Back to the free advance orders, and the driver recorded as one who did not take it. */
async function releaseAdvance(tx: Tx, orderId: number, driverId: number, outcome: "TIMED_OUT" | "REFUSED", actor: Actor, reason: string): Promise<MovedOrder[]> {
  const now = new Date();
  await tx.dispatchOffer.create({
    data: { orderId, driverId, attempt: 0, kind: "ADVANCE", source: "CONFIRMATION", state: outcome, deadline: now, answeredAt: now, reason },
    select: { id: true },
  });
  return [await moveOrderInTx(tx, { orderId, to: "PREORDER_FREE", actor, reason })];
}

/** The driver refuses to confirm an attached advance order: PREORDER_CONFIRM_REJECTED, then free again. */
export async function refuseAdvanceConfirmation(db: Db, driver: { id: number; callSign: string }, uuid: string, reason?: string): Promise<{ orderId: number }> {
  const actor: Actor = { type: "DRIVER", id: driver.callSign };
  const text = `confirmation refused by ${driver.callSign}${reason ? `: ${reason}` : ""}`;
  const moves = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, { uuid });
    if (order.driver_id !== driver.id) throw new OrderError("NOT_FOUND", { what: "Order of this driver", id: uuid });
    const rejected = await moveOrderInTx(tx, { orderId: order.id, to: "PREORDER_CONFIRM_REJECTED", actor, reason: text });
    return [rejected, ...(await releaseAdvance(tx, order.id, driver.id, "REFUSED", actor, text))];
  });
  publishMoves(moves);
  return { orderId: moves[0]!.id };
}
