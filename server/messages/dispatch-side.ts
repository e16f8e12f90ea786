// Dispatch's side of the messages: writing to one driver or to all drivers
// of a service (every active driver who serves it) or of a region (the
// drivers on shift whose last position lies in it), reading the drivers'
// answers and marking them read. A message to many is written once per
// driver (one thread each); every driver's offer stream is told.
import type { Db } from "../db";
import { ValidationError } from "../errors";
import { publish } from "../events/bus";
import { cleanMessageText, messageSelect } from "./message-view";

export type Audience = { driverId: number } | { callSign: string } | { serviceId: number } | { regionId: number };

/** A broadcast reaches at most this many drivers (a city's fleet). */
const MAX_RECIPIENTS = 5_000;

async function recipients(db: Db, to: Audience): Promise<number[]> {
  if ("driverId" in to) {
    const d = await db.driver.findUnique({ where: { id: to.driverId }, select: { id: true } });
    if (!d) throw new ValidationError("NOT_FOUND", { what: "Driver", id: to.driverId });
    return [d.id];
  }
  if ("callSign" in to) {
    const d = await db.driver.findUnique({ where: { callSign: to.callSign }, select: { id: true } });
    if (!d) throw new ValidationError("NOT_FOUND", { what: "Driver", id: to.callSign });
    return [d.id];
  }
  if ("serviceId" in to) {
    const rows = await db.driver.findMany({ where: { active: true, services: { some: { serviceId: to.serviceId } } }, select: { id: true }, take: MAX_RECIPIENTS });
    return rows.map((r) => r.id);
  }
  const rows = await db.driver.findMany({ where: { regionId: to.regionId, state: { not: "OFFLINE" } }, select: { id: true }, take: MAX_RECIPIENTS });
  return rows.map((r) => r.id);
}

export async function sendToDrivers(db: Db, userId: number, input: { to: Audience; text: string }): Promise<{ sent: number }> {
  const text = cleanMessageText(input.text);
  if (text === "") throw new ValidationError("BAD_PARAMETER", { parameter: "text", expected: "text of 1 to 1000 characters" });
  const drivers = await recipients(db, input.to);
  const broadcast = "serviceId" in input.to ? `service:${input.to.serviceId}` : "regionId" in input.to ? `region:${input.to.regionId}` : "";
  if (drivers.length === 0) return { sent: 0 };
  const rows = await db.driverMessage.createManyAndReturn({
    data: drivers.map((driverId) => ({ driverId, sender: "DISPATCHER" as const, userId, text, broadcast })),
    select: { id: true, driverId: true },
  });
  for (const row of rows) publish({ type: "driver.message", driverId: row.driverId, messageId: row.id, sender: "DISPATCHER" });
  return { sent: rows.length };
}

/** The drivers' answers dispatch has not read yet. */
export async function unreadAnswers(db: Db): Promise<number> {
  return db.driverMessage.count({ where: { sender: "DRIVER", readAt: null } });
}

/** The latest messages, newest first: of one driver's thread, or of every thread (the drivers' answers and messages to one driver). */
export async function recentMessages(db: Db, input: { driverId?: number; limit: number }) {
  const rows = await db.driverMessage.findMany({
    where: input.driverId ? { driverId: input.driverId } : { OR: [{ sender: "DRIVER" }, { broadcast: "" }] },
    select: messageSelect,
    orderBy: { id: "desc" },
    take: input.limit,
  });
  const drivers = await db.driver.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.driverId))] } }, select: { id: true, callSign: true } });
  const callSigns = new Map(drivers.map((d) => [d.id, d.callSign]));
  return rows.map((r) => ({ ...r, callSign: callSigns.get(r.driverId) ?? "" }));
}

/** Marks a driver's answers read by this dispatcher; the number newly read. */
export async function markAnswersRead(db: Db, userId: number, driverId: number): Promise<{ read: number }> {
  const read = await db.driverMessage.updateMany({ where: { driverId, sender: "DRIVER", readAt: null }, data: { readAt: new Date(), userId } });
  return { read: read.count };
}
