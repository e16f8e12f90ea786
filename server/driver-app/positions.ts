// Positions reported in a batch (`POST /positions`): what a phone recorded
// while it had no connection, replayed oldest first. The newest fix becomes
// the driver's position (unless a newer one is stored); every accepted fix
// taken while the driver carried a passenger joins the order's track, so the
// taximeter counts the stretch without connection. Fixes in the future, older
// than a replay can be, or out of range are dropped and counted.
import type { Db } from "../db";
import { sqlExecute } from "../db/sql";
import { OrderError } from "../errors";
import { acceptableFixTime } from "../meter/fix-time";
import type { DriverIdentity } from "./keys";
import { reportPosition, type PositionInput } from "./shift";

export type TimedPosition = PositionInput & { at: Date };

function inRange(p: PositionInput): boolean {
  return Number.isFinite(p.lat) && Number.isFinite(p.lon) && Math.abs(p.lat) <= 90 && Math.abs(p.lon) <= 180;
}

/** `beforeWait`: the request's admission place is given back while its position waits for the batch (position-write.ts). */
export async function reportPositions(db: Db, me: DriverIdentity, fixes: readonly TimedPosition[], now = new Date(), beforeWait?: () => void) {
  const accepted = fixes
    .filter((f) => inRange(f) && acceptableFixTime(f.at, now))
    .map((f) => ({ ...f, at: f.at.getTime() > now.getTime() ? now : f.at }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const newest = accepted.at(-1);
  if (!newest) {
    // Nothing to store: the reply still tells the state (and refuses off shift).
    const reply = await reportPositionState(db, me);
    return { ...reply, accepted: 0, dropped: fixes.length };
  }
  const reply = await reportPosition(db, me, newest, beforeWait);
  const older = accepted.slice(0, -1);
  if (older.length > 0 && reply.state === "BUSY") {
    await sqlExecute(
      db,
      `INSERT INTO order_track (order_id, lat, lon, speed, at)
       SELECT o.id, u.lat, u.lon, u.speed, u.at
       FROM orders o, unnest($2::float8[], $3::float8[], $4::float8[], $5::timestamp[]) AS u(lat, lon, speed, at)
       WHERE o.driver_id = $1 AND o.state = 'IN_PROCESS'`,
      [me.id, older.map((f) => f.lat), older.map((f) => f.lon), older.map((f) => f.speed), older.map((f) => f.at.toISOString())],
    );
  }
  return { ...reply, accepted: accepted.length, dropped: fixes.length - accepted.length };
}

async function reportPositionState(db: Db, me: DriverIdentity) {
  const driver = await db.driver.findUnique({ where: { id: me.id }, select: { state: true, regionId: true } });
  if (!driver || driver.state === "OFFLINE") throw new OrderError("CONFLICT", { reason: "not on shift: start a shift first" });
  return { state: driver.state as string, region_id: driver.regionId };
}
