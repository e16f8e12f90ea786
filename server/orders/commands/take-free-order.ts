// A driver takes a free order by themselves (the pull model; under automatic
// dispatch only the radio's orders and those of services without automatic
// offers): FREE -> SENT_TO_DRIVER (with the driver) -> CONFIRMED (with the
// arrival time) in one transaction; a radio order passes through FREE (the
// reference allows SENT_TO_DRIVER from FREE only); a free advance order
// becomes PREORDER_ATTACHED. Whoever locks the order first wins; the others
// get CONFLICT. (An order bought on the exchange is taken there first:
// exchange/participant/take-bought-order.ts.)
import type { Db } from "../../db";
import { OrderError } from "../../errors";
import { driveMinutes } from "../../routing/arrival";
import { loadSettings } from "../../dispatch/settings";
import { lockOrder, moveOrderInTx, publishMoves, type MovedOrder } from "../move-order";
import { FREE_STATES, type OrderState } from "../states";
import { driverActor, lockDriver, type OrderDriver } from "./driver-party";

export interface TakeFreeOrderInput {
  uuid: string;
  arrivalMinutes?: number;
  version?: number;
}

export async function takeFreeOrder(db: Db, me: OrderDriver, input: TakeFreeOrderInput): Promise<{ orderId: number }> {
  const actor = driverActor(me);
  const settings = await loadSettings(db);
  const moves = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, { uuid: input.uuid });
    const driver = await lockDriver(tx, me.id);
    if (driver.state === "OFFLINE") throw new OrderError("CONFLICT", { reason: "not on shift: start a shift first" });
    if (input.version !== undefined && input.version !== order.version) {
      throw new OrderError("CONFLICT", { reason: "the order was changed by someone else; reload it" });
    }
    const info = await tx.order.findUniqueOrThrow({ where: { id: order.id }, select: { cityId: true, serviceId: true, regionId: true, lat: true, lon: true } });
    const serves = await tx.driverService.findUnique({
      where: { driverId_serviceId: { driverId: me.id, serviceId: info.serviceId } },
      select: { driverId: true },
    });
    if (info.cityId !== me.cityId || !serves) throw new OrderError("FORBIDDEN", { reason: "the order is of a service the driver does not serve" });
    if (order.state === "PREORDER_FREE") {
      return [await moveOrderInTx(tx, { orderId: order.id, to: "PREORDER_ATTACHED", driverId: me.id, actor, reason: "taken in the driver app" })];
    }
    if (!FREE_STATES.includes(order.state as OrderState)) {
      throw new OrderError("CONFLICT", { reason: `the order is no longer free (${order.state})` });
    }
    // Under automatic dispatch the system offers the order: nobody grabs it (the radio's orders excepted).
    if (!settings.pullable(order.state, info.serviceId, info.regionId)) {
      throw new OrderError("CONFLICT", { reason: "the order is being offered by automatic dispatch" });
    }
    if (driver.state !== "FREE") throw new OrderError("CONFLICT", { reason: "the driver is busy with another order" });
    const here = await tx.driver.findUniqueOrThrow({ where: { id: me.id }, select: { lat: true, lon: true } });
    const arrivalMinutes = input.arrivalMinutes ?? (await driveMinutes(tx, info.cityId, here, info, { unknown: 5 }));
    const out: MovedOrder[] = [];
    if (order.state === "ORDER_ON_RADIO") out.push(await moveOrderInTx(tx, { orderId: order.id, to: "FREE", actor, reason: "taken from the radio in the driver app" }));
    out.push(await moveOrderInTx(tx, { orderId: order.id, to: "SENT_TO_DRIVER", driverId: me.id, actor, reason: "taken in the driver app" }));
    out.push(await moveOrderInTx(tx, { orderId: order.id, to: "CONFIRMED", actor, arrivalMinutes, reason: `arrives in ${arrivalMinutes} min` }));
    await tx.dispatchQueueEntry.deleteMany({ where: { driverId: me.id } });
    return out;
  });
  publishMoves(moves);
  return { orderId: moves[0]!.id };
}
