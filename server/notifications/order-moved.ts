// What a move of an order tells people, written in the move's transaction
// (a subscriber of server/orders/move-subscribers.ts): the client's SMS (when
// need_notify) and the integrator's status callback.
import type { Tx } from "../db";
import { enqueue } from "./outbox";
import { callbackFields, renderCallbackUrl, type CallbackOrder } from "./callback-template";
import type { MovedOrder } from "../orders/move-order";
import { isToldBySms, type OrderState } from "../orders/states";

/** Moves the client is told of by SMS: a driver is assigned; the car has arrived. */
const SMS_ON: Partial<Record<OrderState, (o: CallbackOrder) => string>> = {
  CONFIRMED: (o) =>
    `К вам едет ${o.car_color} ${o.brand} ${o.model}, ${o.autonum}${o.remaining ? `, через ${o.remaining} мин` : ""}. Водитель ${o.car_firstname}, ${o.car_phone}`,
  AWAITING_CLIENT: (o) => `Вас ожидает ${o.car_color} ${o.brand} ${o.model}, ${o.autonum}`,
};

/** The integrator's status callback for a move, or null when its key has no template. */
export function statusCallback(template: string | null | undefined, fields: CallbackOrder, orderId: number) {
  if (!template) return null;
  return { channel: "callback" as const, topic: "status", orderingKey: `order:${orderId}`, target: renderCallbackUrl(template, fields), payload: { statusCode: Number(fields.status_code) } };
}

export async function notifyOrderMoved(tx: Tx, moved: MovedOrder): Promise<void> {
  const order = await tx.order.findUniqueOrThrow({
    where: { id: moved.id },
    select: {
      id: true,
      uuid: true,
      phone: true,
      clientName: true,
      street: true,
      house: true,
      amount: true,
      needNotify: true,
      arrivalAt: true,
      apiKey: { select: { callbackTemplate: true, revokedAt: true } },
      client: { select: { bonus: true } },
      driver: { select: { callSign: true, firstName: true, phone: true, car: { select: { brand: true, model: true, color: true, regNumber: true } } } },
    },
  });
  const fields = callbackFields({ ...order, clientBonus: order.client?.bonus ?? null }, moved.statusCode, moved.to);
  const key = `order:${order.id}`;
  const sms = SMS_ON[moved.to];
  if (sms && order.needNotify && order.driver) {
    // orderId and state let the delivery record that the client was told (client-notified.ts).
    const payload = { text: sms(fields), orderId: order.id, ...(isToldBySms(moved.to) ? { state: moved.to } : {}) };
    await enqueue(tx, { channel: "sms", topic: moved.to, orderingKey: key, target: order.phone, payload });
  }
  const template = order.apiKey && !order.apiKey.revokedAt ? order.apiKey.callbackTemplate : null;
  const callback = statusCallback(template, fields, order.id);
  if (callback) await enqueue(tx, callback);
}
