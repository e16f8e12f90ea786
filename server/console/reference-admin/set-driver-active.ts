// Enabling or disabling a driver (not while they are on an order).
import type { Db } from "../../db";
import { ValidationError } from "../../errors";
import { publish } from "../../events/bus";
import { DRIVER_HOLDING_STATES } from "../../orders/states";
import { announceDriverAccessChanged } from "../../driver-app/keys";
import { conflict } from "./common";

/** Deactivating takes the driver off the line (shift closed, app key refused); refused while the driver holds an order. */
export async function setDriverActive(db: Db, input: { driverId: number; active: boolean }) {
  const result = await db.$transaction(async (tx) => {
    const driver = await tx.driver.findUnique({ where: { id: input.driverId }, select: { id: true, active: true, callSign: true } });
    if (!driver) throw new ValidationError("NOT_FOUND", { what: "Driver", id: input.driverId });
    if (driver.active === input.active) return { id: driver.id, callSign: driver.callSign, changes: [] as string[] };
    if (!input.active) {
      const holding = await tx.order.count({ where: { driverId: driver.id, state: { in: DRIVER_HOLDING_STATES } } });
      if (holding > 0) throw conflict("driverHasOrder", { callSign: driver.callSign });
      await tx.shift.updateMany({ where: { driverId: driver.id, endedAt: null }, data: { endedAt: new Date() } });
      await tx.driver.update({ where: { id: driver.id }, data: { active: false, state: "OFFLINE", speed: 0 }, select: { id: true } });
    } else {
      await tx.driver.update({ where: { id: driver.id }, data: { active: true }, select: { id: true } });
    }
    return { id: driver.id, callSign: driver.callSign, changes: ["active"] };
  });
  // A disabled driver's open offer streams end (server/driver-app/offers.ts), on every instance.
  if (result.changes.length > 0) announceDriverAccessChanged(result.id);
  const d = await db.driver.findUnique({ where: { id: result.id }, select: { id: true, callSign: true, state: true, lat: true, lon: true, speed: true, bearing: true, regionId: true } });
  if (d) publish({ type: "driver.changed", driverId: d.id, callSign: d.callSign, state: d.state, lat: d.lat, lon: d.lon, speed: d.speed, bearing: d.bearing, regionId: d.regionId });
  return { id: result.id, driverId: result.id, active: input.active, changes: result.changes };
}
