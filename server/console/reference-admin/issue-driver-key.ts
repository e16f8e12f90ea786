// Issuing a driver's app key (the old one stops working).
import type { Db } from "../../db";
import { ValidationError } from "../../errors";
import { issueDriverAppKey } from "../../driver-app/keys";

/** A new app key for the driver (the old one stops working); the key is in the reply once and stored nowhere. */
export async function issueDriverKey(db: Db, input: { driverId: number }) {
  const driver = await db.driver.findUnique({ where: { id: input.driverId }, select: { callSign: true } });
  if (!driver) throw new ValidationError("NOT_FOUND", { what: "Driver", id: input.driverId });
  const issued = await issueDriverAppKey(db, driver.callSign);
  return { id: issued.driverId, driverId: issued.driverId, callSign: issued.callSign, key: issued.key };
}
