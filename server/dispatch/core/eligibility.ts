// Who may be offered an order: the candidate rules of issue 17. A driver of
// the order's service, with the car options its extras need, with enough
// balance, who has not refused it, within the radius (by the arrival time at
// a city pace, since the radius is what a dispatcher sets), and free or
// finishing a trip soon near the pickup (a chain).
import type { DriverToDispatch, OrderToDispatch } from "./types";

/** Seconds per km a car needs at the radius check's pace (30 km/h). */
const SECONDS_PER_KM = 120;

export function isCandidate(order: OrderToDispatch, driver: DriverToDispatch, arrivalSeconds: number | undefined): boolean {
  if (arrivalSeconds === undefined) return false;
  if (!driver.serviceIds.includes(order.serviceId)) return false;
  if (order.refusedBy.has(driver.id)) return false;
  if (driver.balance < order.rules.minBalance) return false;
  for (const option of order.neededOptions) if (!driver.options.includes(option)) return false;
  if (driver.busyForSeconds > 0 && driver.busyForSeconds > order.rules.chainSeconds) return false;
  // A chained driver is measured from the trip's end, the way it will come.
  return arrivalSeconds <= order.rules.radiusKm * SECONDS_PER_KM * 1.3;
}

/**
 * What choosing the driver costs, in seconds: the arrival (a chained
 * driver's remaining trip included), less the driver's waiting time at the
 * fairness weight, so that of two cars about as near the one that has waited
 * longer gets the order.
 */
export function costOf(order: OrderToDispatch, driver: DriverToDispatch, arrivalSeconds: number): number {
  return arrivalSeconds + driver.busyForSeconds - order.rules.fairnessWeight * (driver.idleSeconds / 60);
}
