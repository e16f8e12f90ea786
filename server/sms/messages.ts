// The passenger's SMS as records (sms_message): written with the outbox
// message in the transaction of its cause, marked sent with the provider's
// ids by the delivery, delivered or failed by the receipts, listed on the
// order's card.
import type { DbOrTx, Tx } from "../db";
import { sqlQuery } from "../db/sql";
import { enqueue } from "../notifications/outbox";
import type { SmsEvent } from "../../shared/sms/templates";
import type { PartProgress, SmsOutcome } from "./provider";

/** What an SMS outbox message carries (server/orders/client-notified.ts reads orderId and state). */
export interface SmsPayload {
  text: string;
  orderId?: number;
  state?: "CONFIRMED" | "AWAITING_CLIENT";
  sender?: string;
}

export interface QueuedSms {
  orderId: number;
  event: SmsEvent;
  phone: string;
  text: string;
  language: string;
  sender: string;
  /** The state the SMS tells of, when its delivery moves the order on (10, 11). */
  tells?: "CONFIRMED" | "AWAITING_CLIENT";
}

/**
 * Queues one SMS in the caller's transaction: the outbox message, whose
 * delivery id is the message's idempotency key (every retry carries it), and
 * its record under the same id.
 */
export async function queueSms(tx: Tx, sms: QueuedSms): Promise<{ deliveryId: string }> {
  const payload: SmsPayload = { text: sms.text, orderId: sms.orderId, sender: sms.sender, ...(sms.tells ? { state: sms.tells } : {}) };
  const message = await enqueue(tx, { channel: "sms", topic: sms.event, orderingKey: `order:${sms.orderId}`, target: sms.phone, payload: { ...payload } });
  await tx.smsMessage.create({
    data: { orderId: sms.orderId, event: sms.event, phone: sms.phone, text: sms.text, language: sms.language, deliveryId: message.deliveryId },
    select: { id: true },
  });
  return { deliveryId: message.deliveryId };
}

export type SmsRecordState = "QUEUED" | "SENT" | "DELIVERED" | "FAILED";

/** The record of an outbox message (null for messages queued without one), with a long message's parts accepted so far. */
export async function smsRecord(db: DbOrTx, deliveryId: string): Promise<{ id: number; state: SmsRecordState; parts: PartProgress | null } | null> {
  const row = await db.smsMessage.findUnique({ where: { deliveryId }, select: { id: true, state: true, concatRef: true, partIds: true } });
  if (!row) return null;
  return { id: row.id, state: row.state, parts: row.concatRef === null ? null : { reference: row.concatRef, ids: row.partIds } };
}

/**
 * Records a long message's progress while it is still queued: its
 * reference, each accepted part's id by number, and those ids as the
 * provider's (so a part's receipt, which may come before the last part is
 * taken, finds the message).
 */
export async function saveParts(db: DbOrTx, smsId: number, provider: string, progress: PartProgress): Promise<void> {
  await db.smsMessage.updateMany({
    where: { id: smsId, state: "QUEUED" },
    data: { provider, concatRef: progress.reference, partIds: progress.ids, providerIds: progress.ids.filter(Boolean), parts: progress.ids.length },
  });
}

/** Records an attempt's outcome: sent with the provider's ids, failed for good, or the passing error (still queued). */
export async function recordAttempt(db: DbOrTx, smsId: number, outcome: SmsOutcome): Promise<void> {
  if (outcome.ok) {
    await db.smsMessage.updateMany({
      where: { id: smsId, state: "QUEUED" },
      data: { state: "SENT", provider: outcome.provider, providerIds: outcome.providerIds, parts: outcome.parts, sentAt: new Date(), error: null },
    });
    // Receipts for every part can come before this mark (a long message's early parts, a quick SMSC): delivered now.
    await sqlQuery(db, `UPDATE sms_message SET state = 'DELIVERED', delivered_at = now() WHERE id = $1 AND state = 'SENT' AND delivered_parts >= parts RETURNING id`, [smsId]);
  } else if (!outcome.retriable) {
    await db.smsMessage.updateMany({ where: { id: smsId, state: "QUEUED" }, data: { state: "FAILED", error: outcome.error.slice(0, 500), failedAt: new Date() } });
  } else {
    await db.smsMessage.updateMany({ where: { id: smsId, state: "QUEUED" }, data: { error: outcome.error.slice(0, 500) } });
  }
}

/**
 * A receipt for one part: counts a delivered part (the message is DELIVERED
 * once all are) or fails the message. False when no message has the id.
 */
export async function markReceipt(db: DbOrTx, providerId: string, outcome: "DELIVERED" | "FAILED", stat: string, provider: "smpp" | "http" = "smpp"): Promise<boolean> {
  // The HTTP provider's receipt may name the message by our own id (the %id% it was sent with) as well as by the provider's.
  const ours = provider === "http" && UUID.test(providerId);
  const which = `provider = $2 AND (provider_ids @> ARRAY[$1]::text[]${ours ? " OR delivery_id = $1::uuid" : ""})`;
  const rows = await sqlQuery<{ id: number }>(
    db,
    outcome === "DELIVERED"
      ? `UPDATE sms_message
            SET delivered_parts = delivered_parts + 1,
                state = CASE WHEN state = 'SENT' AND delivered_parts + 1 >= parts THEN 'DELIVERED'::"SmsState" ELSE state END,
                delivered_at = CASE WHEN state = 'SENT' AND delivered_parts + 1 >= parts THEN now() ELSE delivered_at END
          WHERE ${which}
      RETURNING id`
      : `UPDATE sms_message
            SET state = CASE WHEN state IN ('SENT', 'QUEUED') THEN 'FAILED'::"SmsState" ELSE state END,
                failed_at = CASE WHEN state IN ('SENT', 'QUEUED') THEN now() ELSE failed_at END,
                error = $3
          WHERE ${which}
      RETURNING id`,
    outcome === "DELIVERED" ? [providerId, provider] : [providerId, provider, `receipt: ${stat}`],
  );
  return rows.length > 0;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a message sent through the HTTP provider has this id (the provider's or ours). */
export async function httpMessageExists(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await sqlQuery<{ id: number }>(
    db,
    `SELECT id FROM sms_message WHERE provider = 'http' AND (provider_ids @> ARRAY[$1]::text[]${UUID.test(id) ? " OR delivery_id = $1::uuid" : ""}) LIMIT 1`,
    [id],
  );
  return rows.length > 0;
}

export interface OrderSms {
  id: number;
  event: string;
  phone: string;
  text: string;
  state: "QUEUED" | "SENT" | "DELIVERED" | "FAILED";
  provider: string;
  providerIds: string[];
  parts: number;
  error: string | null;
  createdAt: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
}

/** The order's SMS, oldest first (the card's list; an order has a handful). */
export async function orderSms(db: DbOrTx, orderId: number): Promise<OrderSms[]> {
  return db.smsMessage.findMany({
    where: { orderId },
    orderBy: { id: "asc" },
    take: 50,
    select: { id: true, event: true, phone: true, text: true, state: true, provider: true, providerIds: true, parts: true, error: true, createdAt: true, sentAt: true, deliveredAt: true, failedAt: true },
  });
}
