// The taximeter's last word on an order: at completion the final reading
// becomes the order's amount (what the commission, the passenger's SMS and the
// exchange's `fare` read) and is kept with its breakdown in the order's
// price_breakdown under `meter`, so a repeated completion replies the same.
import type { DbOrTx, Tx } from "../db";
import type { MeteredFare, MeterReading } from "./fare";
import { readOrderMeter } from "./order-meter";

export interface StoredMeter {
  reading: MeterReading;
  fare: MeteredFare;
}

function isStoredMeter(value: unknown): value is StoredMeter {
  if (typeof value !== "object" || value === null) return false;
  const fare = (value as { fare?: unknown }).fare;
  return typeof fare === "object" && fare !== null && typeof (fare as { total?: unknown }).total === "number";
}

/** Meters the order (its trip ending at `endedAt`, else at its AWAITING_PAYMENT move) and sets its amount; null for a fixed price. */
export async function finalMeterInTx(tx: Tx, orderId: number, endedAt?: Date): Promise<MeteredFare | null> {
  const meter = await readOrderMeter(tx, orderId, { endedAt });
  if (!meter) return null;
  const { priceBreakdown } = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { priceBreakdown: true } });
  const previous = typeof priceBreakdown === "object" && priceBreakdown !== null && !Array.isArray(priceBreakdown) ? priceBreakdown : {};
  await tx.order.update({
    where: { id: orderId },
    data: { amount: meter.fare.total, priceBreakdown: { ...previous, meter: { reading: { ...meter.reading }, fare: { ...meter.fare } } } },
    select: { id: true },
  });
  return meter.fare;
}

/** The final reading and fare kept at the completion, or null. */
export async function storedMeter(db: DbOrTx, orderId: number): Promise<StoredMeter | null> {
  const { priceBreakdown } = await db.order.findUniqueOrThrow({ where: { id: orderId }, select: { priceBreakdown: true } });
  const meter = typeof priceBreakdown === "object" && priceBreakdown !== null && !Array.isArray(priceBreakdown) ? (priceBreakdown as Record<string, unknown>).meter : undefined;
  return isStoredMeter(meter) ? meter : null;
}
