// The exchange's notifications to our server (POST /participant/on/...),
// applied once each. With a delivery id (x-delivery-id, or meta.deliveryId:
// our exchange sends one) the id is recorded in InboundNotification in the
// same transaction as the change, so a redelivered notification changes
// nothing. The reference names no delivery id, so a notification may come
// without one: it is then known by its content and the state of the order
// it left (receiveNotification): the same notification again while the
// order is still in that state is a duplicate, and every notification is applied
// so that applying it again in the state it produced changes nothing (a
// move to the state the order is in is no move; `taken` sends the
// passenger's SMS only when the order was not taken already). Local orders follow the
// exchange through moveOrder with the actor EXCHANGE (which move-effects.ts
// does not report back). A move the local order cannot make is not forced:
// it is noted on the link for the dispatcher.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Db, Tx } from "../../db";
import { ExchangeError } from "../../errors";
import { publish } from "../../events/bus";
import { Prisma } from "../../generated/prisma/client";
import { enqueue } from "../../notifications/outbox";
import { wakeOutbox } from "../../notifications/wake";
import { moveOrderInTx, publishMoves, type MovedOrder } from "../../orders/move-order";
import { wasCarried } from "../../orders/carried";
import { DRIVER_HOLDING_STATES, canMoveOnExchange, codeOf, isDone, isOrderState, stateOfCode, type OrderState } from "../../orders/states";
import { gone, missing } from "../errors";
import { enqueueCall } from "./client";
import { insertOfferedOrder, localFields, presentFields } from "./local-order";
import { sqlExecute, sqlQuery } from "../../db/sql";

export const INBOUND_TOPICS = [
  "order/registered",
  "order/refused",
  "order/received",
  "order/accepted",
  "order/taken",
  "order/updated",
  "order/completed",
  "order/cancelled",
  "order/rejectdriver",
  "order/restore",
  "order/revoked",
  "driver/update",
] as const;
export type InboundTopic = (typeof INBOUND_TOPICS)[number];

const idValue = z.union([z.string("string or integer id").min(1, "non-empty id").max(64, "id of at most 64 characters"), z.number("string or integer id").int("integer id")], "string or integer id");
const object = z.record(z.string(), z.unknown(), "object");

/**
 * What each notification must carry, as the reference's Events table
 * shapes it (more is ignored): checked before anything is applied, so that
 * a notification without a delivery id is still refused when it is not one.
 */
export const INBOUND_SHAPES: Record<InboundTopic, z.ZodType> = {
  "order/registered": z.looseObject({ id: idValue, orderId: idValue }),
  "order/refused": z.looseObject({ orderId: idValue }),
  "order/received": z.looseObject({ id: idValue, attributes: object }),
  "order/accepted": z.looseObject({ orderId: idValue }),
  "order/taken": z.looseObject({ id: idValue, attributes: z.looseObject({ executor: object }, "object") }),
  "order/updated": z.looseObject({ id: idValue, attributes: object }),
  "order/completed": z.looseObject({ id: idValue }),
  "order/cancelled": z.looseObject({ id: idValue }),
  "order/rejectdriver": z.looseObject({ id: idValue }),
  "order/restore": z.looseObject({ id: idValue, attributes: z.looseObject({ client: object }, "object") }),
  "order/revoked": z.looseObject({ id: idValue }),
  "driver/update": z.looseObject({ id: idValue, attributes: object }),
};

export function isInboundTopic(value: string): value is InboundTopic {
  return (INBOUND_TOPICS as readonly string[]).includes(value);
}

type Data = Record<string, unknown>;

interface Effects {
  moves: MovedOrder[];
  created: Array<{ id: number; uuid: string; regionId: number | null }>;
  outbox: boolean;
}

const LINK_SELECT = {
  orderId: true,
  role: true,
  phase: true,
  exchangeOrderId: true,
  sourceId: true,
  remoteState: true,
  executor: true,
  order: { select: { state: true, phone: true, needNotify: true } },
} as const satisfies Prisma.ExchangeLinkSelect;

type Link = Prisma.ExchangeLinkGetPayload<{ select: typeof LINK_SELECT }>;

function idOf(data: Data, name = "id"): string {
  const v = data[name];
  if (v === undefined || v === null || v === "") throw missing(`data.${name}`);
  if (typeof v !== "string" && typeof v !== "number") throw new ExchangeError("BAD_PARAMETER", { parameter: `data.${name}`, expected: "string or integer" });
  return String(v);
}

function objectOf(value: unknown): Data {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Data) : {};
}

async function linkByExchangeId(tx: Tx, id: string): Promise<Link> {
  const link = await tx.exchangeLink.findUnique({ where: { exchangeOrderId: id }, select: LINK_SELECT });
  if (!link) throw gone(`exchange order ${id} is unknown here`);
  return link;
}

async function linkBySourceId(tx: Tx, sourceId: string): Promise<Link> {
  const link = await tx.exchangeLink.findUnique({ where: { sourceId }, select: LINK_SELECT });
  if (!link) throw gone(`no order of ours was sold as ${sourceId}`);
  return link;
}

async function note(tx: Tx, orderId: number, text: string): Promise<void> {
  await tx.exchangeLink.update({ where: { orderId }, data: { note: text.slice(0, 500) }, select: { orderId: true } });
}

/**
 * Moves the local order to the state of an exchange status, when the state
 * machine allows it. An order ended as completed (100) that no driver of ours
 * and no executor carried here (a copy of an offer the seller's own driver
 * did, "done by the seller") ends as removed (91): "completed" needs an order
 * a driver carried (server/orders/carried.ts), and the copy must not stay open.
 */
async function follow(tx: Tx, fx: Effects, link: Link, code: number, extra: { reason?: string; arrivalMinutes?: number } = {}): Promise<void> {
  let to = stateOfCode(code);
  const actor = { type: "EXCHANGE", id: link.exchangeOrderId } as const;
  const order = await tx.order.findUniqueOrThrow({ where: { id: link.orderId }, select: { state: true, driverId: true } });
  if (!to || !isOrderState(order.state) || order.state === to) return;
  let reason = extra.reason ?? "from the exchange";
  if (to === "DONE_SUCCESSFUL" && !isDone(order.state) && !(await wasCarried(tx, { id: link.orderId, driverId: order.driverId }, actor))) {
    to = "DONE_REMOVED";
    reason = `${reason}: completed elsewhere, carried by no driver of ours or executor`;
  }
  if (!canMoveOnExchange(order.state, to)) {
    await note(tx, link.orderId, `the exchange moved the order to ${to} (${code}); the local order stays ${order.state}`);
    return;
  }
  fx.moves.push(
    await moveOrderInTx(tx, {
      orderId: link.orderId,
      to,
      actor,
      reason,
      ...(extra.arrivalMinutes !== undefined ? { arrivalMinutes: extra.arrivalMinutes } : {}),
    }),
  );
}

/** A sold order that changed locally while its sale was queued: tell the exchange now. */
async function reconcileSold(tx: Tx, link: Link, exchangeId: string, fx: Effects): Promise<void> {
  const state = link.order.state;
  if (!isOrderState(state)) return;
  if (isDone(state)) {
    if (state === "DONE_SUCCESSFUL") await enqueueCall(tx, link.orderId, "order/revoke", { id: exchangeId });
    else await enqueueCall(tx, link.orderId, "order/cancel", { id: exchangeId, status: codeOf(state), reason: "cancelled while being sold" });
    await tx.exchangeLink.update({ where: { orderId: link.orderId }, data: { phase: "CLOSED" }, select: { orderId: true } });
    fx.outbox = true;
  } else if (DRIVER_HOLDING_STATES.includes(state)) {
    await enqueueCall(tx, link.orderId, "order/revoke", { id: exchangeId });
    await tx.exchangeLink.update({ where: { orderId: link.orderId }, data: { phase: "CLOSED" }, select: { orderId: true } });
    fx.outbox = true;
  }
}

function statusOf(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,4}$/.test(value) ? Number(value) : undefined;
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}

async function apply(tx: Tx, topic: InboundTopic, data: Data, fx: Effects): Promise<void> {
  switch (topic) {
    case "order/registered": {
      const link = await linkBySourceId(tx, idOf(data, "orderId"));
      const id = idOf(data);
      await tx.exchangeLink.update({
        where: { orderId: link.orderId },
        data: { exchangeOrderId: id, remoteState: codeOf("FREE"), ...(link.phase === "SELLING" ? { phase: "REGISTERED" } : {}) },
        select: { orderId: true },
      });
      await reconcileSold(tx, link, id, fx);
      return;
    }
    case "order/refused": {
      const link = await linkBySourceId(tx, idOf(data, "orderId"));
      const reason = typeof data.reason === "string" ? data.reason : "no executor services found";
      await tx.exchangeLink.update({
        where: { orderId: link.orderId },
        data: { phase: "REFUSED", remoteState: codeOf("DONE_NO_CARS"), note: `refused by the exchange: ${reason}` },
        select: { orderId: true },
      });
      return;
    }
    case "order/accepted": {
      const link = await linkBySourceId(tx, idOf(data, "orderId"));
      const id = data.id === undefined ? undefined : idOf(data);
      await tx.exchangeLink.update({
        where: { orderId: link.orderId },
        data: {
          ...(link.phase === "SELLING" || link.phase === "REGISTERED" ? { phase: "ACCEPTED" } : {}),
          ...(id && !link.exchangeOrderId ? { exchangeOrderId: id } : {}),
        },
        select: { orderId: true },
      });
      return;
    }
    case "order/received": {
      const id = idOf(data);
      const attributes = objectOf(data.attributes);
      const existing = await tx.exchangeLink.findUnique({ where: { exchangeOrderId: id }, select: LINK_SELECT });
      if (existing?.role === "SOLD") return; // our own order: nothing to take
      if (existing && isOrderState(existing.order.state) && !isDone(existing.order.state)) {
        await tx.order.update({ where: { id: existing.orderId }, data: localFields(attributes), select: { id: true } });
        await tx.exchangeLink.update({ where: { orderId: existing.orderId }, data: { phase: "OFFERED", remoteState: codeOf("FREE") }, select: { orderId: true } });
        await follow(tx, fx, existing, codeOf("FREE"), { reason: "offered again by the exchange" });
        return;
      }
      // A closed local copy stays as it was; the new offer gets a new copy.
      if (existing) await tx.exchangeLink.delete({ where: { orderId: existing.orderId } });
      const order = await insertOfferedOrder(tx, id, attributes);
      if (!order) throw gone("this server has no service to take orders into");
      await tx.exchangeLink.create({
        data: { orderId: order.id, role: "BOUGHT", exchangeOrderId: id, phase: "OFFERED", remoteState: statusOf(attributes.status) ?? codeOf("FREE") },
        select: { orderId: true },
      });
      fx.created.push(order);
      return;
    }
    case "order/taken": {
      const link = await linkByExchangeId(tx, idOf(data));
      const attributes = objectOf(data.attributes);
      const executor = objectOf(attributes.executor);
      const arrival = statusOf(objectOf(attributes.time).arrival);
      await tx.exchangeLink.update({
        where: { orderId: link.orderId },
        data: {
          phase: "TAKEN",
          remoteState: codeOf("SENT_TO_DRIVER"),
          executor: { ...executor, ...(arrival !== undefined ? { arrival } : {}), executorOrderId: data.orderId === undefined ? null : String(data.orderId) },
        },
        select: { orderId: true },
      });
      await follow(tx, fx, link, codeOf("SENT_TO_DRIVER"), { reason: "taken on the exchange", ...(arrival !== undefined ? { arrivalMinutes: arrival } : {}) });
      // Step 5: the seller tells the passenger that a driver is coming (once per take).
      if (link.phase !== "TAKEN" && link.order.needNotify && link.order.phone) {
        const car = [executor.color, executor.brand, executor.model].filter((v) => typeof v === "string" && v).join(" ");
        const text =
          `К вам едет ${car}${executor.registrationNumber ? `, ${String(executor.registrationNumber)}` : ""}` +
          `${arrival !== undefined ? `, через ${arrival} мин` : ""}` +
          `${executor.phone ? `. Водитель ${String(executor.callSign ?? "")}, ${String(executor.phone)}` : ""}`;
        await enqueue(tx, { channel: "sms", topic: "TAKEN_ON_EXCHANGE", orderingKey: `order:${link.orderId}`, target: link.order.phone, payload: { text } });
        fx.outbox = true;
      }
      return;
    }
    case "order/updated": {
      const link = await linkByExchangeId(tx, idOf(data));
      const attributes = objectOf(data.attributes);
      const status = statusOf(attributes.status);
      if (link.role === "BOUGHT") {
        const fields = presentFields(attributes);
        if (Object.keys(fields).length > 0) await tx.order.update({ where: { id: link.orderId }, data: fields, select: { id: true } });
      }
      if (status !== undefined) {
        await tx.exchangeLink.update({ where: { orderId: link.orderId }, data: { remoteState: status }, select: { orderId: true } });
        await follow(tx, fx, link, status, { reason: "status from the exchange" });
      }
      return;
    }
    case "order/completed": {
      const link = await linkByExchangeId(tx, idOf(data));
      await tx.exchangeLink.update({
        where: { orderId: link.orderId },
        data: { phase: "CLOSED", remoteState: codeOf("DONE_SUCCESSFUL"), completion: objectOf(data.attributes) as Prisma.InputJsonObject },
        select: { orderId: true },
      });
      await follow(tx, fx, link, codeOf("DONE_SUCCESSFUL"), { reason: "completed by the exchange's executor" });
      return;
    }
    case "order/cancelled": {
      const link = await linkByExchangeId(tx, idOf(data));
      const status = statusOf(data.status) ?? codeOf("DONE_CANCELLED");
      const reason = typeof data.reason === "string" && data.reason ? data.reason : "cancelled on the exchange";
      const to: OrderState | undefined = stateOfCode(status);
      await tx.exchangeLink.update({
        where: { orderId: link.orderId },
        data: { remoteState: status, ...(to && isDone(to) ? { phase: "CLOSED" } : {}) },
        select: { orderId: true },
      });
      await follow(tx, fx, link, status, { reason });
      return;
    }
    case "order/rejectdriver": {
      const link = await linkByExchangeId(tx, idOf(data));
      const reason = typeof data.reason === "string" && data.reason ? data.reason : undefined;
      if (link.role === "SOLD") {
        await tx.exchangeLink.update({
          where: { orderId: link.orderId },
          data: { phase: "ACCEPTED", remoteState: codeOf("FREE"), executor: Prisma.DbNull, note: reason ? `the executor refused: ${reason}` : "the executor refused" },
          select: { orderId: true },
        });
        await follow(tx, fx, link, codeOf("FREE"), { reason: reason ?? "the executor gave the order back" });
      } else {
        await tx.exchangeLink.update({ where: { orderId: link.orderId }, data: { phase: "CLOSED", remoteState: codeOf("FREE") }, select: { orderId: true } });
        await follow(tx, fx, link, codeOf("DONE_REMOVED"), { reason: "the seller removed our driver" });
      }
      return;
    }
    case "order/restore": {
      // The client's contact, which offers do not show, for the executor.
      const link = await linkByExchangeId(tx, idOf(data));
      const client = objectOf(objectOf(data.attributes).client);
      await tx.order.update({
        where: { id: link.orderId },
        data: {
          ...(client.phone !== undefined ? { phone: String(client.phone).slice(0, 32) } : {}),
          ...(client.name !== undefined ? { clientName: String(client.name).slice(0, 200) } : {}),
        },
        select: { id: true },
      });
      return;
    }
    case "order/revoked": {
      const link = await linkByExchangeId(tx, idOf(data));
      await tx.exchangeLink.update({ where: { orderId: link.orderId }, data: { phase: "CLOSED" }, select: { orderId: true } });
      if (link.role === "BOUGHT") {
        const reason = typeof data.reason === "string" && data.reason ? data.reason : "revoked by the exchange";
        await follow(tx, fx, link, codeOf("DONE_REMOVED"), { reason });
      }
      return;
    }
    case "driver/update": {
      const driverId = idOf(data);
      const attributes = objectOf(data.attributes);
      const orders = Array.isArray(data.orders) ? data.orders.map(String) : [];
      const links = await tx.exchangeLink.findMany({
        where: { role: "SOLD", phase: "TAKEN", ...(orders.length ? { exchangeOrderId: { in: orders } } : {}) },
        select: { orderId: true, executor: true },
      });
      for (const link of links) {
        const executor = objectOf(link.executor);
        if (!orders.length && executor.id !== driverId && executor.callSign !== attributes.callSign) continue;
        const position: Data = {};
        for (const [from, to] of [["latitude", "latitude"], ["longitude", "longitude"], ["speed", "speed"], ["bearing", "bearing"], ["status", "driverStatus"]] as const) {
          if (attributes[from] !== undefined) position[to] = String(attributes[from]);
        }
        await tx.exchangeLink.update({
          where: { orderId: link.orderId },
          data: { executor: { ...executor, ...position, positionAt: new Date().toISOString() } },
          select: { orderId: true },
        });
      }
      return;
    }
  }
}

export interface InboundResult {
  duplicate: boolean;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The state of the order a notification is about: link phase, exchange status, local state ("-": none). */
async function orderStateOf(tx: Tx, topic: InboundTopic, data: Data): Promise<string> {
  const id = typeof data.id === "string" || typeof data.id === "number" ? String(data.id) : undefined;
  const sourceId = typeof data.orderId === "string" || typeof data.orderId === "number" ? String(data.orderId) : undefined;
  const link =
    (id !== undefined && topic !== "driver/update" ? await tx.exchangeLink.findUnique({ where: { exchangeOrderId: id }, select: LINK_SELECT }) : null) ??
    (sourceId !== undefined ? await tx.exchangeLink.findUnique({ where: { sourceId }, select: LINK_SELECT }) : null);
  return link ? `${link.orderId}:${link.phase}:${link.remoteState ?? ""}:${link.order.state}` : "-";
}

/** The key of a notification without a delivery id: its topic and data. */
function contentKey(topic: InboundTopic, data: Data): string {
  return `content:${createHash("sha256").update(`${topic}\n${stableJson(data)}`).digest("hex")}`;
}

/**
 * Applies one notification once. Errors are thrown (the exchange retries
 * what is not answered 2xx). Without a delivery id the row of its content
 * key keeps the state the order was left in (`stateAfter`): the same
 * content again while the order is still in that state is a duplicate;
 * after the order has moved on (say an offer closed and offered again) it
 * is applied again. The row is inserted first, so that two copies arriving
 * at once are decided by the database (the second waits for the first).
 */
export async function receiveNotification(db: Db, topic: InboundTopic, deliveryId: string | undefined, body: Data): Promise<InboundResult> {
  const data = objectOf(body.data);
  const fx: Effects = { moves: [], created: [], outbox: false };
  const duplicate = await db.$transaction(async (tx) => {
    const key = deliveryId ?? contentKey(topic, data);
    const inserted = await sqlQuery<{ delivery_id: string }>(
      tx,
      `INSERT INTO inbound_notification (delivery_id, path, payload, received_at) VALUES ($1, $2, $3::jsonb, now())
       ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id`,
      [key, `/on/${topic}`, JSON.stringify(body)],
    );
    if (inserted.length === 0) {
      if (deliveryId !== undefined) return true;
      const seen = await sqlQuery<{ state_after: string | null }>(
        tx,
        `SELECT payload->>'stateAfter' AS state_after FROM inbound_notification WHERE delivery_id = $1 FOR UPDATE`,
        [key],
      );
      if (seen[0]?.state_after === (await orderStateOf(tx, topic, data))) return true;
    }
    await apply(tx, topic, data, fx);
    if (deliveryId === undefined) {
      await sqlExecute(
        tx,
        `UPDATE inbound_notification SET payload = $2::jsonb, received_at = now() WHERE delivery_id = $1`,
        [key, JSON.stringify({ ...body, stateAfter: await orderStateOf(tx, topic, data) })],
      );
    }
    return false;
  });
  if (!duplicate) {
    for (const order of fx.created) {
      publish({ type: "order.created", orderId: order.id, uuid: order.uuid, state: "FREE", statusCode: codeOf("FREE"), regionId: order.regionId });
    }
    publishMoves(fx.moves);
    if (fx.outbox && fx.moves.length === 0) wakeOutbox();
    publish({ type: "exchange.changed", exchangeOrderId: Number(typeof data.id === "string" || typeof data.id === "number" ? data.id : 0) || 0, state: topic });
  }
  return { duplicate };
}
