// A driver of ours takes an order another participant sells on the exchange
// (offered to our drivers as a free order): it is taken on the exchange first;
// of several takers one wins, the others get GONE. Undefined when the order is
// not such an offer (then it is one of our own: orders/commands/take-free-order.ts).
import type { Db } from "../../db";
import { OrderError } from "../../errors";
import type { OrderDriver } from "../../orders/commands/driver-party";
import { driverActor } from "../../orders/commands/driver-party";
import { takeOffer } from "./take";

export async function takeBoughtOrder(db: Db, me: OrderDriver, input: { uuid: string; arrivalMinutes?: number }): Promise<{ orderId: number } | undefined> {
  const actor = driverActor(me);
  const offered = await db.order.findUnique({
    where: { uuid: input.uuid },
    select: { serviceId: true, exchangeLink: { select: { role: true, phase: true, exchangeOrderId: true } } },
  });
  const link = offered?.exchangeLink;
  if (offered && link?.role === "BOUGHT" && link.exchangeOrderId) {
    const driver = await db.driver.findUniqueOrThrow({ where: { id: me.id }, select: { state: true, services: { where: { serviceId: offered.serviceId }, select: { serviceId: true } } } });
    if (driver.state !== "FREE") throw new OrderError("CONFLICT", { reason: driver.state === "OFFLINE" ? "not on shift: start a shift first" : "the driver is busy with another order" });
    if (driver.services.length === 0) throw new OrderError("FORBIDDEN", { reason: "the order is of a service the driver does not serve" });
    if (link.phase !== "OFFERED") throw new OrderError("CONFLICT", { reason: "the order is no longer free" });
    const taken = await takeOffer(db, link.exchangeOrderId, me.id, { arrivalMinutes: input.arrivalMinutes, actor });
    return { orderId: taken.orderId };
  }
  return undefined;
}
