// A dispatcher's edit of an unfinished order: comment, client name, pickup
// and destination fields, amount. Refused when the order changed since the
// dispatcher read it (version) or is finished. A changed pickup address is
// looked up among the city's houses to move the coordinates and region with it.
import type { Db, Tx } from "../db";
import { OrderError } from "../errors";
import { publish } from "../events/bus";
import { lockOrder } from "./move-order";
import { isDone, isOrderState } from "./states";
import { normalizeHouse } from "../geo/normalize";

export interface EditOrderInput {
  orderId: number;
  expectedVersion: number;
  comment?: string;
  clientName?: string;
  street?: string;
  house?: string;
  apartment?: string;
  entrance?: string;
  dst?: string;
  /** Kopecks; null clears the amount. */
  amount?: number | null;
}

const FIELDS = ["comment", "clientName", "street", "house", "apartment", "entrance", "dst", "amount"] as const;
type Field = (typeof FIELDS)[number];

async function locateHouse(tx: Tx, cityId: number, street: string, house: string) {
  const found = await tx.street.findFirst({ where: { cityId, fullName: { equals: street.trim(), mode: "insensitive" } }, select: { id: true, lat: true, lon: true, kind: true } });
  if (!found) return null;
  if (house.trim()) {
    const h = await tx.house.findUnique({
      where: { streetId_numberKey: { streetId: found.id, numberKey: normalizeHouse(house) } },
      select: { lat: true, lon: true, regionId: true },
    });
    if (h) return h;
  }
  return found.kind === "PUBLIC_PLACE" ? { lat: found.lat, lon: found.lon, regionId: undefined } : null;
}

export async function editOrder(db: Db, input: EditOrderInput) {
  const result = await db.$transaction(async (tx) => {
    const locked = await lockOrder(tx, { orderId: input.orderId });
    if (locked.version !== input.expectedVersion) {
      throw new OrderError("CONFLICT", { reason: "the order was changed by someone else; reload it", reasonKey: "stale" });
    }
    if (!isOrderState(locked.state) || isDone(locked.state)) {
      throw new OrderError("NOT_ACCEPTABLE", { reason: "a finished order cannot be edited", reasonKey: "finished" });
    }
    const before = await tx.order.findUniqueOrThrow({
      where: { id: locked.id },
      select: { cityId: true, comment: true, clientName: true, street: true, house: true, apartment: true, entrance: true, dst: true, amount: true },
    });
    const changes: Partial<Record<Field, { from: unknown; to: unknown }>> = {};
    const data: Record<string, unknown> = {};
    for (const field of FIELDS) {
      const value = input[field];
      if (value === undefined || value === before[field]) continue;
      changes[field] = { from: before[field], to: value };
      data[field] = value;
    }
    if (!Object.keys(data).length) return { changed: null, id: locked.id, version: locked.version, changes };
    if (changes.street || changes.house) {
      const place = await locateHouse(tx, before.cityId, input.street ?? before.street, input.house ?? before.house);
      data.lat = place?.lat ?? null;
      data.lon = place?.lon ?? null;
      if (place?.regionId !== undefined) data.regionId = place.regionId;
    }
    const updated = await tx.order.update({
      where: { id: locked.id },
      data: { ...data, version: { increment: 1 } },
      select: { id: true, uuid: true, version: true, state: true, statusCode: true, driverId: true, regionId: true },
    });
    return { changed: updated, id: updated.id, version: updated.version, changes };
  });
  const changed = result.changed;
  if (changed) {
    publish({
      type: "order.changed",
      orderId: changed.id,
      uuid: changed.uuid,
      state: changed.state,
      statusCode: changed.statusCode,
      driverId: changed.driverId,
      regionId: changed.regionId,
    });
  }
  return { id: result.id, version: result.version, changes: result.changes };
}
