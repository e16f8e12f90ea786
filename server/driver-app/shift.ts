// Shifts and positions: going on and off shift, position reports (stored
// with the region they lie in, told to the consoles at once).
import type { Db } from "../db";
import { OrderError } from "../errors";
import { publish } from "../events/bus";
import { publishDriverStates } from "../orders/move-order";
import { regionAt } from "../geo/regions";
import { lockDriver } from "../orders/commands/driver-party";
import { DRIVER_HOLDING_STATES } from "../orders/states";
import { leaveQueue } from "../dispatch/queue";
import { appSeenStored, noteAppSeen } from "../dispatch/liveness";
import type { DriverIdentity } from "./keys";
import { writePosition } from "./position-write";

/** Tells the consoles (live map, drivers table) where the driver is and in which state. */
export function publishDriver(db: Db, driverId: number): Promise<void> {
  return publishDriverStates(db, [driverId]);
}

export interface PositionInput {
  lat: number;
  lon: number;
  /** km/h */
  speed: number;
  /** degrees, 0 = north, clockwise */
  bearing: number;
}

async function positionData(db: Db, me: DriverIdentity, p: PositionInput) {
  const region = await regionAt(db, p.lat, p.lon, me.cityId);
  return { lat: p.lat, lon: p.lon, speed: p.speed, bearing: p.bearing % 360, positionAt: new Date(), regionId: region?.id ?? null };
}

export async function startShift(db: Db, me: DriverIdentity, position?: PositionInput) {
  const place = position ? await positionData(db, me, position) : undefined;
  const shift = await db.$transaction(async (tx) => {
    const driver = await lockDriver(tx, me.id);
    if (!driver.active) throw new OrderError("FORBIDDEN", { reason: "the driver is not active" });
    const open = await tx.shift.findFirst({ where: { driverId: me.id, endedAt: null }, orderBy: { id: "desc" }, select: { id: true, startedAt: true } });
    const current = open ?? (await tx.shift.create({ data: { driverId: me.id }, select: { id: true, startedAt: true } }));
    let state = driver.state;
    if (state === "OFFLINE") {
      const holding = await tx.order.count({ where: { driverId: me.id, state: { in: DRIVER_HOLDING_STATES } } });
      state = holding > 0 ? "BUSY" : "FREE";
    }
    await tx.driver.update({ where: { id: me.id }, data: { state, ...(place ?? {}) }, select: { id: true } });
    return { id: current.id, startedAt: current.startedAt, state, resumed: open !== null };
  });
  await publishDriver(db, me.id);
  return { shift_id: shift.id, started_at: shift.startedAt.toISOString(), state: shift.state, resumed: shift.resumed };
}

export async function endShift(db: Db, me: DriverIdentity) {
  const ended = await db.$transaction(async (tx) => {
    const driver = await lockDriver(tx, me.id);
    const holding = await tx.order.count({ where: { driverId: me.id, state: { in: DRIVER_HOLDING_STATES } } });
    if (holding > 0) throw new OrderError("CONFLICT", { reason: "an order is in progress: complete or refuse it first" });
    const now = new Date();
    const closed = await tx.shift.updateMany({ where: { driverId: me.id, endedAt: null }, data: { endedAt: now } });
    if (driver.state !== "OFFLINE") await tx.driver.update({ where: { id: me.id }, data: { state: "OFFLINE", speed: 0 }, select: { id: true } });
    await leaveQueue(tx, me.id);
    await tx.driverBreak.deleteMany({ where: { driverId: me.id } });
    return { closed: closed.count, at: now };
  });
  await publishDriver(db, me.id);
  return { state: "OFFLINE" as const, ended_at: ended.at.toISOString(), shifts_closed: ended.closed };
}

/**
 * A position report: stored on the driver (with the region it lies in, from
 * the regions in memory) and told to the consoles. While the driver carries a
 * passenger (an order of theirs IN_PROCESS) the fix is also added to the
 * order's track for the taximeter. A fix older than the driver's stored
 * position (a replay) goes to the track only. Written with the reports that
 * arrive meanwhile in one statement (position-write.ts); resolves after it
 * committed.
 */
export async function reportPosition(db: Db, me: DriverIdentity, p: PositionInput & { at?: Date }, beforeWait?: () => void) {
  const place = await positionData(db, me, p);
  const at = p.at ?? place.positionAt;
  const row = await writePosition(db, { driverId: me.id, lat: place.lat, lon: place.lon, speed: place.speed, bearing: place.bearing, at, regionId: place.regionId }, beforeWait);
  if (!row) {
    // Off shift the statement wrote nothing: the app's call is still marked (the report's operation leaves that to it).
    await noteAppSeen(db, me.id);
    throw new OrderError("CONFLICT", { reason: "not on shift: start a shift first" });
  }
  appSeenStored(me.id);
  if (row.newer) {
    publish({
      type: "driver.changed",
      driverId: me.id,
      callSign: me.callSign,
      state: row.state,
      lat: place.lat,
      lon: place.lon,
      speed: place.speed,
      bearing: place.bearing,
      regionId: place.regionId,
    });
  }
  return { state: row.state, region_id: place.regionId };
}
