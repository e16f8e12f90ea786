// The driver a command acts for, and the locks the driver's commands take
// (the order first, then the driver: the order of moveOrder's own locks).
import type { Tx } from "../../db";
import type { Actor } from "../../actor";
import { OrderError, ValidationError } from "../../errors";
import { lockOrder } from "../move-order";
import { codeOf, isOrderState, type OrderState } from "../states";
import { sqlQuery } from "../../db/sql";

export interface OrderDriver {
  id: number;
  callSign: string;
  cityId: number;
}

export const driverActor = (me: OrderDriver): Actor => ({ type: "DRIVER", id: me.callSign });

export interface LockedDriver {
  id: number;
  state: "OFFLINE" | "FREE" | "BUSY";
  active: boolean;
}

export async function lockDriver(tx: Tx, id: number): Promise<LockedDriver> {
  const rows = await sqlQuery<LockedDriver>(tx, `SELECT id, state::text AS state, active FROM driver WHERE id = $1 FOR NO KEY UPDATE`, [id]);
  const row = rows[0];
  if (!row) throw new ValidationError("NOT_FOUND", { what: "Driver", id });
  return row;
}

/** The driver's own order, locked; another driver's order is not found. */
export async function lockDriversOrder(tx: Tx, me: OrderDriver, uuid: string) {
  const order = await lockOrder(tx, { uuid });
  if (order.driver_id !== me.id) throw new OrderError("NOT_FOUND", { what: "Order of this driver", id: uuid });
  if (!isOrderState(order.state)) throw new OrderError("CONFLICT", { reason: `unknown stored state ${order.state}` });
  return { ...order, state: order.state };
}

export function forbiddenMove(from: OrderState, to: OrderState): OrderError {
  return new OrderError("FORBIDDEN_MOVE", { from, fromCode: codeOf(from), to, toCode: codeOf(to) });
}
