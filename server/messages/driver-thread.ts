// The driver's side of the messages: the thread (what dispatch wrote to the
// driver, to one alone or to all of their service or region, and what the
// driver answered), answering, and marking read.
import type { Db } from "../db";
import { writeAudit } from "../audit/write-audit";
import { ValidationError } from "../errors";
import { publish } from "../events/bus";
import { cleanMessageText, driverMessageView, messageSelect, type DriverMessageView } from "./message-view";

const PAGE = 100;

/** The latest messages of the driver's thread, oldest first; `after` gives only newer ones. */
export async function driverThread(db: Db, driverId: number, after?: number): Promise<DriverMessageView[]> {
  const rows = await db.driverMessage.findMany({
    where: { driverId, ...(after !== undefined ? { id: { gt: after } } : {}) },
    select: messageSelect,
    orderBy: { id: after !== undefined ? "asc" : "desc" },
    take: PAGE,
  });
  if (after === undefined) rows.reverse();
  return rows.map(driverMessageView);
}

export async function answerDispatch(db: Db, driver: { id: number; callSign: string }, text: string): Promise<DriverMessageView> {
  const clean = cleanMessageText(text);
  if (clean === "") throw new ValidationError("BAD_PARAMETER", { parameter: "text", expected: "text of 1 to 1000 characters" });
  const row = await db.driverMessage.create({ data: { driverId: driver.id, sender: "DRIVER", text: clean }, select: messageSelect });
  await writeAudit(db, { userId: null, action: "driverApp.message", entity: "driverMessage", entityId: row.id, details: { callSign: driver.callSign, length: clean.length } });
  publish({ type: "driver.message", driverId: driver.id, messageId: row.id, sender: "DRIVER" });
  return driverMessageView(row);
}

/** Marks dispatch's messages to the driver up to `upTo` read; the number newly read. */
export async function markReadByDriver(db: Db, driverId: number, upTo: number): Promise<number> {
  const read = await db.driverMessage.updateMany({ where: { driverId, sender: "DISPATCHER", id: { lte: upTo }, readAt: null }, data: { readAt: new Date() } });
  return read.count;
}

/** Dispatch's messages to the driver newer than `after` (the offer stream pushes them). */
export async function newFromDispatch(db: Db, driverId: number, after: number): Promise<DriverMessageView[]> {
  const rows = await db.driverMessage.findMany({ where: { driverId, sender: "DISPATCHER", id: { gt: after } }, select: messageSelect, orderBy: { id: "asc" }, take: PAGE });
  return rows.map(driverMessageView);
}
