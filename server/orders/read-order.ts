// An order as the dispatch API's order information shows it: one query (a
// hot path that clients poll all day), prepared.
import type { DbOrTx } from "../db";
import { preparedQuery, type PreparedStatement } from "../db/sql";
import { OrderError } from "../errors";
import { kopecksToRoubles } from "../balances/money";
import { formatIso, formatLocal } from "./time";
import { STATE_TITLES, isOrderState } from "./states";

interface OrderInfoRow {
  uuid: string;
  state: string;
  status_code: number;
  amount: number | null;
  rate_id: number | null;
  start_time: Date | null;
  pre_order_time: Date | null;
  arrival_at: Date | null;
  timezone: string;
  call_sign: string | null;
  first_name: string | null;
  driver_phone: string | null;
  brand: string | null;
  model: string | null;
  color: string | null;
  reg_number: string | null;
}

export const ORDER_INFO: PreparedStatement = {
  name: "dispatch_order_information",
  sql: `
  SELECT o.uuid::text AS uuid, o.state, o.status_code, o.amount, o.rate_id,
         -- stored as UTC without a zone: say so, so that every driver reads them alike
         o.start_time AT TIME ZONE 'UTC' AS start_time, o.pre_order_time AT TIME ZONE 'UTC' AS pre_order_time,
         o.arrival_at AT TIME ZONE 'UTC' AS arrival_at,
         ci.timezone, d.call_sign, d.first_name, d.phone AS driver_phone, c.brand, c.model, c.color, c.reg_number
    FROM orders o
    JOIN city ci ON ci.id = o.city_id
    LEFT JOIN driver d ON d.id = o.driver_id
    LEFT JOIN car c ON c.driver_id = d.id
   WHERE o.uuid = $1::uuid`,
};

export async function orderInformation(db: DbOrTx, uuid: string, language: "ru" | "en") {
  const [order] = await preparedQuery<OrderInfoRow>(db, ORDER_INFO, [uuid]);
  if (!order) throw new OrderError("NOT_FOUND", { what: "Order", id: uuid });
  const start = order.start_time ?? order.pre_order_time;
  const remaining = order.arrival_at ? Math.max(0, Math.ceil((new Date(order.arrival_at).getTime() - Date.now()) / 60_000)) : null;
  return {
    uuid: order.uuid,
    status: order.status_code,
    name: order.state,
    message: isOrderState(order.state) ? STATE_TITLES[order.state][language] : order.state,
    driver_id: order.call_sign,
    start_time: start ? formatLocal(new Date(start), order.timezone) : null,
    // Ours, beside the reference's fields: the same instant with the city's offset, and the advance time asked for.
    start_time_iso: start ? formatIso(new Date(start), order.timezone) : null,
    pre_order_time_iso: order.pre_order_time ? formatIso(new Date(order.pre_order_time), order.timezone) : null,
    remaining_time: remaining,
    amount: order.amount === null ? null : kopecksToRoubles(order.amount),
    rate_id: order.rate_id,
    car_brand: order.brand ?? "",
    car_model: order.model ?? "",
    car_color: order.color ?? "",
    car_number: order.reg_number ?? "",
    firstname: order.first_name ?? "",
    phone: order.driver_phone ?? "",
  };
}

/** An order's stored state and status code by id (the order is known to exist). */
export function orderStatusById(db: DbOrTx, id: number) {
  return db.order.findUniqueOrThrow({ where: { id }, select: { state: true, statusCode: true } });
}

/** An order's stored state and status code by its uuid (any letter case), or null. */
export function orderStatusByUuid(db: DbOrTx, uuid: string) {
  return db.order.findUnique({ where: { uuid: uuid.toLowerCase() }, select: { state: true, statusCode: true } });
}
