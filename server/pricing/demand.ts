// Demand: when the free orders of a region outnumber its free drivers, the
// price rises by DEMAND_STEP_PERCENT per order in excess, up to
// DEMAND_MAX_PERCENT.
import type { DbOrTx } from "../db";
import { FREE_STATES, codeOf } from "../orders/states";

export async function demandMarkupPercent(
  db: DbOrTx,
  regionId: number | null,
  settings: { stepPercent: number; maxPercent: number },
): Promise<number> {
  if (regionId === null || settings.stepPercent === 0) return 0;
  const [freeOrders, freeDrivers] = await Promise.all([
    // by code: the (region_id, status_code) index answers it
    db.order.count({ where: { regionId, statusCode: { in: FREE_STATES.map(codeOf) } } }),
    db.driver.count({ where: { regionId, state: "FREE", active: true } }),
  ]);
  const excess = freeOrders - freeDrivers;
  return excess > 0 ? Math.min(settings.maxPercent, excess * settings.stepPercent) : 0;
}
