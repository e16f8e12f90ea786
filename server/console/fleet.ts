// The board's fleet counters (issue 34): how many active drivers are on shift,
// free, busy, soon free, on a break, and away (off shift). Blocked drivers
// (disabled in the reference data) are not counted. Cheap enough to ask every
// few seconds and on every driver.changed event.
import type { DbOrTx } from "../db";
import { sqlQuery } from "../db/sql";
import { loadSettings } from "../dispatch/settings";

export interface FleetCounters {
  onShift: number;
  /** Free and not on a break: the drivers an order can go to now. */
  free: number;
  busy: number;
  /** Busy drivers carrying a passenger whose trip ends within `soonMinutes`. */
  soonFree: number;
  soonMinutes: number;
  /** On shift, free, on a break: offered nothing. */
  onBreak: number;
  away: number;
}

/** The chains' horizon (the settings' chainMinutes, the longest configured), 4 minutes when nothing is configured. */
async function soonMinutesOf(db: DbOrTx): Promise<number> {
  const rows = (await loadSettings(db)).rows;
  return rows.length ? Math.max(...rows.map((r) => r.chainMinutes)) : 4;
}

export async function fleetCounters(db: DbOrTx, cityId?: number): Promise<FleetCounters> {
  const soonMinutes = await soonMinutesOf(db);
  // "Soon free" is the chains' own estimate (readChainDrivers in dispatch/data.ts):
  // the ride's start plus its route time, the arrival at the destination.
  const rows = await sqlQuery<{ free: number; busy: number; away: number; on_break: number; soon_free: number }>(
    db,
    `SELECT count(*) FILTER (WHERE d.state = 'FREE' AND b.driver_id IS NULL)::int AS free,
            count(*) FILTER (WHERE d.state = 'BUSY')::int AS busy,
            count(*) FILTER (WHERE d.state = 'OFFLINE')::int AS away,
            count(*) FILTER (WHERE d.state = 'FREE' AND b.driver_id IS NOT NULL)::int AS on_break,
            count(*) FILTER (WHERE d.state = 'BUSY' AND EXISTS (
              SELECT 1 FROM orders o WHERE o.driver_id = d.id AND o.state = 'IN_PROCESS'
                 AND o.start_time IS NOT NULL AND o.route_time IS NOT NULL
                 AND o.start_time + make_interval(secs => o.route_time) <= now() + make_interval(mins => $2::int)))::int AS soon_free
       FROM driver d LEFT JOIN driver_break b ON b.driver_id = d.id
      WHERE d.active AND ($1::int IS NULL OR d.city_id = $1)`,
    [cityId ?? null, soonMinutes],
  );
  const r = rows[0] ?? { free: 0, busy: 0, away: 0, on_break: 0, soon_free: 0 };
  return { onShift: r.free + r.busy + r.on_break, free: r.free, busy: r.busy, soonFree: r.soon_free, soonMinutes, onBreak: r.on_break, away: r.away };
}
