// The outbox: everything that must leave the system is written here in the
// same transaction as the change that causes it, and delivered later by the
// worker (server/notifications/worker.ts). Nothing is sent from a request.
import type { DbOrTx } from "../db";
import type { Prisma } from "../generated/prisma/client";

export type OutboxChannel =
  /** an SMS to a passenger (development: logged) */
  | "sms"
  /** an integrator's status callback URL (GET) */
  | "callback"
  /** a notification from the exchange to a participant's server (POST JSON) */
  | "exchange"
  /** a call from our dispatch server to the exchange (POST JSON) */
  | "exchange-call";

export interface OutboxInput {
  channel: OutboxChannel;
  /** what it is, e.g. "order/taken" or "status" */
  topic: string;
  /** deliveries with the same key go out one at a time, in order */
  orderingKey: string;
  /** URL, phone number or other address of the receiver */
  target: string;
  payload: Prisma.InputJsonValue;
}

export async function enqueue(db: DbOrTx, message: OutboxInput): Promise<{ id: number; deliveryId: string }> {
  return db.outboxMessage.create({ data: message, select: { id: true, deliveryId: true } });
}

export async function enqueueMany(db: DbOrTx, messages: OutboxInput[]): Promise<void> {
  if (messages.length) await db.outboxMessage.createMany({ data: messages });
}
