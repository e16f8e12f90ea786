// The control panel's read model: what one participant may see of its
// exchange activity, read straight from the exchange's tables. Every query
// is scoped by the participant id that the verified certificate gave
// (server/panel/identity.ts); none takes an id of another participant from
// the request. Money is in minor units (kopecks) as numbers.
//
//   profile        the exchange profile, its servers, services, certificates
//   balance        the balance, totals by kind, the ledger (commission entries included)
//   orders         sold (seller = me) and bought (executor = me), with price and my commission
//   notifications  the exchange's notifications to my server (outbox channel
//                  "exchange", ordering keys exchange:p<me>:...), with every delivery attempt
//   connection     my servers' last check, my last call to the exchange, delivery health
import { config } from "../config";
import type { DbOrTx } from "../db";
import type { ExchangeEntryKind, OutboxStatus, Prisma } from "../generated/prisma/client";
import { isDone, isOrderState } from "../orders/states";
import { escapeLike } from "../db/like";
import { afterCursor, rowsFor, toPage } from "../db/paging";

export const PAGE_SIZE = 50;
const DAY = 24 * 3600 * 1000;
/** A server whose last check is older than this counts as not checked recently. */
const CHECK_STALE_MS = 30 * 60 * 1000;

const money = (value: bigint | number | null | undefined): number => Number(value ?? 0);

/** The outbox rows that are notifications to this participant's server. */
export function notificationScope(participantId: number, exchangeOrderId?: number): Prisma.OutboxMessageWhereInput {
  return exchangeOrderId === undefined
    ? { channel: "exchange", orderingKey: { startsWith: escapeLike(`exchange:p${participantId}:`) } }
    : { channel: "exchange", orderingKey: `exchange:p${participantId}:o${exchangeOrderId}` };
}

// ---------------------------------------------------------------- profile

export async function panelProfile(db: DbOrTx, participantId: number) {
  const p = await db.exchangeParticipant.findUnique({
    where: { id: participantId },
    include: {
      servers: { orderBy: { id: "asc" } },
      services: { orderBy: { externalId: "asc" } },
      keys: { orderBy: { id: "desc" }, select: { id: true, prefix: true, createdAt: true, revokedAt: true } },
      certificates: { where: { kind: "CLIENT" }, orderBy: { id: "desc" }, select: { serial: true, subject: true, issuerSerial: true, notBefore: true, notAfter: true, revokedAt: true } },
    },
  });
  if (!p) return null;
  // a certificate under a revoked (or expired) authority is as good as revoked
  const authorities = await db.issuedCertificate.findMany({ where: { kind: { in: ["ROOT", "INTERMEDIATE"] } }, select: { serial: true, issuerSerial: true, revokedAt: true, notAfter: true } });
  const bySerial = new Map(authorities.map((a) => [a.serial, a]));
  const authorityEnded = (serial: string | null): boolean => {
    for (let depth = 0; serial && depth < 5; depth++) {
      const authority = bySerial.get(serial);
      if (!authority) return false;
      if (authority.revokedAt || authority.notAfter.getTime() <= Date.now()) return true;
      serial = authority.issuerSerial;
    }
    return false;
  };
  return {
    id: p.id,
    name: p.name,
    details: p.details,
    email: p.email,
    phone: p.phone,
    country: { ru: p.countryRu, en: p.countryEn },
    location: { ru: p.locationRu, en: p.locationEn, lat: p.lat, lon: p.lon },
    currency: p.currency,
    commissionBp: p.commissionBp ?? config().EXCHANGE_COMMISSION_BP,
    commissionIsDefault: p.commissionBp === null,
    balance: money(p.balance),
    disabled: p.disabled,
    createdAt: p.createdAt,
    servers: p.servers.map((s) => ({ id: s.id, url: s.url, address: s.address, vendor: s.vendor, lastCheckAt: s.lastCheckAt, lastCheckOk: s.lastCheckOk })),
    services: p.services.map((s) => ({ id: s.externalId, name: s.name, description: s.description, carClass: s.carClass, executes: s.executes })),
    keys: p.keys,
    certificates: p.certificates.map(({ issuerSerial, ...c }) => ({
      ...c,
      status:
        c.revokedAt || authorityEnded(issuerSerial) ? ("revoked" as const) : c.notAfter.getTime() <= Date.now() ? ("expired" as const) : ("active" as const),
    })),
  };
}

export type PanelProfile = NonNullable<Awaited<ReturnType<typeof panelProfile>>>;

// ---------------------------------------------------------------- balance and ledger

export const LEDGER_KINDS = ["DEPOSIT", "SALE", "PURCHASE", "COMMISSION", "ADJUSTMENT"] as const satisfies readonly ExchangeEntryKind[];

export async function ledgerTotals(db: DbOrTx, participantId: number, since?: Date) {
  const groups = await db.exchangeLedgerEntry.groupBy({
    by: ["kind"],
    where: { participantId, ...(since ? { createdAt: { gte: since } } : {}) },
    _sum: { amount: true },
    _count: { _all: true },
  });
  const totals = Object.fromEntries(LEDGER_KINDS.map((k) => [k, { amount: 0, count: 0 }])) as Record<ExchangeEntryKind, { amount: number; count: number }>;
  for (const g of groups) totals[g.kind] = { amount: money(g._sum.amount), count: g._count._all };
  return totals;
}

export interface LedgerQuery {
  kind?: ExchangeEntryKind;
  /** Entries with a smaller id (the next page). */
  before?: number;
  limit?: number;
}

export async function ledgerPage(db: DbOrTx, participantId: number, query: LedgerQuery = {}) {
  const limit = Math.min(query.limit ?? PAGE_SIZE, 200);
  const rows = await db.exchangeLedgerEntry.findMany({
    where: afterCursor({ participantId, ...(query.kind ? { kind: query.kind } : {}) }, query.before, "desc"),
    orderBy: { id: "desc" },
    take: rowsFor({ limit }),
    select: { id: true, kind: true, amount: true, balanceAfter: true, exchangeOrderId: true, reason: true, createdAt: true, order: { select: { sellerId: true, executorId: true, sourceOrderId: true } } },
  });
  const { items: page, nextCursor } = toPage(rows, limit);
  return {
    entries: page.map((e) => ({
      id: e.id,
      kind: e.kind,
      amount: money(e.amount),
      balanceAfter: money(e.balanceAfter),
      exchangeOrderId: e.exchangeOrderId,
      /** Whether the order opens in this panel (sold or bought by the participant). */
      orderVisible: Boolean(e.order && (e.order.sellerId === participantId || e.order.executorId === participantId)),
      reason: e.reason,
      createdAt: e.createdAt,
    })),
    nextBefore: nextCursor ?? undefined,
  };
}

// ---------------------------------------------------------------- orders

export type OrderRole = "sold" | "bought";
export type OrderFilter = "all" | "active" | "done";

interface StoredPoint {
  street?: string;
  house?: string;
  porch?: string;
  latitude?: number;
  longitude?: number;
}

function pointText(value: unknown): string {
  if (!value || typeof value !== "object") return "";
  const p = value as StoredPoint;
  const text = [p.street, p.house].filter((s) => typeof s === "string" && s.trim()).join(", ");
  if (text) return text;
  return typeof p.latitude === "number" && typeof p.longitude === "number" ? `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)}` : "";
}

function routeOf(attributes: Prisma.JsonValue): { from: string; to: string; registeredAt: string | null } {
  const a = (attributes && typeof attributes === "object" && !Array.isArray(attributes) ? attributes : {}) as Record<string, unknown>;
  const time = (a.time ?? {}) as { registered?: unknown };
  return { from: pointText(a.from), to: pointText(a.to), registeredAt: typeof time.registered === "string" ? time.registered : null };
}

function stateGroup(code: number): "done" | "active" {
  return code >= 90 ? "done" : "active";
}

export interface OrdersQuery {
  role: OrderRole;
  filter?: OrderFilter;
  before?: number;
  limit?: number;
}

async function commissionsFor(db: DbOrTx, participantId: number, orderIds: number[]): Promise<Map<number, { commission: number; settled: number }>> {
  const map = new Map<number, { commission: number; settled: number }>();
  if (orderIds.length === 0) return map;
  const entries = await db.exchangeLedgerEntry.findMany({
    where: { participantId, exchangeOrderId: { in: orderIds } },
    select: { exchangeOrderId: true, kind: true, amount: true },
  });
  for (const e of entries) {
    if (e.exchangeOrderId === null) continue;
    const item = map.get(e.exchangeOrderId) ?? { commission: 0, settled: 0 };
    if (e.kind === "COMMISSION") item.commission += money(-e.amount);
    item.settled += money(e.amount);
    map.set(e.exchangeOrderId, item);
  }
  return map;
}

export async function ordersPage(db: DbOrTx, participantId: number, query: OrdersQuery) {
  const limit = Math.min(query.limit ?? PAGE_SIZE, 200);
  const mine: Prisma.ExchangeOrderWhereInput = query.role === "sold" ? { sellerId: participantId } : { executorId: participantId };
  const filter: Prisma.ExchangeOrderWhereInput =
    query.filter === "active" ? { statusCode: { lt: 90 } } : query.filter === "done" ? { statusCode: { gte: 90 } } : {};
  const rows = await db.exchangeOrder.findMany({
    where: afterCursor({ ...mine, ...filter }, query.before, "desc"),
    orderBy: { id: "desc" },
    take: rowsFor({ limit }),
    select: {
      id: true,
      sourceOrderId: true,
      executorOrderId: true,
      attributes: true,
      fare: true,
      carClass: true,
      state: true,
      statusCode: true,
      createdAt: true,
      updatedAt: true,
      takenAt: true,
      completedAt: true,
      seller: { select: { name: true } },
      executorPart: { select: { name: true } },
    },
  });
  const { items: page, nextCursor } = toPage(rows, limit);
  const money = await commissionsFor(
    db,
    participantId,
    page.map((o) => o.id),
  );
  return {
    orders: page.map((o) => ({
      id: o.id,
      /** The id in my own system: the seller's order id, or the executor's. */
      myOrderId: query.role === "sold" ? o.sourceOrderId : (o.executorOrderId ?? ""),
      counterparty: query.role === "sold" ? (o.executorPart?.name ?? null) : o.seller.name,
      ...routeOf(o.attributes),
      fare: o.fare,
      carClass: o.carClass,
      state: o.state,
      statusCode: o.statusCode,
      group: stateGroup(o.statusCode),
      commission: money.get(o.id)?.commission ?? 0,
      settled: money.get(o.id)?.settled ?? 0,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
      takenAt: o.takenAt,
      completedAt: o.completedAt,
    })),
    nextBefore: nextCursor ?? undefined,
  };
}

export async function orderCounts(db: DbOrTx, participantId: number) {
  const [soldActive, soldAll, boughtActive, boughtAll] = await Promise.all([
    db.exchangeOrder.count({ where: { sellerId: participantId, statusCode: { lt: 90 } } }),
    db.exchangeOrder.count({ where: { sellerId: participantId } }),
    db.exchangeOrder.count({ where: { executorId: participantId, statusCode: { lt: 90 } } }),
    db.exchangeOrder.count({ where: { executorId: participantId } }),
  ]);
  return { sold: { active: soldActive, all: soldAll }, bought: { active: boughtActive, all: boughtAll } };
}

/** One order, only when the participant sold or bought it (else null: the page is a 404). */
export async function orderDetail(db: DbOrTx, participantId: number, orderId: number) {
  if (!Number.isSafeInteger(orderId) || orderId <= 0) return null;
  const o = await db.exchangeOrder.findFirst({
    where: { id: orderId, OR: [{ sellerId: participantId }, { executorId: participantId }] },
    include: {
      seller: { select: { name: true } },
      executorPart: { select: { name: true } },
      history: { orderBy: { id: "asc" }, select: { id: true, fromState: true, toState: true, toCode: true, reason: true, at: true } },
    },
  });
  if (!o) return null;
  const role: OrderRole = o.sellerId === participantId ? "sold" : "bought";
  const [ledger, notifications] = await Promise.all([
    db.exchangeLedgerEntry.findMany({
      where: { participantId, exchangeOrderId: o.id },
      orderBy: { id: "asc" },
      select: { id: true, kind: true, amount: true, balanceAfter: true, reason: true, createdAt: true },
    }),
    notificationsPage(db, participantId, { orderId: o.id, limit: 100 }),
  ]);
  const attributes = (o.attributes && typeof o.attributes === "object" && !Array.isArray(o.attributes) ? o.attributes : {}) as Record<string, unknown>;
  const client = (attributes.client ?? {}) as { name?: unknown; phone?: unknown };
  const executor = (o.executor && typeof o.executor === "object" && !Array.isArray(o.executor) ? o.executor : null) as Record<string, unknown> | null;
  const completion = (o.completion && typeof o.completion === "object" && !Array.isArray(o.completion) ? o.completion : null) as Record<string, unknown> | null;
  const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");
  return {
    id: o.id,
    role,
    myOrderId: role === "sold" ? o.sourceOrderId : (o.executorOrderId ?? ""),
    seller: o.seller.name,
    executor: o.executorPart?.name ?? null,
    ...routeOf(o.attributes),
    note: text(attributes.note),
    client: { name: text(client.name), phone: text(client.phone) },
    fare: o.fare,
    carClass: o.carClass,
    state: o.state,
    statusCode: o.statusCode,
    done: isOrderState(o.state) ? isDone(o.state) : o.statusCode >= 90,
    cancelReason: o.cancelReason,
    arrivalMinutes: o.arrivalMinutes,
    driver: executor
      ? {
          callSign: text(executor.callSign),
          phone: text(executor.phone),
          car: [text(executor.brand), text(executor.model), text(executor.color)].filter(Boolean).join(" "),
          plate: text(executor.registrationNumber),
        }
      : null,
    completion: completion ? { fare: text(completion.fare), distance: text(completion.distance) } : null,
    createdAt: o.createdAt,
    takenAt: o.takenAt,
    completedAt: o.completedAt,
    history: o.history,
    ledger: ledger.map((e) => ({ ...e, amount: money(e.amount), balanceAfter: money(e.balanceAfter) })),
    notifications: notifications.messages,
  };
}

export type PanelOrderDetail = NonNullable<Awaited<ReturnType<typeof orderDetail>>>;

// ---------------------------------------------------------------- notifications

export interface NotificationsQuery {
  status?: OutboxStatus;
  orderId?: number;
  before?: number;
  limit?: number;
}

export async function notificationsPage(db: DbOrTx, participantId: number, query: NotificationsQuery = {}) {
  const limit = Math.min(query.limit ?? PAGE_SIZE, 200);
  const rows = await db.outboxMessage.findMany({
    where: afterCursor({ ...notificationScope(participantId, query.orderId), ...(query.status ? { status: query.status } : {}) }, query.before, "desc"),
    orderBy: { id: "desc" },
    take: rowsFor({ limit }),
    select: {
      id: true,
      deliveryId: true,
      topic: true,
      orderingKey: true,
      target: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      lastError: true,
      createdAt: true,
      deliveredAt: true,
      attemptLog: { orderBy: { id: "desc" }, take: 20, select: { id: true, at: true, httpStatus: true, error: true, durationMs: true } },
    },
  });
  const { items: page, nextCursor } = toPage(rows, limit);
  return {
    messages: page.map((m) => {
      const order = /:o(\d+)$/.exec(m.orderingKey);
      return {
        id: m.id,
        deliveryId: m.deliveryId,
        topic: m.topic,
        exchangeOrderId: order ? Number(order[1]) : null,
        target: m.target,
        status: m.status,
        attempts: m.attempts,
        nextAttemptAt: m.status === "PENDING" ? m.nextAttemptAt : null,
        lastError: m.lastError,
        createdAt: m.createdAt,
        deliveredAt: m.deliveredAt,
        attemptLog: m.attemptLog,
      };
    }),
    nextBefore: nextCursor ?? undefined,
  };
}

export async function notificationCounts(db: DbOrTx, participantId: number) {
  const groups = await db.outboxMessage.groupBy({ by: ["status"], where: notificationScope(participantId), _count: { _all: true } });
  const counts: Record<OutboxStatus, number> = { PENDING: 0, DELIVERED: 0, FAILED: 0 };
  for (const g of groups) counts[g.status] = g._count._all;
  return counts;
}

// ---------------------------------------------------------------- connection

export type ConnectionState = "online" | "unreachable" | "stale" | "unknown" | "none";

export async function connectionStatus(db: DbOrTx, participantId: number, now = new Date()) {
  const [servers, session, lastDelivered, lastAttempt, pending, failing] = await Promise.all([
    db.exchangeServer.findMany({ where: { participantId }, orderBy: { id: "asc" } }),
    db.exchangeSession.findFirst({ where: { participantId, revokedAt: null }, orderBy: [{ lastUsedAt: { sort: "desc", nulls: "last" } }, { id: "desc" }], select: { createdAt: true, lastUsedAt: true } }),
    db.outboxMessage.findFirst({ where: { ...notificationScope(participantId), status: "DELIVERED" }, orderBy: { deliveredAt: "desc" }, select: { deliveredAt: true } }),
    db.deliveryAttempt.findFirst({ where: { message: notificationScope(participantId) }, orderBy: { id: "desc" }, select: { at: true, httpStatus: true, error: true } }),
    db.outboxMessage.count({ where: { ...notificationScope(participantId), status: "PENDING" } }),
    db.outboxMessage.count({ where: { ...notificationScope(participantId), status: "PENDING", attempts: { gt: 0 } } }),
  ]);
  const serverStates = servers.map((s) => {
    let state: ConnectionState = "unknown";
    if (s.lastCheckAt && s.lastCheckOk === false) state = "unreachable";
    else if (s.lastCheckAt && s.lastCheckOk) state = now.getTime() - s.lastCheckAt.getTime() > CHECK_STALE_MS ? "stale" : "online";
    return { id: s.id, url: s.url, address: s.address, vendor: s.vendor, lastCheckAt: s.lastCheckAt, lastCheckOk: s.lastCheckOk, state };
  });
  const lastAttemptOk = lastAttempt ? lastAttempt.httpStatus !== null && lastAttempt.httpStatus >= 200 && lastAttempt.httpStatus < 300 && !lastAttempt.error : null;
  // the overall state: the latest thing the exchange learnt of the server,
  // a check (GET /) or a delivery attempt; "stale" when that is old
  const signals = [
    ...servers.filter((s) => s.lastCheckAt && s.lastCheckOk !== null).map((s) => ({ at: s.lastCheckAt as Date, ok: Boolean(s.lastCheckOk) })),
    ...(lastAttempt && lastAttemptOk !== null ? [{ at: lastAttempt.at, ok: lastAttemptOk }] : []),
  ].sort((a, b) => b.at.getTime() - a.at.getTime());
  const latest = signals[0];
  let overall: ConnectionState = "none";
  if (serverStates.length) {
    if (!latest) overall = "unknown";
    else if (!latest.ok) overall = "unreachable";
    else overall = now.getTime() - latest.at.getTime() > CHECK_STALE_MS ? "stale" : "online";
  }
  return {
    state: overall,
    servers: serverStates,
    lastCallAt: session?.lastUsedAt ?? session?.createdAt ?? null,
    sessionOpen: Boolean(session),
    lastDeliveredAt: lastDelivered?.deliveredAt ?? null,
    lastAttempt: lastAttempt ? { ...lastAttempt, ok: lastAttemptOk } : null,
    pending,
    failing,
  };
}

export type PanelConnection = Awaited<ReturnType<typeof connectionStatus>>;

// ---------------------------------------------------------------- overview

export async function panelOverview(db: DbOrTx, participantId: number, now = new Date()) {
  const since = new Date(now.getTime() - 30 * DAY);
  const [totals30, counts, recentSold, recentBought, notifications, recentNotifications] = await Promise.all([
    ledgerTotals(db, participantId, since),
    orderCounts(db, participantId),
    ordersPage(db, participantId, { role: "sold", limit: 5 }),
    ordersPage(db, participantId, { role: "bought", limit: 5 }),
    notificationCounts(db, participantId),
    notificationsPage(db, participantId, { limit: 5 }),
  ]);
  return { totals30, counts, recentSold: recentSold.orders, recentBought: recentBought.orders, notifications, recentNotifications: recentNotifications.messages };
}
