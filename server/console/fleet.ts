// The board's fleet counters (issue 34): how many active drivers are on shift,
// free, busy, and away (off shift). Blocked drivers (disabled in the reference
// data) are not counted. One grouped count, cheap enough to ask every few
// seconds and on every driver.changed event.
import type { DbOrTx } from "../db";

export interface FleetCounters {
  onShift: number;
  free: number;
  busy: number;
  away: number;
}

export async function fleetCounters(db: DbOrTx, cityId?: number): Promise<FleetCounters> {
  const groups = await db.driver.groupBy({ by: ["state"], where: { active: true, ...(cityId ? { cityId } : {}) }, _count: { _all: true } });
  const of = (state: string) => groups.find((g) => g.state === state)?._count._all ?? 0;
  const free = of("FREE");
  const busy = of("BUSY");
  return { onShift: free + busy, free, busy, away: of("OFFLINE") };
}
