// The dispatcher's alert for orders nobody took: a FREE order of a
// dispatched service older than its freeLongMinutes becomes FREE_LONG (the
// console's panel of orders in trouble shows it; automatic offers go on).
import type { Db } from "../db";
import { readOrdersInStates } from "./data";
import { loadSettings } from "./settings";
import { moveIfStill } from "./timed-moves";

export async function raiseFreeLong(db: Db, now = new Date()): Promise<number> {
  const settings = await loadSettings(db);
  if (settings.empty) return 0;
  let raised = 0;
  for (const row of await readOrdersInStates(db, ["FREE"])) {
    const s = settings.forOrder(row.service_id, row.region_id);
    if (!s) continue;
    const since = row.pre_order_time && row.pre_order_time < now ? row.pre_order_time : row.created_at;
    if (now.getTime() - since.getTime() < s.freeLongMinutes * 60_000) continue;
    if (await moveIfStill(db, row.id, ["FREE"], "FREE_LONG", `nobody took the order in ${s.freeLongMinutes} min`)) raised += 1;
  }
  return raised;
}
