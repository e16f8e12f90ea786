// The exchange's notifications to participants' servers (POST <server url>/on/...).
// Written to the outbox in the transaction of the change that causes them;
// the outbox worker delivers them at least once, one at a time and in order
// per (participant, order), retrying with backoff while the server is down.
// The delivery id goes in the header x-delivery-id (the worker) and in the
// body as meta.deliveryId, so the receiver applies each one once.
import { randomUUID } from "node:crypto";
import type { Tx } from "../db";
import { config } from "../config";
import type { Prisma } from "../generated/prisma/client";
import { trimEndChar } from "../text/trim";

export type NotificationTopic =
  | "order/registered"
  | "order/refused"
  | "order/received"
  | "order/accepted"
  | "order/taken"
  | "order/updated"
  | "order/completed"
  | "order/cancelled"
  | "order/rejectdriver"
  | "order/restore"
  | "order/revoked"
  | "driver/update";

export interface Notification {
  participantId: number;
  topic: NotificationTopic;
  data: Prisma.InputJsonObject;
  /** Deliveries with the same key go in order: per participant and order (or driver). */
  orderingKey: string;
}

export function orderKey(participantId: number, exchangeOrderId: number): string {
  return `exchange:p${participantId}:o${exchangeOrderId}`;
}

export function driverKey(participantId: number, driverId: string): string {
  return `exchange:p${participantId}:d${driverId}`;
}

/** The server a participant is notified at: its first registered server with a URL. */
export async function serverUrls(tx: Tx, participantIds: number[]): Promise<Map<number, string>> {
  const servers = await tx.exchangeServer.findMany({
    where: { participantId: { in: [...new Set(participantIds)] }, url: { not: "" } },
    select: { participantId: true, url: true },
    orderBy: { id: "asc" },
  });
  const urls = new Map<number, string>();
  for (const s of servers) if (!urls.has(s.participantId)) urls.set(s.participantId, trimEndChar(s.url, "/"));
  return urls;
}

/** Writes the notifications to the outbox, in the order given. Returns how many. */
export async function notify(tx: Tx, notifications: Notification[]): Promise<number> {
  if (notifications.length === 0) return 0;
  const urls = await serverUrls(
    tx,
    notifications.map((n) => n.participantId),
  );
  let written = 0;
  for (const n of notifications) {
    const url = urls.get(n.participantId);
    if (!url) continue;
    const deliveryId = randomUUID();
    await tx.outboxMessage.create({
      data: {
        deliveryId,
        channel: "exchange",
        topic: n.topic,
        orderingKey: n.orderingKey,
        target: `${url}/on/${n.topic}`,
        payload: { meta: { deliveryId, vendor: config().EXCHANGE_VENDOR, topic: n.topic }, data: n.data },
      },
      select: { id: true },
    });
    written++;
  }
  return written;
}
