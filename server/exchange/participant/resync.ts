// After a new session (ours was lost: the exchange restarted or forgot it,
// our egress address changed) or a restart of ours, notifications may have
// been missed — an exchange written from the reference promises no
// redelivery. Every job turn notices a session this process has not
// re-read with yet, and re-reads the open orders linked to the exchange
// with POST /order/get (data.orders, 100 at a time); a difference is applied
// as the notification that would have told it (inbound.ts, without a
// delivery id: known by content and order state, so a notification that
// arrives as well changes nothing). Takes are never made here: a take left
// unanswered is settled by recover-takes.ts, so nothing is taken twice.
import { z } from "zod";
import type { Db } from "../../db";
import { log } from "../../log";
import { callExchange, readSession } from "./client";
import { receiveNotification, type InboundTopic } from "./inbound";

const OPEN_PHASES = ["REGISTERED", "ACCEPTED", "TAKEN", "OFFERED"];
const BATCH = 100;

const resource = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  attributes: z.looseObject({
    status: z.number().int(),
    executor: z.record(z.string(), z.unknown()).optional(),
    time: z.looseObject({ arrival: z.number().int().optional() }).optional(),
  }),
});
const reply = z.object({ data: z.union([z.array(z.unknown()), z.unknown()]) });

const doneKey = Symbol.for("taxi.exchangeResyncedToken");
const triedKey = Symbol.for("taxi.exchangeResyncTried");
type Holder = { [doneKey]?: string; [triedKey]?: number };
/** A re-reading that failed is tried again after this long. */
const RETRY_MS = 10_000;

interface Link {
  role: string;
  phase: string;
  remoteState: number | null;
}

/** The notification that tells what the exchange shows, or undefined when the link already knows it. */
export function missedNotification(link: Link, order: z.output<typeof resource>): { topic: InboundTopic; data: Record<string, unknown> } | undefined {
  const { id } = order;
  const { status, executor } = order.attributes;
  const reason = "seen on the exchange after a new session";
  if (link.role === "BOUGHT" && link.phase === "OFFERED") {
    return status === 9 || status === 8 ? undefined : { topic: "order/revoked", data: { id, reason } };
  }
  if (status === 100) return { topic: "order/completed", data: { id, attributes: {} } };
  if (status >= 90) return { topic: "order/cancelled", data: { id, status: String(status), reason } };
  if (link.role === "SOLD" && executor && link.phase !== "TAKEN") {
    return { topic: "order/taken", data: { id, orderId: "", attributes: { time: { arrival: order.attributes.time?.arrival ?? 0 }, executor } } };
  }
  if (link.phase === "TAKEN" && !executor) return { topic: "order/rejectdriver", data: { id } };
  if (status !== link.remoteState) return { topic: "order/updated", data: { id, attributes: { status } } };
  return undefined;
}

/** Re-reads every open linked order; returns how many differences were applied. */
export async function resyncOrders(db: Db): Promise<number> {
  const links = await db.exchangeLink.findMany({
    where: { exchangeOrderId: { not: null }, phase: { in: OPEN_PHASES } },
    select: { role: true, phase: true, remoteState: true, exchangeOrderId: true },
    orderBy: { orderId: "asc" },
    take: 1000,
  });
  let applied = 0;
  for (let i = 0; i < links.length; i += BATCH) {
    const batch = links.slice(i, i + BATCH);
    const body = reply.parse(await callExchange(db, "order/get", { orders: batch.map((l) => l.exchangeOrderId!) }));
    const list = Array.isArray(body.data) ? body.data : [body.data];
    for (const item of list) {
      const parsed = resource.safeParse(item);
      if (!parsed.success) continue;
      const link = batch.find((l) => l.exchangeOrderId === parsed.data.id);
      const missed = link && missedNotification(link, parsed.data);
      if (!missed) continue;
      try {
        const result = await receiveNotification(db, missed.topic, undefined, { data: missed.data });
        if (!result.duplicate) applied++;
      } catch (error) {
        log.warn("exchange: a difference found after a new session could not be applied", { id: parsed.data.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return applied;
}

/** One job turn: re-reads once per session this process has not re-read with. */
export async function resyncAfterNewSession(db: Db): Promise<number> {
  const session = await readSession(db);
  const holder = globalThis as Holder;
  if (!session || holder[doneKey] === session.token) return 0;
  if (Date.now() - (holder[triedKey] ?? 0) < RETRY_MS) return 0;
  holder[triedKey] = Date.now();
  const applied = await resyncOrders(db);
  holder[triedKey] = 0;
  holder[doneKey] = session.token;
  if (applied > 0) log.info("exchange: orders re-read after a new session", { applied });
  return applied;
}
