// An order as the dispatch API's order information shows it.
import type { DbOrTx } from "../db";
import { OrderError } from "../errors";
import { kopecksToRoubles } from "../balances/money";
import { formatLocal } from "./time";
import { STATE_TITLES, isOrderState } from "./states";

export async function orderInformation(db: DbOrTx, uuid: string, language: "ru" | "en") {
  const order = await db.order.findUnique({
    where: { uuid },
    select: {
      id: true,
      uuid: true,
      state: true,
      statusCode: true,
      amount: true,
      rateId: true,
      startTime: true,
      preOrderTime: true,
      arrivalAt: true,
      phone: true,
      clientName: true,
      city: { select: { timezone: true } },
      driver: { select: { callSign: true, firstName: true, phone: true, car: { select: { brand: true, model: true, color: true, regNumber: true } } } },
    },
  });
  if (!order) throw new OrderError("NOT_FOUND", { what: "Order", id: uuid });
  const start = order.startTime ?? order.preOrderTime;
  const remaining = order.arrivalAt ? Math.max(0, Math.ceil((order.arrivalAt.getTime() - Date.now()) / 60_000)) : null;
  return {
    uuid: order.uuid,
    status: order.statusCode,
    name: order.state,
    message: isOrderState(order.state) ? STATE_TITLES[order.state][language] : order.state,
    driver_id: order.driver?.callSign ?? null,
    start_time: start ? formatLocal(start, order.city.timezone) : null,
    remaining_time: remaining,
    amount: order.amount === null ? null : kopecksToRoubles(order.amount),
    rate_id: order.rateId,
    car_brand: order.driver?.car?.brand ?? "",
    car_model: order.driver?.car?.model ?? "",
    car_color: order.driver?.car?.color ?? "",
    car_number: order.driver?.car?.regNumber ?? "",
    firstname: order.driver?.firstName ?? "",
    phone: order.driver?.phone ?? "",
  };
}
