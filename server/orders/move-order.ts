// Every status change of an order goes through here: the move is checked
// against the one state machine under a row lock, recorded in the history
// with who made it, and its effects (driver state, client SMS, status
// callback, exchange sync) are written in the same transaction.
import type { Db, Tx } from "../db";
import type { Actor } from "../actor";
import { OrderError } from "../errors";
import { publish } from "../events/bus";
import { wakeOutbox } from "../notifications/wake";
import { canMove, canMoveOnExchange, codeOf, isDone, isOrderState, DRIVER_HOLDING_STATES, type OrderState } from "./states";
import { runMoveSubscribers } from "./move-subscribers";
import { wasCarried } from "./carried";
import { sqlQuery } from "../db/sql";
import { finalMeterInTx } from "../meter/final-fare";
import { moveTimeOf } from "./move-time";
import type { DriverChange } from "../../shared/driver-rows";

export interface MoveOrderInput {
  /** The order, by id or by uuid. */
  orderId?: number;
  uuid?: string;
  to: OrderState;
  actor: Actor;
  reason?: string;
  /** Assign (number) or release (null) the driver with the move. */
  driverId?: number | null;
  /** Refuse the move if the order changed since the caller read it. */
  expectedVersion?: number;
  /** Minutes until the car arrives, told by the driver. */
  arrivalMinutes?: number;
  /** When the move was made, if earlier than now (a driver's move replayed after a connection loss); bounds in move-time.ts. */
  at?: Date;
  /** The order's row as the caller read it under its lock in this transaction, unchanged since (the lock is not taken twice). */
  locked?: LockedOrder;
}

export interface MovedOrder {
  id: number;
  uuid: string;
  from: OrderState;
  to: OrderState;
  statusCode: number;
  driverId: number | null;
  regionId: number | null;
  version: number;
  /** Drivers whose state (free/busy) this move changed, as the move left them (the consoles' maps are told). */
  changedDrivers: DriverChange[];
  /** Who made the move (the effects record it: the commission's ledger entry). */
  actor?: Actor;
  /** The driver's balance after an effect of the move changed it (the commission on completion), for the consoles. */
  driverBalance?: { driverId: number; balance: string };
  /**
   * What the move's own statement found for the subscribers, so that each
   * need not ask in a statement of its own (two of five an order's move cost):
   * the order's key has a status callback; the order has an exchange link.
   */
  found: { callback: boolean; exchangeLinked: boolean };
}

export interface LockedOrder {
  id: number;
  uuid: string;
  state: string;
  driver_id: number | null;
  region_id: number | null;
  version: number;
}

// What a move needs of an order's row, read under its lock.
const LOCKED_COLUMNS = "id, uuid::text AS uuid, state, driver_id, region_id, version";

export async function lockOrder(tx: Tx, ref: { orderId?: number; uuid?: string }): Promise<LockedOrder> {
  const rows = ref.orderId !== undefined
    ? await sqlQuery<LockedOrder>(tx, `SELECT ${LOCKED_COLUMNS} FROM orders WHERE id = $1 FOR NO KEY UPDATE`, [ref.orderId])
    : await sqlQuery<LockedOrder>(tx, `SELECT ${LOCKED_COLUMNS} FROM orders WHERE uuid = $1::uuid FOR NO KEY UPDATE`, [ref.uuid]);
  const row = rows[0];
  if (!row) throw new OrderError("NOT_FOUND", { what: "Order", id: ref.uuid ?? ref.orderId });
  return row;
}

/**
 * Several orders' rows under their locks, taken in id order (two transactions that lock sets of orders this way
 * never deadlock each other). An order that does not exist is left out.
 */
export async function lockOrders(tx: Tx, ids: readonly number[]): Promise<LockedOrder[]> {
  if (ids.length === 0) return [];
  return sqlQuery<LockedOrder>(tx, `SELECT ${LOCKED_COLUMNS} FROM orders WHERE id = ANY($1::int[]) ORDER BY id FOR NO KEY UPDATE`, [[...ids]]);
}

/** The same, the orders named by their uuids (the driver interface's). */
export async function lockOrdersByUuid(tx: Tx, uuids: readonly string[]): Promise<LockedOrder[]> {
  if (uuids.length === 0) return [];
  return sqlQuery<LockedOrder>(tx, `SELECT ${LOCKED_COLUMNS} FROM orders WHERE uuid = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [[...uuids]]);
}

/** The move inside a caller's transaction (effects included, events not yet published). */
export async function moveOrderInTx(tx: Tx, input: MoveOrderInput): Promise<MovedOrder> {
  return (await moveOrdersInTx(tx, [input]))[0]!;
}

/** A move checked and ready to be written: what the statement needs of it. */
interface PlannedMove {
  order: LockedOrder;
  from: OrderState;
  input: MoveOrderInput;
  driverId: number | null;
  now: Date;
}

/**
 * Checks one move under the order's row lock (taken unless the caller holds
 * it): the state machine, the version the caller read, a completion's
 * carrier, the time. Throws when the move may not be made; writes only the
 * taximeter's last fare of a completion (finalMeterInTx), which commits or
 * rolls back with the move.
 */
async function planMove(tx: Tx, input: MoveOrderInput): Promise<PlannedMove> {
  const order = input.locked ?? (await lockOrder(tx, input));
  const from = order.state;
  if (!isOrderState(from)) throw new OrderError("CONFLICT", { reason: `unknown stored state ${from}` });
  if (input.expectedVersion !== undefined && input.expectedVersion !== order.version) {
    throw new OrderError("CONFLICT", { reason: "the order was changed by someone else; reload it", reasonKey: "stale" });
  }
  // Moves reported by the exchange follow the exchange reference's table (a
  // completion by the executor's server comes from any unfinished state).
  const allowed = input.actor.type === "EXCHANGE" ? canMoveOnExchange(from, input.to) : canMove(from, input.to);
  if (!allowed) {
    throw new OrderError("FORBIDDEN_MOVE", { from, fromCode: codeOf(from), to: input.to, toCode: codeOf(input.to) });
  }
  // Completed (100) needs an order a driver carried, for every interface
  // (issue 36; the console since issue 34): the driver the order holds, or
  // the exchange executor's in the exchange's own reports (carried.ts). A
  // driver named with the completion itself does not make a trip.
  if (input.to === "DONE_SUCCESSFUL" && !(await wasCarried(tx, { id: order.id, driverId: order.driver_id }, input.actor))) {
    throw new OrderError("FORBIDDEN_MOVE", { from, fromCode: codeOf(from), to: input.to, toCode: codeOf(input.to), reasonKey: "noDriverToComplete" });
  }
  let driverId = input.driverId === undefined ? order.driver_id : input.driverId;
  // An order that goes back to the free orders or ends no longer holds its driver
  // for the purposes of the driver's state, but keeps the reference for history
  // when it was completed.
  if (input.to === "FREE" || input.to === "FREE_LONG" || input.to === "ORDER_ON_RADIO" || input.to === "PREORDER_FREE") driverId = null;
  const now = await moveTimeOf(tx, order.id, input.at, new Date());
  // The taximeter's last word, whoever completes (the driver, a dispatcher on
  // the console, the dispatch API): a METERED trip of our driver gets the
  // metered fare as its amount before the move, so that the SMS, the
  // callbacks, the exchange and the commission read it (a fixed price, or no
  // arrival recorded, changes nothing). A trip in progress ends now; one
  // that went through AWAITING_PAYMENT ended with that move.
  if (input.to === "DONE_SUCCESSFUL" && order.driver_id !== null) await finalMeterInTx(tx, order.id, from === "IN_PROCESS" ? now : undefined);
  return { order, from, input, driverId, now };
}

// The orders' rows and their history in one statement, by hand: a move is
// made hundreds of times a round by the dispatch (docs/performance.md, "Round
// four", "The round's offers set-wise"), and each ORM call cost a query
// compilation in the process. Times go as ISO strings cast to timestamp:
// stored in UTC, as Prisma writes them. The same statement keeps the
// drivers' state (BUSY while an order in a holding state has them, FREE
// again when none has: the moved orders as they are now, the drivers' other
// orders as they are) and answers what the subscribers would ask
// (MovedOrder.found); the orders' rows are locked until commit, so nobody
// links them meanwhile. Each order's row comes back with the drivers it
// changed, as the consoles' maps show them.
const MOVES = `WITH m AS (
   SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::boolean[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int[])
     AS m(id, to_state, code, driver_id, starts, at, arrival_at, cancel_reason, from_state, actor_type, actor_id, reason, old_driver_id)),
 u AS (
   UPDATE orders o SET state = m.to_state, status_code = m.code, driver_id = m.driver_id, version = o.version + 1, updated_at = $14::timestamp,
          start_time = CASE WHEN m.starts THEN m.at::timestamp ELSE o.start_time END,
          arrival_at = COALESCE(m.arrival_at::timestamp, o.arrival_at),
          cancel_reason = COALESCE(m.cancel_reason, o.cancel_reason)
     FROM m
    WHERE o.id = m.id
    RETURNING o.id, o.uuid::text AS uuid, o.driver_id, o.region_id, o.version, o.api_key_id),
 h AS (
   INSERT INTO order_status_change (order_id, from_state, to_state, to_code, actor_type, actor_id, reason, at)
   SELECT m.id, m.from_state, m.to_state, m.code, m.actor_type::"ActorType", m.actor_id, m.reason, m.at::timestamp FROM m JOIN u ON u.id = m.id),
 holds AS (
   SELECT v.id, EXISTS (SELECT 1 FROM m WHERE m.driver_id = v.id AND m.to_state = ANY($15::text[]))
                OR EXISTS (SELECT 1 FROM orders o WHERE o.driver_id = v.id AND o.state = ANY($15::text[]) AND o.id <> ALL($1::int[])) AS holding
     FROM unnest($16::int[]) AS v(id)),
 d AS (
   UPDATE driver d SET state = (CASE WHEN holds.holding THEN 'BUSY' ELSE 'FREE' END)::"DriverState"
     FROM holds
    WHERE d.id = holds.id AND CASE WHEN holds.holding THEN d.state <> 'BUSY' ELSE d.state = 'BUSY' END
    RETURNING d.id, d.call_sign, d.state, d.lat, d.lon, d.speed, d.bearing, d.region_id)
SELECT u.id, u.uuid, u.driver_id, u.region_id, u.version,
       COALESCE((SELECT k.callback_template IS NOT NULL AND k.revoked_at IS NULL FROM api_key k WHERE k.id = u.api_key_id), false) AS callback,
       EXISTS (SELECT 1 FROM exchange_link l WHERE l.order_id = u.id) AS exchange_linked,
       COALESCE((SELECT json_agg(json_build_object('driverId', d.id, 'callSign', d.call_sign, 'state', d.state::text, 'lat', d.lat, 'lon', d.lon,
                                                  'speed', d.speed, 'bearing', d.bearing, 'regionId', d.region_id) ORDER BY d.id)
                   FROM d WHERE d.id = m.old_driver_id OR d.id = u.driver_id), '[]'::json) AS changed_drivers
  FROM u JOIN m ON m.id = u.id`;

interface MovedRow {
  id: number;
  uuid: string;
  driver_id: number | null;
  region_id: number | null;
  version: number;
  callback: boolean;
  exchange_linked: boolean;
  changed_drivers: DriverChange[];
}

/**
 * Several orders' moves in one statement (the dispatch round's offers, a
 * batch at a time: server/dispatch/offer-set.ts). Each is checked as one
 * move is, in the inputs' order, before the statement; one that may not be
 * made throws, and nothing of the statement is written. The effects run
 * after it, move by move in the inputs' order. The orders must differ (one
 * order's two moves are two calls).
 */
export async function moveOrdersInTx(tx: Tx, inputs: readonly MoveOrderInput[]): Promise<MovedOrder[]> {
  const planned: PlannedMove[] = [];
  for (const input of inputs) planned.push(await planMove(tx, input));
  const ids = planned.map((p) => p.order.id);
  if (new Set(ids).size !== ids.length) throw new Error("moveOrdersInTx: an order appears twice (its moves are two calls)");
  if (planned.length === 0) return [];
  const drivers = [...new Set(planned.flatMap((p) => [p.order.driver_id, p.driverId]).filter((id): id is number => id !== null))];
  const rows = await sqlQuery<MovedRow>(tx, MOVES, [
    ids,
    planned.map((p) => p.input.to),
    planned.map((p) => codeOf(p.input.to)),
    planned.map((p) => p.driverId),
    planned.map((p) => p.input.to === "IN_PROCESS"),
    planned.map((p) => p.now.toISOString()),
    planned.map((p) => (p.input.arrivalMinutes !== undefined ? new Date(p.now.getTime() + p.input.arrivalMinutes * 60_000).toISOString() : null)),
    planned.map((p) => (isDone(p.input.to) && p.input.reason ? p.input.reason : null)),
    planned.map((p) => p.from),
    planned.map((p) => p.input.actor.type),
    planned.map((p) => p.input.actor.id ?? null),
    planned.map((p) => p.input.reason ?? ""),
    planned.map((p) => p.order.driver_id),
    new Date().toISOString(),
    DRIVER_HOLDING_STATES,
    drivers,
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const moves = planned.map(({ order, from, input }): MovedOrder => {
    const row = byId.get(order.id);
    if (!row) throw new OrderError("NOT_FOUND", { what: "Order", id: order.id });
    return {
      id: row.id,
      uuid: row.uuid,
      from,
      to: input.to,
      statusCode: codeOf(input.to),
      driverId: row.driver_id,
      regionId: row.region_id,
      version: row.version,
      actor: input.actor,
      found: { callback: row.callback, exchangeLinked: row.exchange_linked },
      changedDrivers: row.changed_drivers,
    };
  });
  for (const moved of moves) await runMoveSubscribers(tx, moved);
  return moves;
}

/** Tells the consoles' maps (live map, drivers table) where these drivers are and in which state. */
export async function publishDriverStates(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  // By hand: two moves an offer and its answer, each an ORM call's query compilation otherwise.
  const drivers = await sqlQuery<DriverChange>(
    db,
    `SELECT id AS "driverId", call_sign AS "callSign", state::text AS state, lat, lon, speed, bearing, region_id AS "regionId" FROM driver WHERE id = ANY($1::int[])`,
    [ids],
  );
  for (const d of drivers) publishDriver(d);
}

function publishDriver(d: DriverChange): void {
  publish({ type: "driver.changed", driverId: d.driverId, callSign: d.callSign, state: d.state, lat: d.lat, lon: d.lon, speed: d.speed, bearing: d.bearing, regionId: d.regionId });
}

export function publishMoves(moves: MovedOrder[]): void {
  for (const moved of moves) {
    publish({
      type: "order.changed",
      orderId: moved.id,
      uuid: moved.uuid,
      state: moved.to,
      statusCode: moved.statusCode,
      driverId: moved.driverId,
      regionId: moved.regionId,
    });
  }
  if (moves.length) wakeOutbox();
  for (const { driverBalance } of moves) {
    if (driverBalance) publish({ type: "balance.changed", account: "driver", id: driverBalance.driverId, balance: driverBalance.balance });
  }
  // Each driver once, as the last of the moves left them (the moves' own statements returned them: no read here).
  const drivers = new Map(moves.flatMap((m) => m.changedDrivers.map((d) => [d.driverId, d] as const)));
  for (const d of drivers.values()) publishDriver(d);
}

/** Moves an order in its own transaction and tells the consoles. */
export async function moveOrder(db: Db, input: MoveOrderInput): Promise<MovedOrder> {
  const moved = await db.$transaction((tx) => moveOrderInTx(tx, input));
  publishMoves([moved]);
  return moved;
}
