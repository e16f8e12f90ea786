// "Arriving": the car is SMS_ARRIVING_MINUTES from the pickup. Sent once per
// order, only when the passenger's "assigned" SMS promised a longer wait (a
// car confirmed two minutes away needs no second message); checked by the
// timed job (jobs.ts) under the order's lock, so that instances racing on
// one order send one SMS.
import type { Db } from "../db";
import { sqlQuery } from "../db/sql";
import { config } from "../config";
import { lockOrder } from "../orders/move-order";
import { queuePassengerSms } from "./compose";
import { wakeOutbox } from "../notifications/wake";

const CANDIDATES = `
  SELECT o.id FROM orders o
   WHERE o.state IN ('CONFIRMED', 'CONFIRMED_CLIENT_NOTIFIED') AND o.need_notify AND o.arrival_at IS NOT NULL
     AND o.arrival_at <= now() + $1 * interval '1 minute'
     AND EXISTS (SELECT 1 FROM sms_message s WHERE s.order_id = o.id AND s.event = 'ASSIGNED' AND s.created_at < o.arrival_at - $1 * interval '1 minute')
     AND NOT EXISTS (SELECT 1 FROM sms_message s WHERE s.order_id = o.id AND s.event = 'ARRIVING')
   ORDER BY o.arrival_at LIMIT 100`;

export async function sendArrivingSms(db: Db): Promise<number> {
  const minutes = config().SMS_ARRIVING_MINUTES;
  if (minutes <= 0) return 0;
  let sent = 0;
  for (const { id } of await sqlQuery<{ id: number }>(db, CANDIDATES, [minutes])) {
    const queued = await db.$transaction(async (tx) => {
      const order = await lockOrder(tx, { orderId: id });
      if (order.state !== "CONFIRMED" && order.state !== "CONFIRMED_CLIENT_NOTIFIED") return false;
      if (await tx.smsMessage.findFirst({ where: { orderId: id, event: "ARRIVING" }, select: { id: true } })) return false;
      return queuePassengerSms(tx, id, "ARRIVING", { needsDriver: true });
    });
    if (queued) sent += 1;
  }
  if (sent) wakeOutbox();
  return sent;
}
