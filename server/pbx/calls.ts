// The call log and the consoles' incoming-call pop-up, whatever reported the
// call (AMI events: server/pbx/ami-calls.ts; a cloud PBX's webhook:
// server/pbx/webhook.ts; click-to-call: server/pbx/originate.ts).
//
// One row per call: (source, externalId) is unique, so the several events of
// one call, or the same event heard by several instances, make one row, and
// only the change of a row is published (live event call.changed). The
// pop-up goes to the dispatcher whose extension rings (to each of them when
// a ring group rings several: phone_call_ring); when the extension belongs to
// nobody, to every dispatcher (each console that is open is on shift). Values from the PBX are bounded and kept as text: the console
// renders them as text, never as markup.
import type { Db } from "../db";
import { sqlQuery } from "../db/sql";
import { publish, type LiveEvent } from "../events/bus";
import { isUniqueViolation, ValidationError } from "../errors";
import { normalizePhone } from "../orders/phone";
import { recentAddresses } from "../console/recent-addresses";
import { NOT_DONE_STATES } from "../orders/states";
import { stripControls } from "./ami-reader";
import type { CallState } from "../generated/prisma/enums";

export type CallEvent = Extract<LiveEvent, { type: "call.changed" }>;

/** An order placed this soon after a call from its phone is the order the call led to. */
export const ORDER_AFTER_CALL_MS = 30 * 60_000;
/** Missed calls stay on the consoles this long unless called back or dismissed. */
export const MISSED_VISIBLE_MS = 12 * 3600_000;

const EXTENSION = /^[0-9A-Za-z*#_-]{1,20}$/;

/** A phone as sent by a PBX: E.164 when it parses; else its dialable characters, bounded; "" when none. */
export function callPhone(raw: string | undefined): string {
  const text = stripControls(raw ?? "").trim().slice(0, 40);
  if (!text || /unknown|anonymous|restricted/i.test(text)) return "";
  const normalized = normalizePhone(text);
  if (normalized) return normalized;
  return text.replace(/[^\d+*#]/g, "").slice(0, 20);
}

/** An external caller: at least 6 digits (internal extensions are shorter and are not pop-ups). */
export function isExternalNumber(phone: string): boolean {
  return phone.replace(/\D/g, "").length >= 6;
}

export function cleanName(raw: string | undefined): string {
  const text = stripControls(raw ?? "").replace(/\s+/g, " ").trim();
  if (/^<?unknown>?$/i.test(text)) return "";
  return text.slice(0, 80);
}

export function cleanExtension(raw: string | undefined): string {
  const text = (raw ?? "").trim();
  return EXTENSION.test(text) ? text : "";
}

interface Row {
  id: number;
  state: CallState;
  phone: string;
  callerName: string;
  extension: string;
  userId: number | null;
  handledAt: Date | null;
}

const rowSelect = { id: true, state: true, phone: true, callerName: true, extension: true, userId: true, handledAt: true } as const;

/** The active dispatcher whose profile holds the extension, or null. */
async function ownerOf(db: Db, extension: string): Promise<number | null> {
  if (!extension) return null;
  const user = await db.user.findUnique({ where: { extension }, select: { id: true, disabled: true, roles: true } });
  return user && !user.disabled && user.roles.includes("DISPATCHER") ? user.id : null;
}

/** Who sees the call: null (everyone) for a call nobody's extension rang for; else its owner and every ring group member. */
async function addresseesOf(db: Db, row: Row): Promise<number[] | null> {
  if (row.userId === null) return null;
  const rings = await db.phoneCallRing.findMany({ where: { callId: row.id }, select: { userId: true } });
  return [...new Set([row.userId, ...rings.map((r) => r.userId)])];
}

async function announce(db: Db, row: Row): Promise<void> {
  const userIds = await addresseesOf(db, row);
  publish({
    type: "call.changed",
    callId: row.id,
    state: row.state,
    phone: row.phone,
    callerName: row.callerName,
    extension: row.extension,
    userIds,
    handled: row.handledAt !== null,
  });
}

export interface RingInput {
  source: string;
  externalId: string;
  phone: string;
  callerName?: string;
  extension?: string;
}

/**
 * A call rings (an incoming call): the row is created, or, when the PBX now
 * names the extension that rings and that extension has an owner, the call
 * is given to that dispatcher. Published when something changed.
 */
export async function callRinging(db: Db, input: RingInput): Promise<{ callId: number } | null> {
  const phone = callPhone(input.phone);
  if (!phone || !isExternalNumber(phone)) return null;
  const callerName = cleanName(input.callerName);
  const extension = cleanExtension(input.extension);
  const userId = await ownerOf(db, extension);
  const externalId = input.externalId.slice(0, 120);
  try {
    const row = await db.phoneCall.create({
      data: { source: input.source, externalId, direction: "IN", phone, callerName, extension, userId, ...(userId !== null ? { rings: { create: { userId, extension } } } : {}) },
      select: rowSelect,
    });
    await announce(db, row);
    return { callId: row.id };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const existing = await db.phoneCall.findUnique({ where: { source_externalId: { source: input.source, externalId } }, select: rowSelect });
  if (!existing) return null;
  if (existing.state !== "RINGING" || userId === null) return { callId: existing.id };
  // Another extension rings for the same call (a ring group): its owner sees the pop-up too.
  const { count } = await db.phoneCallRing.createMany({ data: [{ callId: existing.id, userId, extension }], skipDuplicates: true });
  if (existing.userId === null) {
    const row = await db.phoneCall.update({
      where: { id: existing.id },
      data: { extension, userId, ...(callerName && !existing.callerName ? { callerName } : {}) },
      select: rowSelect,
    });
    await announce(db, row);
  } else if (count > 0) {
    await announce(db, existing);
  }
  return { callId: existing.id };
}

/** Someone answered: at their extension when the PBX says which (the call becomes theirs). */
export async function callAnswered(db: Db, input: { source: string; externalId: string; extension?: string; at?: Date }): Promise<void> {
  const extension = cleanExtension(input.extension);
  const userId = await ownerOf(db, extension);
  const rows = await db.phoneCall.updateManyAndReturn({
    where: { source: input.source, externalId: input.externalId.slice(0, 120), state: "RINGING" },
    data: { state: "ANSWERED", answeredAt: input.at ?? new Date(), ...(userId !== null ? { userId, extension } : {}) },
    select: rowSelect,
  });
  for (const row of rows) await announce(db, row);
}

/** The call ended: MISSED when nobody answered, else ENDED with its talk time. */
export async function callEnded(db: Db, input: { source: string; externalId: string; at?: Date }): Promise<void> {
  const at = input.at ?? new Date();
  const call = await db.phoneCall.findUnique({
    where: { source_externalId: { source: input.source, externalId: input.externalId.slice(0, 120) } },
    select: { id: true, state: true, answeredAt: true },
  });
  if (!call || (call.state !== "RINGING" && call.state !== "ANSWERED")) return;
  const answered = call.state === "ANSWERED";
  const rows = await db.phoneCall.updateManyAndReturn({
    where: { id: call.id, state: call.state },
    data: answered
      ? { state: "ENDED", endedAt: at, durationSeconds: Math.max(0, Math.round((at.getTime() - (call.answeredAt ?? at).getTime()) / 1000)) }
      : { state: "MISSED", endedAt: at },
    select: rowSelect,
  });
  for (const row of rows) await announce(db, row);
}

/** An outgoing call placed from the console (click-to-call), for the log. */
export async function logOutgoingCall(db: Db, input: { externalId: string; phone: string; extension: string; userId: number; orderId?: number }): Promise<number> {
  const row = await db.phoneCall.create({
    data: {
      source: "console",
      externalId: input.externalId,
      direction: "OUT",
      state: "ANSWERED",
      phone: callPhone(input.phone) || input.phone.slice(0, 40),
      extension: input.extension,
      userId: input.userId,
      orderId: input.orderId ?? null,
    },
    select: { id: true, phone: true },
  });
  await markHandled(db, row.phone);
  return row.id;
}

/** Missed calls from the phone are dealt with (called back, or an order taken). */
export async function markHandled(db: Db, phone: string): Promise<void> {
  const rows = await db.phoneCall.updateManyAndReturn({
    where: { phone, state: "MISSED", handledAt: null },
    data: { handledAt: new Date() },
    select: rowSelect,
  });
  for (const row of rows) await announce(db, row);
}

export async function dismissMissedCall(db: Db, input: { callId: number; userId: number }): Promise<void> {
  const call = await db.phoneCall.findUnique({ where: { id: input.callId }, select: { state: true, userId: true, rings: { where: { userId: input.userId }, select: { userId: true } } } });
  // Theirs: nobody's, the owner's, or a ring group's that rang them too.
  if (!call || call.state !== "MISSED" || (call.userId !== null && call.userId !== input.userId && call.rings.length === 0)) {
    throw new ValidationError("NOT_FOUND", { what: "Missed call", id: input.callId });
  }
  await markHandled(db, (await db.phoneCall.findUniqueOrThrow({ where: { id: input.callId }, select: { phone: true } })).phone);
}

/** The calls on a dispatcher's console: ringing now and missed, theirs or nobody's. */
export async function consoleCalls(db: Db, userId: number, now = new Date()) {
  const calls = await db.phoneCall.findMany({
    where: {
      direction: "IN",
      OR: [{ userId }, { userId: null }, { rings: { some: { userId } } }],
      AND: [
        {
          OR: [
            { state: "RINGING", startedAt: { gte: new Date(now.getTime() - 10 * 60_000) } },
            { state: "MISSED", handledAt: null, startedAt: { gte: new Date(now.getTime() - MISSED_VISIBLE_MS) } },
          ],
        },
      ],
    },
    orderBy: { startedAt: "desc" },
    take: 50,
    select: { id: true, state: true, phone: true, callerName: true, extension: true, startedAt: true },
  });
  return calls;
}

/** What the pop-up shows about a caller: who they are, where they went, their orders in progress. */
export async function callerCard(db: Db, phoneInput: string) {
  const phone = callPhone(phoneInput);
  const recent = phone ? await recentAddresses(db, { phone, limit: 5 }) : { client: null, addresses: [] };
  const active = phone
    ? await db.order.findMany({
        where: { phone, state: { in: [...NOT_DONE_STATES] } },
        orderBy: { id: "desc" },
        take: 5,
        select: { id: true, state: true, statusCode: true, street: true, house: true, createdAt: true, driver: { select: { callSign: true } } },
      })
    : [];
  return {
    phone,
    clientName: recent.client?.name ?? "",
    addresses: recent.addresses.slice(0, 5).map((a) => ({ street: a.street, house: a.house })),
    activeOrders: active.map((o) => ({ id: o.id, state: o.state, statusCode: o.statusCode, street: o.street, house: o.house, createdAt: o.createdAt, driverCallSign: o.driver?.callSign ?? null })),
  };
}

/** The call log of an order or of a phone (the client's card), newest first. */
export async function callLog(db: Db, input: { orderId: number } | { phone: string }) {
  const where = "orderId" in input ? { orderId: input.orderId } : { phone: callPhone(input.phone) || input.phone };
  const rows = await db.phoneCall.findMany({
    where,
    orderBy: { startedAt: "desc" },
    take: 50,
    select: {
      id: true,
      direction: true,
      state: true,
      phone: true,
      extension: true,
      startedAt: true,
      durationSeconds: true,
      orderId: true,
      user: { select: { name: true } },
    },
  });
  return rows.map((r) => ({ ...r, user: r.user?.name ?? null }));
}

/**
 * Orders were created: for each, the latest incoming call from its phone
 * shortly before, not yet linked, led to it; and every missed call from
 * that phone is handled. Returns how many calls changed.
 */
export async function linkCallsToOrders(db: Db, orderIds: readonly number[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  // One statement for a batch of orders (server/pbx/order-links.ts), not a
  // read and two updates through the ORM an order: every order created runs
  // this, and that was five round trips and a transaction an order, order
  // creation's throughput cut to a third (docs/performance.md). A call is
  // changed once however many reasons it has (PostgreSQL leaves it
  // unpredictable which of two CTEs' changes to one row wins); two orders of
  // one phone in a batch that would take the same call give it to the
  // earlier, and an order that has its call already takes no other (every
  // instance hears every order). `was` is the row before the change, so only
  // calls newly handled are announced; SET reads the row as locked, so an
  // instance linking the same orders at once changes nothing more.
  const rows = await sqlQuery<Row & { newlyHandled: boolean }>(
    db,
    `WITH o AS (
       SELECT id, phone, created_at FROM orders WHERE id = ANY($1::int[]) AND phone <> ''
     ), answered AS (
       SELECT DISTINCT ON (pick.call_id) pick.call_id, o.id AS order_id
       FROM o CROSS JOIN LATERAL (
         SELECT c.id AS call_id FROM phone_call c
         WHERE c.phone = o.phone AND c.direction = 'IN' AND c.order_id IS NULL
           AND c.started_at BETWEEN o.created_at - make_interval(secs => $2) AND o.created_at
         ORDER BY c.started_at DESC LIMIT 1
       ) pick
       WHERE NOT EXISTS (SELECT 1 FROM phone_call l WHERE l.order_id = o.id AND l.direction = 'IN')
       ORDER BY pick.call_id, o.id
     )
     UPDATE phone_call c SET
       order_id = CASE WHEN a.order_id IS NOT NULL AND c.order_id IS NULL THEN a.order_id ELSE c.order_id END,
       handled_at = CASE WHEN c.state = 'MISSED' AND c.handled_at IS NULL THEN now() ELSE c.handled_at END
     FROM phone_call was LEFT JOIN answered a ON a.call_id = was.id
     WHERE was.id = c.id AND was.phone IN (SELECT phone FROM o)
       AND (a.call_id IS NOT NULL OR (was.state = 'MISSED' AND was.handled_at IS NULL))
     RETURNING c.id, c.state::text AS state, c.phone, c.caller_name AS "callerName", c.extension, c.user_id AS "userId",
       c.handled_at AS "handledAt", (was.state = 'MISSED' AND was.handled_at IS NULL) AS "newlyHandled"`,
    [orderIds, ORDER_AFTER_CALL_MS / 1000],
  );
  for (const row of rows) if (row.newlyHandled) await announce(db, row);
  return rows.length;
}
