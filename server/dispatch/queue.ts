// Parking queues: the regions are parking areas; a free driver standing in a
// region joins its queue (the region is the one the driver's last position
// lies in) and keeps the place until leaving, driving into another region,
// taking an order or going off shift. The place is the order of joining.
import type { Db, DbOrTx } from "../db";
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

/** Joins the queue of the region the driver stands in (staying in it keeps the place). */
export async function joinQueue(db: Db, driverId: number): Promise<QueuePlace> {
  await db.$transaction(async (tx) => {
    const rows = await sqlQuery<{ state: string; region_id: number | null }>(tx, `SELECT state::text AS state, region_id FROM driver WHERE id = $1 FOR NO KEY UPDATE`, [driverId]);
    const d = rows[0];
    if (!d) throw new OrderError("NOT_FOUND", { what: "Driver", id: driverId });
    if (d.state !== "FREE") throw new OrderError("CONFLICT", { reason: d.state === "OFFLINE" ? "not on shift: start a shift first" : "only a free driver stands in a queue" });
    if (d.region_id === null) throw new OrderError("CONFLICT", { reason: "the driver's position is in no region" });
    const entry = await tx.dispatchQueueEntry.findUnique({ where: { driverId }, select: { regionId: true } });
    if (entry?.regionId === d.region_id) return;
    await tx.dispatchQueueEntry.upsert({
      where: { driverId },
      create: { driverId, regionId: d.region_id },
      update: { regionId: d.region_id, joinedAt: new Date() },
      select: { driverId: true },
    });
  });
  return (await queuePlaceOf(db, driverId))!;
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
