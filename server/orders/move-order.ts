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

export async function lockOrder(tx: Tx, ref: { orderId?: number; uuid?: string }): Promise<LockedOrder> {
  const rows = ref.orderId !== undefined
    ? await sqlQuery<LockedOrder>(
        tx,
        `SELECT id, uuid::text AS uuid, state, driver_id, region_id, version FROM orders WHERE id = $1 FOR NO KEY UPDATE`,
        [ref.orderId],
      )
    : await sqlQuery<LockedOrder>(
        tx,
        `SELECT id, uuid::text AS uuid, state, driver_id, region_id, version FROM orders WHERE uuid = $1::uuid FOR NO KEY UPDATE`,
        [ref.uuid],
      );
  const row = rows[0];
  if (!row) throw new OrderError("NOT_FOUND", { what: "Order", id: ref.uuid ?? ref.orderId });
  return row;
}

/** The move inside a caller's transaction (effects included, events not yet published). */
export async function moveOrderInTx(tx: Tx, input: MoveOrderInput): Promise<MovedOrder> {
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
  // The order's row and its history in one statement, by hand: a move is made
  // hundreds of times a round by the dispatch (docs/performance.md, "Round
  // four"), and each ORM call cost a query compilation in the process.
  // Times go as ISO strings cast to timestamp: stored in UTC, as Prisma writes them.
  // The same statement keeps the drivers' state (BUSY while an order in a
  // holding state has them, FREE again when none has: the moved order as it
  // is now, the driver's other orders as they are) and answers what the
  // subscribers would ask (MovedOrder.found); the order's row is locked until
  // commit, so nobody links it meanwhile. The drivers it changed come back as
  // the consoles' maps show them. One statement where there were up to six:
  // the dispatch makes two moves an offer (docs/performance.md).
  const updated = (
    await sqlQuery<{ id: number; uuid: string; driver_id: number | null; region_id: number | null; version: number; callback: boolean; exchange_linked: boolean; changed_drivers: DriverChange[] }>(
      tx,
      `WITH u AS (
         UPDATE orders SET state = $2, status_code = $3, driver_id = $4, version = version + 1, updated_at = $5::timestamp,
                start_time = CASE WHEN $6::boolean THEN $7::timestamp ELSE start_time END,
                arrival_at = COALESCE($8::timestamp, arrival_at),
                cancel_reason = COALESCE($9::text, cancel_reason)
          WHERE id = $1
          RETURNING id, uuid::text AS uuid, driver_id, region_id, version, api_key_id),
       h AS (
         INSERT INTO order_status_change (order_id, from_state, to_state, to_code, actor_type, actor_id, reason, at)
         SELECT id, $10, $2, $3, $11::"ActorType", $12, $13, $7::timestamp FROM u),
       holds AS (
         SELECT v.id, (v.id IS NOT DISTINCT FROM $4 AND $2 = ANY($14::text[]))
                      OR EXISTS (SELECT 1 FROM orders o WHERE o.driver_id = v.id AND o.state = ANY($14::text[]) AND o.id <> $1) AS holding
           FROM unnest($15::int[]) AS v(id)),
       d AS (
         UPDATE driver d SET state = (CASE WHEN holds.holding THEN 'BUSY' ELSE 'FREE' END)::"DriverState"
           FROM holds
          WHERE d.id = holds.id AND CASE WHEN holds.holding THEN d.state <> 'BUSY' ELSE d.state = 'BUSY' END
          RETURNING d.id, d.call_sign, d.state, d.lat, d.lon, d.speed, d.bearing, d.region_id)
       SELECT u.id, u.uuid, u.driver_id, u.region_id, u.version,
              COALESCE((SELECT k.callback_template IS NOT NULL AND k.revoked_at IS NULL FROM api_key k WHERE k.id = u.api_key_id), false) AS callback,
              EXISTS (SELECT 1 FROM exchange_link l WHERE l.order_id = u.id) AS exchange_linked,
              COALESCE((SELECT json_agg(json_build_object('driverId', d.id, 'callSign', d.call_sign, 'state', d.state::text, 'lat', d.lat, 'lon', d.lon,
                                                         'speed', d.speed, 'bearing', d.bearing, 'regionId', d.region_id) ORDER BY d.id) FROM d), '[]'::json) AS changed_drivers
         FROM u`,
      [
        order.id,
        input.to,
        codeOf(input.to),
        driverId,
        new Date().toISOString(),
        input.to === "IN_PROCESS",
        now.toISOString(),
        input.arrivalMinutes !== undefined ? new Date(now.getTime() + input.arrivalMinutes * 60_000).toISOString() : null,
        isDone(input.to) && input.reason ? input.reason : null,
        from,
        input.actor.type,
        input.actor.id ?? null,
        input.reason ?? "",
        DRIVER_HOLDING_STATES,
        [...new Set([order.driver_id, driverId].filter((id): id is number => id !== null))],
      ],
    )
  )[0]!;
  const moved: MovedOrder = {
    id: updated.id,
    uuid: updated.uuid,
    from,
    to: input.to,
    statusCode: codeOf(input.to),
    driverId: updated.driver_id,
    regionId: updated.region_id,
    version: updated.version,
    actor: input.actor,
    found: { callback: updated.callback, exchangeLinked: updated.exchange_linked },
    changedDrivers: updated.changed_drivers,
  };
  await runMoveSubscribers(tx, moved);
  return moved;
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
