// Where dispatch gives up: an order nobody took within its service's patience
// (SmsServiceSetting.patienceMinutes, set with the passenger's messages in
// the console; 0 or none: never) is closed as DONE_NO_CARS (93), and that
// move tells the passenger "no car found" (server/sms/compose.ts) and the
// integrator by its status callback. Counted from the order's creation, or
// from its pickup time for an advance order past it.
import type { Db } from "../db";
import { sqlQuery } from "../db/sql";
import { moveIfStill } from "./timed-moves";

/** The states of an order nobody has taken. */
const UNTAKEN = ["FREE", "FREE_LONG", "ORDER_ON_RADIO", "NOT_REGISTERED"] as const;

export async function giveUpUntakenOrders(db: Db): Promise<number> {
  const rows = await sqlQuery<{ id: number; patience: number }>(
    db,
    `SELECT o.id, s.patience_minutes AS patience
       FROM orders o JOIN sms_service_setting s ON s.service_id = o.service_id
      WHERE s.patience_minutes > 0 AND o.state = ANY($1::text[])
        AND COALESCE(CASE WHEN o.pre_order_time < now() THEN o.pre_order_time END, o.created_at) <= now() - s.patience_minutes * interval '1 minute'
      ORDER BY o.id LIMIT 200`,
    [UNTAKEN],
  );
  let closed = 0;
  for (const row of rows) {
    if (await moveIfStill(db, row.id, UNTAKEN, "DONE_NO_CARS", `nobody took the order in ${row.patience} min`)) closed += 1;
  }
  return closed;
}
