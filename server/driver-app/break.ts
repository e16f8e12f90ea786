// A driver's break (issue 34): on shift, but offered nothing (liveness.ts's
// candidate rule, the offer's own check, the console's give and queue
// refusals), out of the parking queue, counted apart on the console's fleet
// line. Only a free driver takes one; ending the break makes the driver a
// candidate again; ending the shift ends it.
import type { Db } from "../db";
import { OrderError } from "../errors";
import { lockDriver } from "../orders/commands/driver-party";
import { leaveQueue } from "../dispatch/queue";
import { publishDriver } from "./shift";

export interface BreakState {
  on_break: boolean;
  since: string | null;
}

export async function breakOf(db: Db, driverId: number): Promise<BreakState> {
  const row = await db.driverBreak.findUnique({ where: { driverId }, select: { since: true } });
  return { on_break: row !== null, since: row?.since.toISOString() ?? null };
}

export async function startBreak(db: Db, driverId: number): Promise<BreakState> {
  await db.$transaction(async (tx) => {
    const driver = await lockDriver(tx, driverId);
    if (driver.state === "OFFLINE") throw new OrderError("CONFLICT", { reason: "not on shift: start a shift first" });
    if (driver.state !== "FREE") throw new OrderError("CONFLICT", { reason: "only a free driver takes a break" });
    const live = await tx.dispatchOffer.findFirst({ where: { driverId, state: "LIVE" }, select: { id: true } });
    if (live) throw new OrderError("CONFLICT", { reason: "the driver is answering another offer" });
    await tx.driverBreak.upsert({ where: { driverId }, create: { driverId }, update: {}, select: { driverId: true } });
    await leaveQueue(tx, driverId);
  });
  await publishDriver(db, driverId);
  return breakOf(db, driverId);
}

export async function endBreak(db: Db, driverId: number): Promise<BreakState> {
  await db.driverBreak.deleteMany({ where: { driverId } });
  await publishDriver(db, driverId);
  return { on_break: false, since: null };
}
