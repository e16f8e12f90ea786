// What a driver's app does, as domain services: shifts, position reports,
// offers of free orders nearby, taking and refusing orders, moving one's own
// order through its statuses and completing it with the service's
// commission. Every status change goes through moveOrder (the one state
// machine, history, driver BUSY/FREE, SMS and callbacks); the database's row
// locks decide races (two drivers taking one order: one wins).
import type { Db, Tx } from "../db";
import type { Actor } from "../actor";
import { config } from "../config";
import { driveMinutes } from "../routing/arrival";
import { OrderError, ValidationError } from "../errors";
import { publish } from "../events/bus";
import { applyDriverPayment } from "../balances/driver-balance";
import { takeOffer } from "../exchange/participant/take";
import { kopecksToRoubles } from "../balances/money";
import { haversineMetres } from "../geo/distance";
import { regionAt } from "../geo/regions";
import { lockOrder, moveOrderInTx, publishMoves, type MovedOrder } from "../orders/move-order";
import { DRIVER_HOLDING_STATES, NOT_DONE_STATES, codeOf, isOrderState, type OrderState } from "../orders/states";
import type { DriverIdentity } from "./keys";

/** The statuses a driver may set on an order of theirs (through the state machine). */
export const DRIVER_TARGETS = [
  "RECEIVED_BY_DRIVER",
  "CONFIRMED",
  "AWAITING_CLIENT",
  "IN_PROCESS",
  "AWAITING_PAYMENT",
  "DONE_CALL_FAILED",
] as const satisfies readonly OrderState[];
export type DriverTarget = (typeof DRIVER_TARGETS)[number];

/** Free orders a driver may take now. */
const TAKEABLE: OrderState[] = ["FREE", "FREE_LONG"];

/** A taken order the driver may give back to the free orders (before the passenger is aboard). */
const REFUSABLE_LIVE: OrderState[] = [
  "SENT_TO_DRIVER",
  "RECEIVED_BY_DRIVER",
  "CONFIRMED",
  "CONFIRMED_CLIENT_NOTIFIED",
  "BOUND",
  "AWAITING_CLIENT",
  "AWAITING_CLIENT_NOTIFIED",
  "AWAITING_CLIENT_LONG",
];
/** An attached advance order the driver may give back to the free advance orders. */
const REFUSABLE_ADVANCE: OrderState[] = [
  "PREORDER_ATTACHED",
  "PREORDER_ATTACHED_NOTIFIED",
  "PREORDER_CONFIRM_REQUESTED",
  "PREORDER_CONFIRM_SUCCESSFUL",
  "PREORDER_CONFIRM_REJECTED",
  "PREORDER_CONFIRM_TIMEOUT",
];
const COMPLETABLE: OrderState[] = ["IN_PROCESS", "AWAITING_PAYMENT"];

const actorOf = (me: DriverIdentity): Actor => ({ type: "DRIVER", id: me.callSign });

// ---------------------------------------------------------------- reading

const orderSelect = {
  id: true,
  uuid: true,
  version: true,
  state: true,
  statusCode: true,
  serviceId: true,
  street: true,
  house: true,
  entrance: true,
  lat: true,
  lon: true,
  dst: true,
  dstStreet: true,
  dstHouse: true,
  dstLat: true,
  dstLon: true,
  amount: true,
  distance: true,
  routeTime: true,
  preOrderTime: true,
  arrivalAt: true,
  comment: true,
  clientName: true,
  phone: true,
  createdAt: true,
} as const;

interface OrderRow {
  id: number;
  uuid: string;
  version: number;
  state: string;
  statusCode: number;
  serviceId: number;
  street: string;
  house: string;
  entrance: string;
  lat: number | null;
  lon: number | null;
  dst: string;
  dstStreet: string;
  dstHouse: string;
  dstLat: number | null;
  dstLon: number | null;
  amount: number | null;
  distance: number | null;
  routeTime: number | null;
  preOrderTime: Date | null;
  arrivalAt: Date | null;
  comment: string;
  clientName: string;
  phone: string;
  createdAt: Date;
}

export interface DriverOrderView {
  id: number;
  uuid: string;
  version: number;
  state: string;
  status_code: number;
  service_id: number;
  pickup: { street: string; house: string; entrance: string; lat: number | null; lon: number | null };
  destination: { line: string; street: string; house: string; lat: number | null; lon: number | null } | null;
  amount: number | null;
  route_km: number | null;
  route_minutes: number | null;
  pre_order_time: string | null;
  arrival_at: string | null;
  comment: string;
  client_name: string;
  phone: string;
  created_at: string;
}

function view(row: OrderRow): DriverOrderView {
  const hasDestination = row.dst !== "" || row.dstStreet !== "" || row.dstLat !== null;
  return {
    id: row.id,
    uuid: row.uuid,
    version: row.version,
    state: row.state,
    status_code: row.statusCode,
    service_id: row.serviceId,
    pickup: { street: row.street, house: row.house, entrance: row.entrance, lat: row.lat, lon: row.lon },
    destination: hasDestination ? { line: row.dst, street: row.dstStreet, house: row.dstHouse, lat: row.dstLat, lon: row.dstLon } : null,
    amount: row.amount === null ? null : kopecksToRoubles(row.amount),
    route_km: row.distance === null ? null : Math.round(row.distance) / 1000,
    route_minutes: row.routeTime === null ? null : Math.round(row.routeTime / 60),
    pre_order_time: row.preOrderTime?.toISOString() ?? null,
    arrival_at: row.arrivalAt?.toISOString() ?? null,
    comment: row.comment,
    client_name: row.clientName,
    phone: row.phone,
    created_at: row.createdAt.toISOString(),
  };
}

async function readOrder(db: Db, id: number): Promise<DriverOrderView> {
  return view(await db.order.findUniqueOrThrow({ where: { id }, select: orderSelect }));
}

export async function driverProfile(db: Db, me: DriverIdentity) {
  const driver = await db.driver.findUniqueOrThrow({
    where: { id: me.id },
    select: {
      id: true,
      callSign: true,
      firstName: true,
      lastName: true,
      state: true,
      balance: true,
      cityId: true,
      lat: true,
      lon: true,
      speed: true,
      bearing: true,
      regionId: true,
      positionAt: true,
      services: { select: { serviceId: true }, orderBy: { serviceId: "asc" } },
      car: { select: { brand: true, model: true, color: true, regNumber: true, carClass: true } },
      shifts: { where: { endedAt: null }, select: { id: true, startedAt: true }, orderBy: { id: "desc" }, take: 1 },
    },
  });
  const shift = driver.shifts[0];
  return {
    id: driver.id,
    call_sign: driver.callSign,
    first_name: driver.firstName,
    last_name: driver.lastName,
    state: driver.state,
    on_shift: driver.state !== "OFFLINE",
    shift_id: shift?.id ?? null,
    shift_started_at: shift?.startedAt.toISOString() ?? null,
    balance: kopecksToRoubles(driver.balance),
    city_id: driver.cityId,
    service_ids: driver.services.map((s) => s.serviceId),
    car: driver.car
      ? { brand: driver.car.brand, model: driver.car.model, color: driver.car.color, reg_number: driver.car.regNumber, car_class: driver.car.carClass }
      : null,
    position: {
      lat: driver.lat,
      lon: driver.lon,
      speed: driver.speed,
      bearing: driver.bearing,
      region_id: driver.regionId,
      at: driver.positionAt?.toISOString() ?? null,
    },
  };
}

/** The driver's own orders that are not done (taken, attached advance orders). */
export async function myOrders(db: Db, me: DriverIdentity): Promise<DriverOrderView[]> {
  const rows = await db.order.findMany({
    where: { driverId: me.id, state: { in: NOT_DONE_STATES } },
    select: orderSelect,
    orderBy: { id: "asc" },
    take: 50,
  });
  return rows.map(view);
}

export interface OffersInput {
  radiusKm: number;
  limit: number;
  advance: boolean;
}

/** Free orders of the driver's services near the driver, nearest first (only while FREE). */
export async function listOffers(db: Db, me: DriverIdentity, input: OffersInput) {
  const driver = await db.driver.findUniqueOrThrow({
    where: { id: me.id },
    select: { state: true, lat: true, lon: true, services: { select: { serviceId: true } } },
  });
  if (driver.state === "OFFLINE") throw new OrderError("CONFLICT", { reason: "not on shift: start a shift first" });
  if (driver.lat === null || driver.lon === null) throw new OrderError("CONFLICT", { reason: "no position yet: report a position first" });
  if (driver.state !== "FREE") return { state: driver.state, offers: [] };
  const here = { lat: driver.lat, lon: driver.lon };
  const dLat = input.radiusKm / 111;
  const dLon = input.radiusKm / (111 * Math.max(0.1, Math.cos((here.lat * Math.PI) / 180)));
  const states: OrderState[] = input.advance ? [...TAKEABLE, "PREORDER_FREE"] : TAKEABLE;
  const rows = await db.order.findMany({
    where: {
      cityId: me.cityId,
      state: { in: states },
      serviceId: { in: driver.services.map((s) => s.serviceId) },
      lat: { gte: here.lat - dLat, lte: here.lat + dLat },
      lon: { gte: here.lon - dLon, lte: here.lon + dLon },
    },
    select: orderSelect,
    orderBy: { createdAt: "asc" },
    take: 500,
  });
  const offers = rows
    .map((row) => ({ row, metres: haversineMetres(here, { lat: row.lat ?? 0, lon: row.lon ?? 0 }) }))
    .filter((o) => o.metres <= input.radiusKm * 1000)
    .sort((a, b) => a.metres - b.metres || a.row.id - b.row.id)
    .slice(0, input.limit)
    .map((o) => ({ ...view(o.row), distance_km: Math.round(o.metres) / 1000 }));
  return { state: driver.state, offers };
}

// ---------------------------------------------------------------- shift and position

interface LockedDriver {
  id: number;
  state: "OFFLINE" | "FREE" | "BUSY";
  active: boolean;
}

async function lockDriver(tx: Tx, id: number): Promise<LockedDriver> {
  const rows = await tx.$queryRawUnsafe<LockedDriver[]>(`SELECT id, state::text AS state, active FROM driver WHERE id = $1 FOR NO KEY UPDATE`, id);
  const row = rows[0];
  if (!row) throw new ValidationError("NOT_FOUND", { what: "Driver", id });
  return row;
}

/** Tells the consoles (live map, drivers table) where the driver is and in which state. */
export async function publishDriver(db: Db, driverId: number): Promise<void> {
  const d = await db.driver.findUnique({
    where: { id: driverId },
    select: { id: true, callSign: true, state: true, lat: true, lon: true, speed: true, bearing: true, regionId: true },
  });
  if (!d) return;
  publish({ type: "driver.changed", driverId: d.id, callSign: d.callSign, state: d.state, lat: d.lat, lon: d.lon, speed: d.speed, bearing: d.bearing, regionId: d.regionId });
}

export interface PositionInput {
  lat: number;
  lon: number;
  /** km/h */
  speed: number;
  /** degrees, 0 = north, clockwise */
  bearing: number;
}

async function positionData(db: Db, me: DriverIdentity, p: PositionInput) {
  const region = await regionAt(db, p.lat, p.lon, me.cityId);
  return { lat: p.lat, lon: p.lon, speed: p.speed, bearing: p.bearing % 360, positionAt: new Date(), regionId: region?.id ?? null };
}

export async function startShift(db: Db, me: DriverIdentity, position?: PositionInput) {
  const place = position ? await positionData(db, me, position) : undefined;
  const shift = await db.$transaction(async (tx) => {
    const driver = await lockDriver(tx, me.id);
    if (!driver.active) throw new OrderError("FORBIDDEN", { reason: "the driver is not active" });
    const open = await tx.shift.findFirst({ where: { driverId: me.id, endedAt: null }, orderBy: { id: "desc" }, select: { id: true, startedAt: true } });
    const current = open ?? (await tx.shift.create({ data: { driverId: me.id }, select: { id: true, startedAt: true } }));
    let state = driver.state;
    if (state === "OFFLINE") {
      const holding = await tx.order.count({ where: { driverId: me.id, state: { in: DRIVER_HOLDING_STATES } } });
      state = holding > 0 ? "BUSY" : "FREE";
    }
    await tx.driver.update({ where: { id: me.id }, data: { state, ...(place ?? {}) }, select: { id: true } });
    return { id: current.id, startedAt: current.startedAt, state, resumed: open !== null };
  });
  await publishDriver(db, me.id);
  return { shift_id: shift.id, started_at: shift.startedAt.toISOString(), state: shift.state, resumed: shift.resumed };
}

export async function endShift(db: Db, me: DriverIdentity) {
  const ended = await db.$transaction(async (tx) => {
    const driver = await lockDriver(tx, me.id);
    const holding = await tx.order.count({ where: { driverId: me.id, state: { in: DRIVER_HOLDING_STATES } } });
    if (holding > 0) throw new OrderError("CONFLICT", { reason: "an order is in progress: complete or refuse it first" });
    const now = new Date();
    const closed = await tx.shift.updateMany({ where: { driverId: me.id, endedAt: null }, data: { endedAt: now } });
    if (driver.state !== "OFFLINE") await tx.driver.update({ where: { id: me.id }, data: { state: "OFFLINE", speed: 0 }, select: { id: true } });
    return { closed: closed.count, at: now };
  });
  await publishDriver(db, me.id);
  return { state: "OFFLINE" as const, ended_at: ended.at.toISOString(), shifts_closed: ended.closed };
}

/** A position report: stored on the driver (with the region it lies in) and told to the consoles. */
export async function reportPosition(db: Db, me: DriverIdentity, p: PositionInput) {
  const place = await positionData(db, me, p);
  const rows = await db.$queryRawUnsafe<Array<{ state: string }>>(
    `UPDATE driver SET lat = $2, lon = $3, speed = $4, bearing = $5, position_at = $6, region_id = $7
      WHERE id = $1 AND state <> 'OFFLINE' RETURNING state::text AS state`,
    me.id,
    place.lat,
    place.lon,
    place.speed,
    place.bearing,
    place.positionAt,
    place.regionId,
  );
  const row = rows[0];
  if (!row) throw new OrderError("CONFLICT", { reason: "not on shift: start a shift first" });
  publish({
    type: "driver.changed",
    driverId: me.id,
    callSign: me.callSign,
    state: row.state,
    lat: place.lat,
    lon: place.lon,
    speed: place.speed,
    bearing: place.bearing,
    regionId: place.regionId,
  });
  return { state: row.state, region_id: place.regionId };
}

// ---------------------------------------------------------------- orders

async function finishMoves(db: Db, me: DriverIdentity, moves: MovedOrder[]): Promise<void> {
  publishMoves(moves);
  await publishDriver(db, me.id);
}

export interface AcceptInput {
  uuid: string;
  arrivalMinutes?: number;
  version?: number;
}

/**
 * Takes a free order: FREE -> SENT_TO_DRIVER (with the driver) -> CONFIRMED
 * (with the arrival time) in one transaction; a free advance order becomes
 * PREORDER_ATTACHED to the driver. Whoever locks the order first wins; the
 * others get CONFLICT.
 */
export async function acceptOrder(db: Db, me: DriverIdentity, input: AcceptInput) {
  const actor = actorOf(me);
  // An order another participant sells on the exchange is taken there first
  // (of several takers one wins; the others get GONE), then given to the driver.
  const offered = await db.order.findUnique({
    where: { uuid: input.uuid },
    select: { serviceId: true, exchangeLink: { select: { role: true, phase: true, exchangeOrderId: true } } },
  });
  const link = offered?.exchangeLink;
  if (offered && link?.role === "BOUGHT" && link.exchangeOrderId) {
    const driver = await db.driver.findUniqueOrThrow({ where: { id: me.id }, select: { state: true, services: { where: { serviceId: offered.serviceId }, select: { serviceId: true } } } });
    if (driver.state !== "FREE") throw new OrderError("CONFLICT", { reason: driver.state === "OFFLINE" ? "not on shift: start a shift first" : "the driver is busy with another order" });
    if (driver.services.length === 0) throw new OrderError("FORBIDDEN", { reason: "the order is of a service the driver does not serve" });
    if (link.phase !== "OFFERED") throw new OrderError("CONFLICT", { reason: "the order is no longer free" });
    const taken = await takeOffer(db, link.exchangeOrderId, me.id, { arrivalMinutes: input.arrivalMinutes, actor });
    await publishDriver(db, me.id);
    return readOrder(db, taken.orderId);
  }
  const moves = await db.$transaction(async (tx) => {
    // The order first, then the driver: the order of moveOrder's own locks.
    const order = await lockOrder(tx, { uuid: input.uuid });
    const driver = await lockDriver(tx, me.id);
    if (driver.state === "OFFLINE") throw new OrderError("CONFLICT", { reason: "not on shift: start a shift first" });
    if (input.version !== undefined && input.version !== order.version) {
      throw new OrderError("CONFLICT", { reason: "the order was changed by someone else; reload it" });
    }
    const info = await tx.order.findUniqueOrThrow({ where: { id: order.id }, select: { cityId: true, serviceId: true, lat: true, lon: true } });
    const serves = await tx.driverService.findUnique({
      where: { driverId_serviceId: { driverId: me.id, serviceId: info.serviceId } },
      select: { driverId: true },
    });
    if (info.cityId !== me.cityId || !serves) throw new OrderError("FORBIDDEN", { reason: "the order is of a service the driver does not serve" });
    if (order.state === "PREORDER_FREE") {
      return [await moveOrderInTx(tx, { orderId: order.id, to: "PREORDER_ATTACHED", driverId: me.id, actor, reason: "taken in the driver app" })];
    }
    if (!TAKEABLE.includes(order.state as OrderState)) {
      throw new OrderError("CONFLICT", { reason: `the order is no longer free (${order.state})` });
    }
    if (driver.state !== "FREE") throw new OrderError("CONFLICT", { reason: "the driver is busy with another order" });
    const here = await tx.driver.findUniqueOrThrow({ where: { id: me.id }, select: { lat: true, lon: true } });
    const arrivalMinutes = input.arrivalMinutes ?? (await driveMinutes(tx, info.cityId, here, info, { unknown: 5 }));
    const sent = await moveOrderInTx(tx, { orderId: order.id, to: "SENT_TO_DRIVER", driverId: me.id, actor, reason: "taken in the driver app" });
    const confirmed = await moveOrderInTx(tx, { orderId: order.id, to: "CONFIRMED", actor, arrivalMinutes, reason: `arrives in ${arrivalMinutes} min` });
    return [sent, confirmed];
  });
  await finishMoves(db, me, moves);
  return readOrder(db, moves[0]!.id);
}

async function lockMine(tx: Tx, me: DriverIdentity, uuid: string) {
  const order = await lockOrder(tx, { uuid });
  if (order.driver_id !== me.id) throw new OrderError("NOT_FOUND", { what: "Order of this driver", id: uuid });
  if (!isOrderState(order.state)) throw new OrderError("CONFLICT", { reason: `unknown stored state ${order.state}` });
  return { ...order, state: order.state };
}

function forbidden(from: OrderState, to: OrderState): OrderError {
  return new OrderError("FORBIDDEN_MOVE", { from, fromCode: codeOf(from), to, toCode: codeOf(to) });
}

/**
 * Refuses an order of the driver's: back to the free orders (an advance
 * order: to the free advance orders). An order bought on the exchange goes
 * back to the exchange instead: DONE_DRIVER_REJECTED here, `rejectdriver`
 * there (the exchange offers it again).
 */
export async function rejectOrder(db: Db, me: DriverIdentity, input: { uuid: string; reason?: string }) {
  const actor = actorOf(me);
  const reason = `refused by driver ${me.callSign}${input.reason ? `: ${input.reason}` : ""}`;
  const moved = await db.$transaction(async (tx) => {
    const order = await lockMine(tx, me, input.uuid);
    const link = await tx.exchangeLink.findUnique({ where: { orderId: order.id }, select: { role: true } });
    const back: OrderState = link?.role === "BOUGHT" ? "DONE_DRIVER_REJECTED" : "FREE";
    const to: OrderState | undefined = REFUSABLE_LIVE.includes(order.state) ? back : REFUSABLE_ADVANCE.includes(order.state) ? "PREORDER_FREE" : undefined;
    if (!to) throw forbidden(order.state, back);
    return moveOrderInTx(tx, { orderId: order.id, to, actor, reason });
  });
  await finishMoves(db, me, [moved]);
  return readOrder(db, moved.id);
}

export interface StatusInput {
  uuid: string;
  status: DriverTarget;
  arrivalMinutes?: number;
  version?: number;
  reason?: string;
}

/** Moves an order of the driver's to a status a driver may set; the state machine decides. */
export async function setOrderStatus(db: Db, me: DriverIdentity, input: StatusInput) {
  const actor = actorOf(me);
  const moved = await db.$transaction(async (tx) => {
    const order = await lockMine(tx, me, input.uuid);
    return moveOrderInTx(tx, {
      orderId: order.id,
      to: input.status,
      actor,
      expectedVersion: input.version,
      arrivalMinutes: input.arrivalMinutes,
      reason: input.reason ?? `set by driver ${me.callSign}`,
    });
  });
  await finishMoves(db, me, [moved]);
  return readOrder(db, moved.id);
}

export function commissionOf(amountKopecks: number | null): number {
  if (amountKopecks === null || amountKopecks <= 0) return 0;
  return Math.round((amountKopecks * config().DRIVER_COMMISSION_PERCENT) / 100);
}

/** The ledger transaction of an order's commission: one per order, so a repeated completion debits once. */
export function commissionTxnId(orderId: number): string {
  return `commission:order:${orderId}`;
}

/**
 * Completes an order of the driver's (DONE_SUCCESSFUL) and debits the
 * service's commission from the driver's balance. Repeating the call for an
 * order the driver already completed replies the same and debits nothing more.
 */
export async function completeOrder(db: Db, me: DriverIdentity, input: { uuid: string }) {
  const actor = actorOf(me);
  const done = await db.$transaction(async (tx) => {
    const order = await lockMine(tx, me, input.uuid);
    if (order.state === "DONE_SUCCESSFUL") return { id: order.id, moved: undefined };
    if (!COMPLETABLE.includes(order.state)) throw forbidden(order.state, "DONE_SUCCESSFUL");
    const moved = await moveOrderInTx(tx, { orderId: order.id, to: "DONE_SUCCESSFUL", actor, reason: `completed by driver ${me.callSign}` });
    return { id: order.id, moved };
  });
  if (done.moved) await finishMoves(db, me, [done.moved]);
  const order = await db.order.findUniqueOrThrow({ where: { id: done.id }, select: { ...orderSelect } });
  const commission = commissionOf(order.amount);
  let balance: bigint | undefined;
  if (commission > 0) {
    const paid = await applyDriverPayment(db, {
      driverId: me.id,
      txnId: commissionTxnId(order.id),
      amount: -commission,
      reason: `Комиссия сервиса, заказ ${order.id}`,
      actor,
      orderId: order.id,
    });
    balance = paid.balance;
  } else {
    balance = (await db.driver.findUniqueOrThrow({ where: { id: me.id }, select: { balance: true } })).balance;
  }
  return {
    order: view(order),
    fare: order.amount === null ? null : kopecksToRoubles(order.amount),
    commission: kopecksToRoubles(commission),
    balance: kopecksToRoubles(balance),
  };
}
