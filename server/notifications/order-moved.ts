// What a move of an order tells people, written in the move's transaction
// (a subscriber of server/orders/move-subscribers.ts): the client's SMS (when
// need_notify; texts and events in server/sms/compose.ts) and the integrator's
// status callback.
import type { Tx } from "../db";
import { enqueue } from "./outbox";
import { callbackFields, renderCallbackUrl, type CallbackOrder } from "./callback-template";
import type { MovedOrder } from "../orders/move-order";
import { passengerSmsOnMove } from "../sms/compose";

/**
 * The integrator's status callback for a move, or null when its key has no
 * template. The key's id travels with it: the sender signs with the key's
 * secret as it is when the callback goes out (server/notifications/senders.ts).
 */
export function statusCallback(template: string | null | undefined, fields: CallbackOrder, orderId: number, apiKeyId: number | null = null) {
  if (!template) return null;
  const payload = { statusCode: Number(fields.status_code), ...(apiKeyId !== null ? { apiKeyId } : {}) };
  return { channel: "callback" as const, topic: "status", orderingKey: `order:${orderId}`, target: renderCallbackUrl(template, fields), payload };
}

export async function notifyOrderMoved(tx: Tx, moved: MovedOrder): Promise<void> {
  // The passenger's SMS first (the same ordering key: it leaves before the callback), from the service's template.
  await passengerSmsOnMove(tx, moved);
  // The order's fields are read only for a key with a callback: most moves
  // have none, and the dispatch makes hundreds a round (docs/performance.md,
  // "Round four"). The move's own statement found out (MovedOrder.found).
  if (!moved.found.callback) return;
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
      apiKey: { select: { id: true, callbackTemplate: true, revokedAt: true } },
      client: { select: { bonus: true } },
      driver: { select: { callSign: true, firstName: true, phone: true, car: { select: { brand: true, model: true, color: true, regNumber: true } } } },
    },
  });
  const fields = callbackFields({ ...order, clientBonus: order.client?.bonus ?? null }, moved.statusCode, moved.to);
  const template = order.apiKey && !order.apiKey.revokedAt ? order.apiKey.callbackTemplate : null;
  const callback = statusCallback(template, fields, order.id, order.apiKey?.id ?? null);
  if (callback) await enqueue(tx, callback);
}
