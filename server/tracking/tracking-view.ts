// What the tracking page shows of an order (GET /t/<token>/state and every
// event of its stream): the state in the passenger's phases, the pickup and
// destination, the driver's first name and car, the car's position and its
// arrival time along the roads, the fare after the trip, the rating. Never
// the passenger's phone or name, nor the driver's phone (the call goes
// through /t/<token>/call), nor anything of other orders.
import { z } from "zod";
import { config } from "../config";
import type { DbOrTx } from "../db";
import { haversineMetres } from "../geo/distance";
import { arrivalSeconds } from "../routing/routes";
import { passengerMayCall, passengerMayCancel, trackingPhase } from "../../shared/tracking/phase";
import { meterBreakdownSchema, type TrackingView } from "../../shared/tracking/view";
import type { TrackedOrder } from "./find-tracked-order";



const roubles = (kopecks: number) => (kopecks / 100).toFixed(2);

/**
 * The meter's breakdown, when the trip was metered: the taximeter keeps its final fare in the order's price_breakdown
 * under `meter.fare`, in kopecks (server/meter/final-fare.ts). Anything else there (the estimate's own breakdown) is
 * not shown.
 */
function meterBreakdown(priceBreakdown: unknown): z.infer<typeof meterBreakdownSchema> | null {
  const kopecks = z.number().int();
  const stored = z
    .object({ meter: z.object({ fare: z.object({ boarding: kopecks, distance: kopecks, time: kopecks, waiting: kopecks, extras: kopecks, minimumAdded: kopecks, rounding: kopecks }) }) })
    .safeParse(priceBreakdown);
  if (!stored.success) return null;
  const b = stored.data.meter.fare;
  return { boarding: roubles(b.boarding), distance: roubles(b.distance), time: roubles(b.time), waiting: roubles(b.waiting), extras: roubles(b.extras), minimum_added: roubles(b.minimumAdded), rounding: roubles(b.rounding) };
}

function address(street: string, house: string): string {
  return [street, house].filter((s) => s.trim() !== "").join(", ");
}

/** Seconds for the car to reach the pickup: along the roads, else the straight line at the configured average. */
async function secondsToPickup(db: DbOrTx, cityId: number, car: { lat: number; lon: number }, pickup: { lat: number; lon: number }, at: Date): Promise<number> {
  const [seconds] = await arrivalSeconds(db, cityId, pickup, [car], { at });
  if (seconds !== undefined) return Math.max(0, Math.round(seconds));
  const cfg = config();
  return Math.round(((haversineMetres(car, pickup) * cfg.ROAD_FACTOR) / 1000 / cfg.AVERAGE_SPEED_KMH) * 3600);
}

export async function trackingView(db: DbOrTx, order: TrackedOrder, now = new Date()): Promise<TrackingView> {
  const phase = trackingPhase(order.state);
  const driverShown = order.driverId !== null && (phase === "coming" || phase === "arrived" || phase === "riding" || phase === "done" || phase === "scheduled");
  const [driver, rating] = await Promise.all([
    driverShown
      ? db.driver.findUnique({
          where: { id: order.driverId! },
          select: { firstName: true, lat: true, lon: true, bearing: true, positionAt: true, car: { select: { color: true, brand: true, model: true, regNumber: true } } },
        })
      : null,
    phase === "done" ? db.tripRating.findUnique({ where: { orderId: order.id }, select: { stars: true, comment: true } }) : null,
  ]);
  // The car on the map only while it comes, waits or drives the passenger.
  const live = phase === "coming" || phase === "arrived" || phase === "riding";
  const position = live && driver && driver.lat !== null && driver.lon !== null ? { lat: driver.lat, lon: driver.lon, bearing: driver.bearing, at: driver.positionAt?.toISOString() ?? null } : null;
  const pickup = order.lat !== null && order.lon !== null ? { lat: order.lat, lon: order.lon } : null;
  const arrival = phase === "coming" && position && pickup ? await secondsToPickup(db, order.cityId, position, pickup, now) : null;
  const destination = order.dst || order.dstStreet ? { address: order.dst || address(order.dstStreet, order.dstHouse), lat: order.dstLat, lon: order.dstLon } : null;
  const windowOpen = order.finalAt !== null && now.getTime() - order.finalAt.getTime() <= config().RATING_WINDOW_HOURS * 3_600_000;
  return {
    phase,
    status_code: order.statusCode,
    pickup: { address: address(order.street, order.house), lat: order.lat, lon: order.lon },
    destination,
    pre_order_time: order.preOrderTime?.toISOString() ?? null,
    driver: driver
      ? {
          first_name: driver.firstName,
          car: driver.car ? { colour: driver.car.color, make: driver.car.brand, model: driver.car.model, plate: driver.car.regNumber } : null,
          position,
        }
      : null,
    arrival_seconds: arrival,
    can_call: passengerMayCall(phase) && driver !== null,
    can_cancel: passengerMayCancel(phase),
    fare: phase === "done" && order.amount !== null ? { amount: roubles(order.amount), breakdown: meterBreakdown(order.priceBreakdown) } : null,
    rating: { can_rate: phase === "done" && !rating && windowOpen && order.driverId !== null, stars: rating?.stars ?? null, comment: rating?.comment ?? null },
  };
}
