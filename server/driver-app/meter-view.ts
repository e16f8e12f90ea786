// The taximeter as the driver app interface shows it (money in roubles, like
// the order's `amount`): docs/driver-app.md, "The taximeter".
import type { DbOrTx } from "../db";
import { kopecksToRoubles } from "../balances/money";
import { readOrderMeter, type OrderMeter } from "../meter/order-meter";
import { storedMeter } from "../meter/final-fare";
import type { DriverOrderView } from "./order-view";

import type { FareBreakdownView, MeterView } from "../../shared/driver-app/order-wire";

export type { FareBreakdownView, MeterView };

export function breakdownView(fare: OrderMeter["fare"]): FareBreakdownView {
  return {
    boarding: kopecksToRoubles(fare.boarding),
    distance: kopecksToRoubles(fare.distance),
    time: kopecksToRoubles(fare.time),
    waiting: kopecksToRoubles(fare.waiting),
    extras: kopecksToRoubles(fare.extras),
    minimum_added: kopecksToRoubles(fare.minimumAdded),
    rounding: kopecksToRoubles(fare.rounding),
  };
}

export function meterView(meter: Pick<OrderMeter, "reading" | "fare">): MeterView {
  return {
    distance_m: meter.reading.distanceMetres,
    trip_seconds: meter.reading.tripSeconds,
    waiting_seconds: meter.reading.waitingSeconds,
    fare: kopecksToRoubles(meter.fare.total),
    breakdown: breakdownView(meter.fare),
  };
}

// From the arrival on: the waiting states too (AWAITING_CLIENT_NOTIFIED follows the arrival as soon as the
// passenger's SMS has gone), and the states after the trip.
const METERED_STATES = new Set(["AWAITING_CLIENT", "AWAITING_CLIENT_NOTIFIED", "AWAITING_CLIENT_LONG", "IN_PROCESS", "AWAITING_PAYMENT", "AWAITING_COMPLETION", "DONE_SUCCESSFUL"]);

/** The order with its running meter (a METERED order from the driver's arrival on). */
export async function withMeter(db: DbOrTx, order: DriverOrderView): Promise<DriverOrderView> {
  if (order.rate_kind !== "METERED" || !METERED_STATES.has(order.state)) return order;
  // A completed order shows the fare it was completed with.
  const meter = order.state === "DONE_SUCCESSFUL" ? await storedMeter(db, order.id) : await readOrderMeter(db, order.id);
  return meter ? { ...order, meter: meterView(meter) } : order;
}
