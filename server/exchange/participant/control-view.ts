// What /participant/control/order shows of one of our orders (tests and
// automation read it): the order, its exchange link and its history, found
// by our id or by the exchange's order id.
import type { DbOrTx } from "../../db";

const CONTROL_ORDER_SELECT = {
  id: true,
  uuid: true,
  state: true,
  statusCode: true,
  source: true,
  driverId: true,
  amount: true,
  phone: true,
  clientName: true,
  comment: true,
  dst: true,
  cancelReason: true,
  exchangeLink: true,
  history: { select: { fromState: true, toState: true, actorType: true, reason: true }, orderBy: { id: "asc" as const } },
} as const;

/** Our order id of an exchange order id, or undefined when we hold no such link. */
export async function orderIdOfExchangeOrder(db: DbOrTx, exchangeOrderId: string): Promise<number | undefined> {
  const link = await db.exchangeLink.findUnique({ where: { exchangeOrderId }, select: { orderId: true } });
  return link?.orderId;
}

export function controlOrderView(db: DbOrTx, orderId: number) {
  return db.order.findUnique({ where: { id: orderId }, select: CONTROL_ORDER_SELECT });
}
