// Parking queues: the regions are parking areas; a free driver standing in a
// region joins its queue (the region is the one the driver's last position
// lies in) and keeps the place until leaving, driving into another region,
// taking an order or going off shift. The place is the order of joining.
import type { Db, DbOrTx, Tx } from "../db";
import { OrderError } from "../errors";
import { readQueuePlaces } from "./data";
import { sqlQuery } from "../db/sql";

export interface QueuePlace {
  region_id: number;
  position: number;
  length: number;
  joined_at: string;
}

export async function queuePlaceOf(db: DbOrTx, driverId: number): Promise<QueuePlace | null> {
  const entry = await db.dispatchQueueEntry.findUnique({ where: { driverId }, select: { regionId: true } });
  if (!entry) return null;
  const places = await readQueuePlaces(db, entry.regionId);
  const mine = places.find((p) => p.driver_id === driverId);
  if (!mine) return null;
  return { region_id: entry.regionId, position: mine.position + 1, length: places.length, joined_at: mine.joined_at.toISOString() };
}

/** Why a driver may not stand in a queue: keys of the console's reasons (shared/i18n/console/driver-fit.ts). */
export type QueueUnfit = "driverUnknown" | "driverBlocked" | "driverOffShift" | "driverBusy" | "driverOnBreak" | "driverOtherCity" | "driverNoRegion";

// The English reasons are the driver app's (translated in server/i18n/errors.ts);
// the console shows `reasonKey` in its own language.
const REASONS: Record<QueueUnfit, string> = {
  driverUnknown: "no driver with this call sign",
  driverBlocked: "the driver is not active",
  driverOffShift: "not on shift: start a shift first",
  driverBusy: "only a free driver stands in a queue",
  driverOnBreak: "the driver is on a break",
  driverOtherCity: "the stand is in another city",
  driverNoRegion: "the driver's position is in no region",
};

function refuse(reasonKey: QueueUnfit, callSign: string): never {
  throw new OrderError(reasonKey === "driverUnknown" ? "NOT_FOUND" : "CONFLICT", reasonKey === "driverUnknown" ? { what: "Driver", id: callSign, reasonKey, callSign } : { reason: REASONS[reasonKey], reasonKey, callSign });
}

interface LockedQueueDriver {
  id: number;
  call_sign: string;
  city_id: number;
  state: string;
  active: boolean;
  region_id: number | null;
  on_break: boolean;
  offered: boolean;
}

/** The driver's row locked (the same lock shifts and orders take), with what decides whether it may queue. */
async function lockQueueDriver(tx: Tx, by: { id: number } | { callSign: string }): Promise<LockedQueueDriver> {
  const rows = await sqlQuery<LockedQueueDriver>(tx, `SELECT d.id, d.call_sign, d.city_id, d.state::text AS state, d.active, d.region_id,
        EXISTS (SELECT 1 FROM driver_break b WHERE b.driver_id = d.id) AS on_break,
        EXISTS (SELECT 1 FROM dispatch_offer f WHERE f.driver_id = d.id AND f.state = 'LIVE') AS offered
      FROM driver d WHERE ${"id" in by ? "d.id = $1" : "lower(d.call_sign) = lower($1)"} FOR NO KEY UPDATE OF d`, ["id" in by ? by.id : by.callSign.trim()]);
  const d = rows[0];
  if (!d) refuse("driverUnknown", "callSign" in by ? by.callSign.trim() : String(by.id));
  return d;
}

/** The checks of both doors (the driver app, the console), in the order a dispatcher would fix them. */
function checkQueueable(d: LockedQueueDriver): void {
  if (!d.active) refuse("driverBlocked", d.call_sign);
  if (d.state === "OFFLINE") refuse("driverOffShift", d.call_sign);
  if (d.state !== "FREE" || d.offered) refuse("driverBusy", d.call_sign);
  if (d.on_break) refuse("driverOnBreak", d.call_sign);
}

/**
 * Puts the driver in the region's queue at `position` (1 = head; undefined or
 * past the end: last). The place is the order of `joined_at`: a driver moved
 * by a dispatcher gets a time between the new neighbours'. The region's
 * entries are locked first, so two dispatchers moving drivers of one stand
 * are one after the other.
 */
async function placeInTx(tx: Tx, driverId: number, regionId: number, position?: number): Promise<void> {
  // Locked in driver id order, which no move changes, with the driver's own entry (it may stand on another
  // stand): locked in queue order, two dispatchers moving drivers of one stand at once deadlocked, each
  // having read the queue before the other's move (a CI run on PostgreSQL, tests/integration/stand-queues).
  await sqlQuery(tx, `SELECT driver_id FROM dispatch_queue_entry WHERE region_id = $1 OR driver_id = $2 ORDER BY driver_id FOR UPDATE`, [regionId, driverId]);
  // The queue's order read once every entry is ours.
  const rows = await sqlQuery<{ driver_id: number }>(tx, `SELECT driver_id FROM dispatch_queue_entry WHERE region_id = $1 ORDER BY joined_at, driver_id`, [regionId]);
  const others = rows.map((r) => r.driver_id).filter((id) => id !== driverId);
  const index = position === undefined ? others.length : Math.max(0, Math.min(others.length, position - 1));
  const prev = index > 0 ? others[index - 1]! : null;
  const next = index < others.length ? others[index]! : null;
  // Microseconds in the database: a midpoint keeps the neighbours' own times.
  await sqlQuery(tx, `INSERT INTO dispatch_queue_entry (driver_id, region_id, joined_at)
      VALUES ($1, $2, CASE
        WHEN $3::int IS NULL AND $4::int IS NULL THEN now()
        WHEN $4::int IS NULL THEN GREATEST(now(), (SELECT joined_at FROM dispatch_queue_entry WHERE driver_id = $3) + interval '1 millisecond')
        WHEN $3::int IS NULL THEN (SELECT joined_at FROM dispatch_queue_entry WHERE driver_id = $4) - interval '1 second'
        ELSE (SELECT p.joined_at + (n.joined_at - p.joined_at) / 2 FROM dispatch_queue_entry p, dispatch_queue_entry n WHERE p.driver_id = $3 AND n.driver_id = $4)
      END)
      ON CONFLICT (driver_id) DO UPDATE SET region_id = EXCLUDED.region_id, joined_at = EXCLUDED.joined_at`, [driverId, regionId, prev, next]);
}

/** Joins the queue of the region the driver stands in (staying in it keeps the place): the driver app's door. */
export async function joinQueue(db: Db, driverId: number): Promise<QueuePlace> {
  await db.$transaction(async (tx) => {
    const d = await lockQueueDriver(tx, { id: driverId });
    checkQueueable(d);
    if (d.region_id === null) refuse("driverNoRegion", d.call_sign);
    const entry = await tx.dispatchQueueEntry.findUnique({ where: { driverId }, select: { regionId: true } });
    if (entry?.regionId === d.region_id) return;
    await placeInTx(tx, driverId, d.region_id);
  });
  return (await queuePlaceOf(db, driverId))!;
}

export interface ConsoleQueueResult {
  driverId: number;
  callSign: string;
  regionId: number;
  position: number;
  length: number;
}

/**
 * The console's door (issue 34): a dispatcher puts a driver (by call sign) on
 * a stand, or moves one to another stand or another place in the queue. The
 * same checks as the driver app's join, and the stand must be in the driver's
 * city; the stand need not be where the car stands (the driver said so on
 * the radio): the place is kept until the car drives out of the stand's
 * region, takes an order or ends the shift.
 */
export async function putInQueue(db: Db, input: { callSign?: string; driverId?: number; regionId: number; position?: number }): Promise<ConsoleQueueResult> {
  const placed = await db.$transaction(async (tx) => {
    const by = input.driverId !== undefined ? { id: input.driverId } : { callSign: input.callSign ?? "" };
    const d = await lockQueueDriver(tx, by);
    checkQueueable(d);
    const region = await tx.region.findUnique({ where: { id: input.regionId }, select: { cityId: true } });
    if (!region) throw new OrderError("NOT_FOUND", { what: "Region", id: input.regionId });
    if (region.cityId !== d.city_id) refuse("driverOtherCity", d.call_sign);
    await placeInTx(tx, d.id, input.regionId, input.position);
    return d;
  });
  const place = (await queuePlaceOf(db, placed.id))!;
  return { driverId: placed.id, callSign: placed.call_sign, regionId: place.region_id, position: place.position, length: place.length };
}

/** The console's removal: true when the driver stood in a queue. */
export async function removeFromQueue(db: DbOrTx, driverId: number): Promise<{ driverId: number; removed: boolean }> {
  return { driverId, removed: await leaveQueue(db, driverId) };
}

export async function leaveQueue(db: DbOrTx, driverId: number): Promise<boolean> {
  const { count } = await db.dispatchQueueEntry.deleteMany({ where: { driverId } });
  return count > 0;
}

export interface RegionQueue {
  regionId: number;
  drivers: Array<{ driverId: number; callSign: string; position: number; joinedAt: string }>;
}

/** Every region's queue, for the console's map. */
export async function listQueues(db: DbOrTx, cityId?: number): Promise<RegionQueue[]> {
  const places = await readQueuePlaces(db);
  const drivers = await db.driver.findMany({
    where: { id: { in: places.map((p) => p.driver_id) }, ...(cityId ? { cityId } : {}) },
    select: { id: true, callSign: true },
  });
  const sign = new Map(drivers.map((d) => [d.id, d.callSign]));
  const out = new Map<number, RegionQueue>();
  for (const p of places) {
    const callSign = sign.get(p.driver_id);
    if (callSign === undefined) continue;
    const q = out.get(p.region_id) ?? { regionId: p.region_id, drivers: [] };
    q.drivers.push({ driverId: p.driver_id, callSign, position: p.position + 1, joinedAt: p.joined_at.toISOString() });
    out.set(p.region_id, q);
  }
  return [...out.values()];
}
