// The exchange desk: what our dispatch does on the order exchange. Orders we
// sold and bought (ExchangeLink with the local order), the offers we
// received, the notifications and calls we sent (the outbox's exchange
// channels, with every delivery attempt) and those we received
// (InboundNotification), our balance on the exchange when this instance is
// the exchange too, and the actions: sell a free order, give an offer to a
// driver, send a message again by hand. The actions are the exchange's and
// the outbox's own services.
import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { Actor } from "../actor";
import { config } from "../config";
import { ValidationError } from "../errors";
import { FREE_STATES } from "../orders/states";
import { participantSettings, readSession } from "../exchange/participant/client";
import { LIVE_SOLD_PHASES, sellOrder } from "../exchange/participant/sell";
import { takeOffer } from "../exchange/participant/take";
import { hashSecret } from "../exchange/sessions";
import { OUR_PARTICIPANT } from "../seed/exchange";
import { retryOutboxMessage } from "../notifications/worker";
import { escapeLike } from "../db/like";
import { afterCursor, rowsFor, toPage, toPageBy } from "../db/paging";

export const EXCHANGE_CHANNELS = ["exchange-call", "exchange"] as const;
export type ExchangeChannel = (typeof EXCHANGE_CHANNELS)[number];

export const SOLD_PHASES = ["SELLING", "REGISTERED", "ACCEPTED", "REFUSED", "TAKEN", "CLOSED"] as const;
export const BOUGHT_PHASES = ["OFFERED", "TAKING", "TAKEN", "CLOSED"] as const;

/** Our participant on this instance's exchange: by our client key, else the demo's name for us. */
async function ourParticipant(db: Db) {
  const key = config().EXCHANGE_CLIENT_KEY;
  if (key) {
    const known = await db.exchangeClientKey.findUnique({ where: { keyHash: hashSecret(key) }, select: { participantId: true } });
    if (known) return known.participantId;
  }
  const named = await db.exchangeParticipant.findFirst({ where: { name: OUR_PARTICIPANT }, select: { id: true } });
  return named?.id ?? null;
}

/** The desk's head: settings, session, counts by phase, the outbox's state, our balance. */
export async function deskSummary(db: Db) {
  const settings = participantSettings();
  const [session, links, outbox, inbound24h, participantId, turnover] = await Promise.all([
    readSession(db),
    db.exchangeLink.groupBy({ by: ["role", "phase"], _count: { _all: true } }),
    db.outboxMessage.groupBy({ by: ["status"], where: { channel: { in: [...EXCHANGE_CHANNELS] } }, _count: { _all: true } }),
    db.inboundNotification.count({ where: { receivedAt: { gte: new Date(Date.now() - 24 * 3600_000) } } }),
    ourParticipant(db),
    db.order.groupBy({
      by: ["source"],
      where: { state: "DONE_SUCCESSFUL", exchangeLink: { isNot: null } },
      _sum: { amount: true },
      _count: { _all: true },
    }),
  ]);
  const sold: Record<string, number> = {};
  const bought: Record<string, number> = {};
  for (const l of links) (l.role === "SOLD" ? sold : bought)[l.phase] = l._count._all;
  const byStatus = { PENDING: 0, DELIVERED: 0, FAILED: 0 };
  for (const o of outbox) byStatus[o.status] = o._count._all;
  const participant = participantId
    ? await db.exchangeParticipant.findUnique({
        where: { id: participantId },
        select: {
          id: true,
          name: true,
          balance: true,
          currency: true,
          commissionBp: true,
          ledger: { orderBy: { id: "desc" }, take: 20, select: { id: true, kind: true, amount: true, balanceAfter: true, reason: true, exchangeOrderId: true, createdAt: true } },
        },
      })
    : null;
  // Completed orders we sold (ours, source not EXCHANGE) and bought (source EXCHANGE).
  const soldDone = turnover.filter((t) => t.source !== "EXCHANGE").reduce((s, t) => ({ count: s.count + t._count._all, amount: s.amount + (t._sum.amount ?? 0) }), { count: 0, amount: 0 });
  const boughtDone = turnover.find((t) => t.source === "EXCHANGE");
  return {
    exchangeUrl: settings?.url ?? null,
    sessionAt: session?.at ? new Date(session.at) : null,
    sold,
    bought,
    offersOpen: bought.OFFERED ?? 0,
    outbox: byStatus,
    inbound24h,
    participant,
    turnover: { sold: soldDone, bought: { count: boughtDone?._count._all ?? 0, amount: boughtDone?._sum.amount ?? 0 } },
  };
}

export interface LinkListInput {
  role: "SOLD" | "BOUGHT";
  phases?: string[];
  q?: string;
  cursor?: number | null;
  limit: number;
}

/** Orders we sold or bought, newest first, with the local order and the exchange's view. */
export async function listExchangeLinks(db: Db, input: LinkListInput) {
  const q = input.q?.trim();
  const where: Prisma.ExchangeLinkWhereInput = {
    role: input.role,
    ...(input.phases?.length ? { phase: { in: input.phases } } : {}),
    ...(q
      ? /^\d+$/.test(q)
        ? { OR: [{ orderId: Number(q) }, { exchangeOrderId: q }, { sourceId: q }] }
        : { order: { OR: [{ street: { contains: escapeLike(q), mode: "insensitive" } }, { dst: { contains: escapeLike(q), mode: "insensitive" } }] } }
      : {}),
  };
  const rows = await db.exchangeLink.findMany({
    where: afterCursor(where, input.cursor, "desc", "orderId"),
    orderBy: { orderId: "desc" },
    take: rowsFor(input),
    select: {
      orderId: true,
      role: true,
      phase: true,
      exchangeOrderId: true,
      sourceId: true,
      remoteState: true,
      executor: true,
      completion: true,
      note: true,
      createdAt: true,
      updatedAt: true,
      order: {
        select: {
          id: true,
          state: true,
          street: true,
          house: true,
          dst: true,
          dstStreet: true,
          dstHouse: true,
          amount: true,
          createdAt: true,
          preOrderTime: true,
          service: { select: { name: true, nameEn: true } },
          driver: { select: { id: true, callSign: true } },
        },
      },
    },
  });
  // The sale's note names the operator who sold it ("sold by USER 7"): the console shows their name instead.
  const sellers = new Map<number, string>();
  const sellerIds = rows.map((r) => /^sold by USER (\d+)$/.exec(r.note)?.[1]).filter((v): v is string => v !== undefined).map(Number);
  if (sellerIds.length) {
    for (const u of await db.user.findMany({ where: { id: { in: [...new Set(sellerIds)] } }, select: { id: true, name: true } })) sellers.set(u.id, u.name);
  }
  const page = toPageBy(rows, input.limit, (r) => r.orderId);
  const items = page.items.map((r) => {
    const seller = /^sold by USER (\d+)$/.exec(r.note)?.[1];
    const soldBy = seller ? (sellers.get(Number(seller)) ?? null) : /^sold by SYSTEM/.test(r.note) ? "SYSTEM" : null;
    return { ...r, id: r.orderId, note: soldBy ? "" : r.note, soldBy, executor: executorSummary(r.executor) };
  });
  return { items, nextCursor: page.nextCursor };
}

/** The executor of a taken order, as the exchange described it (for a line of the table). */
function executorSummary(value: Prisma.JsonValue | null) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const s = (k: string) => (typeof v[k] === "string" || typeof v[k] === "number" ? String(v[k]) : "");
  return {
    callSign: s("callSign"),
    phone: s("phone"),
    car: [s("color"), s("brand"), s("model")].filter(Boolean).join(" "),
    registrationNumber: s("registrationNumber"),
    arrival: s("arrival"),
    latitude: s("latitude"),
    longitude: s("longitude"),
  };
}

/** Removes the session token from a message's payload before the console shows it. */
function redact(payload: Prisma.JsonValue): Prisma.JsonValue {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return payload;
  const p = payload as Record<string, Prisma.JsonValue>;
  const meta = p.meta;
  if (!meta || typeof meta !== "object" || Array.isArray(meta)) return payload;
  const m = meta as Record<string, Prisma.JsonValue>;
  if (!("token" in m)) return payload;
  return { ...p, meta: { ...m, token: m.token ? "[redacted]" : "" } };
}

export interface OutboxListInput {
  channel?: ExchangeChannel;
  status?: "PENDING" | "DELIVERED" | "FAILED";
  /** messages about one local order (calls) */
  orderId?: number;
  cursor?: number | null;
  limit: number;
}

/** Notifications and calls we sent, newest first, with their last delivery attempts. */
export async function listExchangeOutbox(db: Db, input: OutboxListInput) {
  const where: Prisma.OutboxMessageWhereInput = {
    channel: input.channel ? input.channel : { in: [...EXCHANGE_CHANNELS] },
    ...(input.status ? { status: input.status } : {}),
    ...(input.orderId ? { orderingKey: `exchange-call:order:${input.orderId}` } : {}),
  };
  const rows = await db.outboxMessage.findMany({
    where: afterCursor(where, input.cursor, "desc"),
    orderBy: { id: "desc" },
    take: rowsFor(input),
    select: {
      id: true,
      channel: true,
      topic: true,
      orderingKey: true,
      target: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      lastError: true,
      createdAt: true,
      deliveredAt: true,
      attemptLog: { orderBy: { id: "desc" }, take: 3, select: { id: true, at: true, httpStatus: true, error: true, durationMs: true } },
      _count: { select: { attemptLog: true } },
    },
  });
  const page = toPage(rows, input.limit);
  return { items: page.items.map((r) => ({ ...r, orderId: orderIdOfKey(r.orderingKey) })), nextCursor: page.nextCursor };
}

function orderIdOfKey(key: string): number | null {
  const m = /^exchange-call:order:(\d+)$/.exec(key) ?? /:o(\d+)/.exec(key);
  return m?.[1] ? Number(m[1]) : null;
}

/** One message with its payload and every delivery attempt. */
export async function exchangeOutboxMessage(db: Db, id: number) {
  const row = await db.outboxMessage.findFirst({
    where: { id, channel: { in: [...EXCHANGE_CHANNELS] } },
    select: {
      id: true,
      deliveryId: true,
      channel: true,
      topic: true,
      orderingKey: true,
      target: true,
      payload: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      lastError: true,
      createdAt: true,
      deliveredAt: true,
      attemptLog: { orderBy: { id: "desc" }, take: 100, select: { id: true, at: true, httpStatus: true, error: true, durationMs: true } },
    },
  });
  if (!row) throw new ValidationError("NOT_FOUND", { what: "Exchange message", id });
  return { ...row, payload: redact(row.payload), orderId: orderIdOfKey(row.orderingKey) };
}

/** Notifications the exchange sent us, newest first (offset paging: the key is the sender's delivery id). */
export async function listInbound(db: Db, input: { path?: string; cursor?: number | null; limit: number }) {
  const skip = input.cursor ?? 0;
  const rows = await db.inboundNotification.findMany({
    where: input.path ? { path: { contains: escapeLike(input.path) } } : {},
    orderBy: [{ receivedAt: "desc" }, { deliveryId: "asc" }],
    skip,
    take: rowsFor(input),
    select: { deliveryId: true, path: true, payload: true, receivedAt: true },
  });
  const items = rows.slice(0, input.limit).map((r) => ({ ...r, summary: inboundSummary(r.payload) }));
  return { items, nextCursor: rows.length > input.limit ? skip + input.limit : null };
}

function inboundSummary(payload: Prisma.JsonValue): { id: string; orderId: string; reason: string } {
  const data = payload && typeof payload === "object" && !Array.isArray(payload) ? (payload as Record<string, unknown>).data : undefined;
  const d = data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const s = (k: string) => (typeof d[k] === "string" || typeof d[k] === "number" ? String(d[k]) : "");
  return { id: s("id"), orderId: s("orderId"), reason: s("reason") };
}

/** Free orders of ours a dispatcher may sell now (start coordinates known, not on the exchange). */
export async function sellableOrders(db: Db, input: { q?: string; limit: number }) {
  const q = input.q?.trim();
  return db.order.findMany({
    where: {
      state: { in: FREE_STATES },
      source: { not: "EXCHANGE" },
      lat: { not: null },
      lon: { not: null },
      OR: [{ exchangeLink: { is: null } }, { exchangeLink: { is: { role: "SOLD", phase: { notIn: LIVE_SOLD_PHASES } } } }],
      ...(q ? (/^\d+$/.test(q) ? { id: Number(q) } : { street: { contains: escapeLike(q), mode: "insensitive" } }) : {}),
    },
    orderBy: { id: "desc" },
    take: input.limit,
    select: {
      id: true,
      state: true,
      street: true,
      house: true,
      dst: true,
      amount: true,
      createdAt: true,
      preOrderTime: true,
      service: { select: { name: true, nameEn: true } },
      exchangeLink: { select: { phase: true, note: true } },
    },
  });
}

export async function sellToExchange(db: Db, actor: Actor, orderId: number) {
  const sold = await sellOrder(db, orderId, actor);
  return { id: sold.orderId, orderId: sold.orderId, sourceId: sold.sourceId, phase: "SELLING" };
}

export async function takeExchangeOffer(db: Db, actor: Actor, input: { exchangeOrderId: string; driverId: number; arrivalMinutes?: number }) {
  const taken = await takeOffer(db, input.exchangeOrderId, input.driverId, { arrivalMinutes: input.arrivalMinutes, actor });
  return { id: taken.orderId, orderId: taken.orderId, exchangeOrderId: taken.exchangeOrderId, arrivalMinutes: taken.arrivalMinutes, driverId: input.driverId };
}

/** Sends a pending or failed exchange message again now (retry by hand). */
export async function retryExchangeMessage(db: Db, id: number) {
  const row = await db.outboxMessage.findFirst({ where: { id, channel: { in: [...EXCHANGE_CHANNELS] } }, select: { id: true, status: true } });
  if (!row) throw new ValidationError("NOT_FOUND", { what: "Exchange message", id });
  if (row.status === "DELIVERED") throw new ValidationError("CONFLICT", { reason: "already delivered", reasonKey: "alreadyDelivered" });
  await retryOutboxMessage(id);
  return { id, from: row.status, state: "PENDING" };
}
