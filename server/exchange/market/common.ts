// What the exchange's order operations share: locking an order, moving it
// through the one state machine (server/orders/states.ts) with its history,
// who is interested in an order, the order resource, and the live events.
import type { Db, Tx } from "../../db";
import { ExchangeError } from "../../errors";
import { publish } from "../../events/bus";
import type { Prisma } from "../../generated/prisma/client";
import { wakeOutbox } from "../../notifications/wake";
import { canMoveOnExchange, codeOf, isDone, isOrderState, type OrderState } from "../../orders/states";
import { forbidden, gone } from "../errors";
import { sqlQuery } from "../../db/sql";
import { selectInterested } from "../data";

export interface ExchangeOrderRow {
  id: number;
  sellerId: number;
  sourceOrderId: string;
  attributes: Prisma.JsonValue;
  fare: number;
  carClass: number;
  state: OrderState;
  statusCode: number;
  executorId: number | null;
  executorOrderId: string | null;
  executor: Prisma.JsonValue | null;
  arrivalMinutes: number | null;
  completion: Prisma.JsonValue | null;
  cancelReason: string;
}

const ORDER_SELECT = {
  id: true,
  sellerId: true,
  sourceOrderId: true,
  attributes: true,
  fare: true,
  carClass: true,
  state: true,
  statusCode: true,
  executorId: true,
  executorOrderId: true,
  executor: true,
  arrivalMinutes: true,
  completion: true,
  cancelReason: true,
} as const satisfies Prisma.ExchangeOrderSelect;

function toRow(row: Prisma.ExchangeOrderGetPayload<{ select: typeof ORDER_SELECT }>): ExchangeOrderRow {
  if (!isOrderState(row.state)) throw new ExchangeError("CONFLICT", { reason: `unknown stored state ${row.state}` });
  return { ...row, state: row.state };
}

/** Reads an order under a row lock (FOR NO KEY UPDATE); undefined when there is none. */
export async function lockExchangeOrder(tx: Tx, id: number): Promise<ExchangeOrderRow | undefined> {
  const locked = await sqlQuery<{ id: number }>(tx, `SELECT id FROM exchange_order WHERE id = $1 FOR NO KEY UPDATE`, [id]);
  if (locked.length === 0) return undefined;
  const row = await tx.exchangeOrder.findUnique({ where: { id }, select: ORDER_SELECT });
  return row ? toRow(row) : undefined;
}

export async function readExchangeOrder(db: Db | Tx, id: number): Promise<ExchangeOrderRow | undefined> {
  const row = await db.exchangeOrder.findUnique({ where: { id }, select: ORDER_SELECT });
  return row ? toRow(row) : undefined;
}

/** The order of a mutating call, or Gone when the exchange has no such open order. */
export async function lockOpenOrder(tx: Tx, id: number): Promise<ExchangeOrderRow> {
  const order = await lockExchangeOrder(tx, id);
  if (!order) throw gone(`order ${id} is not registered on the exchange`);
  if (order.state === "NOT_REGISTERED" || isDone(order.state)) {
    throw gone(`order ${id} is not registered or already closed (${order.state}, ${order.statusCode})`);
  }
  return order;
}

export type Role = "seller" | "executor";

/** The caller's part in the order; Forbidden when it has none of those allowed. */
export function roleOf(order: ExchangeOrderRow, participantId: number, allowed: Role[]): Role {
  if (allowed.includes("seller") && order.sellerId === participantId) return "seller";
  if (allowed.includes("executor") && order.executorId !== null && order.executorId === participantId) return "executor";
  throw forbidden(`this operation on order ${order.id} is for its ${allowed.join(" or ")}`);
}

/** Moves the order (checked against the state machine) and records the move. */
export async function moveExchangeOrder(
  tx: Tx,
  order: ExchangeOrderRow,
  to: OrderState,
  input: { participantId: number | null; reason?: string; data?: Prisma.ExchangeOrderUncheckedUpdateInput },
): Promise<ExchangeOrderRow> {
  if (!canMoveOnExchange(order.state, to)) {
    throw new ExchangeError("FORBIDDEN_MOVE", { from: order.state, fromCode: order.statusCode, to, toCode: codeOf(to) });
  }
  const updated = await tx.exchangeOrder.update({
    where: { id: order.id },
    data: { ...input.data, state: to, statusCode: codeOf(to) },
    select: ORDER_SELECT,
  });
  await tx.exchangeStatusChange.create({
    data: {
      exchangeOrderId: order.id,
      fromState: order.state,
      toState: to,
      toCode: codeOf(to),
      participantId: input.participantId,
      reason: input.reason ?? "",
    },
    select: { id: true },
  });
  return toRow(updated);
}

/** Participants able to take an order of this car class (the rule and its SQL: server/exchange/data.ts). */
export async function interestedParticipants(tx: Db | Tx, carClass: number, exclude: number[]): Promise<number[]> {
  return selectInterested(tx, carClass, exclude);
}

/** Participants to whom the order is on offer now. */
export async function openOffers(tx: Tx, exchangeOrderId: number): Promise<number[]> {
  const rows = await tx.exchangeOffer.findMany({
    where: { exchangeOrderId, withdrawnAt: null },
    select: { participantId: true },
    orderBy: { participantId: "asc" },
  });
  return rows.map((r) => r.participantId);
}

export async function withdrawOffers(tx: Tx, exchangeOrderId: number, except: number[] = []): Promise<void> {
  await tx.exchangeOffer.updateMany({
    where: { exchangeOrderId, withdrawnAt: null, participantId: { notIn: except } },
    data: { withdrawnAt: new Date() },
  });
}

/** Offers the order to these participants (again). */
export async function openOffersFor(tx: Tx, exchangeOrderId: number, participantIds: number[]): Promise<void> {
  for (const participantId of participantIds) {
    await tx.exchangeOffer.upsert({
      where: { exchangeOrderId_participantId: { exchangeOrderId, participantId } },
      create: { exchangeOrderId, participantId },
      update: { withdrawnAt: null, sentAt: new Date() },
      select: { participantId: true },
    });
  }
}

export function attributesOf(order: Pick<ExchangeOrderRow, "attributes">): Record<string, Prisma.JsonValue> {
  const a = order.attributes;
  return a && typeof a === "object" && !Array.isArray(a) ? (a as Record<string, Prisma.JsonValue>) : {};
}

/**
 * The order's attributes as a participant may see them: the seller and the
 * executor (`party`) see everything; a participant it is only offered to
 * does not see the client (phone, name) — the executor gets them with
 * `restore` when it takes the order.
 */
function visibleAttributes(order: ExchangeOrderRow, party: boolean): Record<string, unknown> {
  const { client, ...rest } = attributesOf(order);
  return party && client !== undefined ? { ...rest, client } : rest;
}

/** The order as the reference's resource: type, id, attributes with the status. */
export function orderResource(order: ExchangeOrderRow, options: { party: boolean }) {
  const attributes: Record<string, unknown> = { ...visibleAttributes(order, options.party), status: order.statusCode };
  if (options.party && order.executor) {
    attributes.executor = order.executor;
    if (order.arrivalMinutes !== null) {
      attributes.time = { ...((attributes.time) ?? {}), arrival: order.arrivalMinutes };
    }
  }
  return { type: "order" as const, id: String(order.id), attributes };
}

/** The attributes sent in notifications, with the status (the client only to the parties). */
export function notificationAttributes(order: ExchangeOrderRow, party: boolean): Prisma.InputJsonObject {
  return { ...visibleAttributes(order, party), status: order.statusCode };
}

/** The client's contact, as `restore` gives it to the executor. */
export function clientOf(order: ExchangeOrderRow): { phone: string; name: string } {
  const client = (attributesOf(order).client ?? {}) as { phone?: unknown; name?: unknown };
  return { phone: client.phone === undefined ? "" : String(client.phone), name: client.name === undefined ? "" : String(client.name) };
}

/** The seller's id of the order as the notifications carry it: a number when it is one. */
export function sourceIdValue(sourceOrderId: string): string | number {
  return /^\d{1,15}$/.test(sourceOrderId) ? Number(sourceOrderId) : sourceOrderId;
}

/** After commit: the consoles hear of the change, the outbox worker wakes. */
export function announce(orders: Array<{ id: number; state: string }>): void {
  for (const o of orders) publish({ type: "exchange.changed", exchangeOrderId: o.id, state: o.state });
  wakeOutbox();
}
