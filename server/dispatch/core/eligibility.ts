// Who may be offered an order: the candidate rules of issue 17. A driver of
// the order's service, with the car options its extras need, with enough
// balance, who has not refused it, within the radius (the straight line from
// where the car will start, as a dispatcher draws it on the map), reachable,
// and free or finishing a trip soon near the pickup (a chain).
import { ratingShortfall } from "./rating";
import type { DriverToDispatch, OrderToDispatch } from "./types";

/** Metres between two points in degrees (haversine; the core stays free of the server's modules). */
export function metresBetween(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function isCandidate(order: OrderToDispatch, driver: DriverToDispatch, arrivalSeconds: number | undefined): boolean {
  if (arrivalSeconds === undefined) return false;
  if (!driver.serviceIds.includes(order.serviceId)) return false;
  if (order.refusedBy.has(driver.id)) return false;
  if (driver.balance < order.rules.minBalance) return false;
  for (const option of order.neededOptions) if (!driver.options.includes(option)) return false;
  if (driver.busyForSeconds > 0 && driver.busyForSeconds > order.rules.chainSeconds) return false;
  // A chained driver is measured from the trip's end, the way it will come.
  return metresBetween(driver, order) <= radiusNowKm(order) * 1000;
}

/** The order's search radius now: growing with its age when the rules say so (issue 30), else the setting. */
export function radiusNowKm(order: OrderToDispatch): number {
  const { radiusKm, radiusStartKm, radiusStepKm } = order.rules;
  if (radiusStartKm === undefined || radiusStepKm === undefined) return radiusKm;
  return Math.min(radiusKm, radiusStartKm + radiusStepKm * Math.floor(order.waitingSeconds / 60));
}

/**
 * What choosing the driver costs, in seconds: the arrival (a chained
 * driver's remaining trip included), less the driver's waiting time at the
 * fairness weight, so that of two cars about as near the one that has waited
 * longer gets the order; optionally plus the driver's miss rate and rating
 * shortfall at their weights (production: both off, defaults.ts).
 */
export function costOf(order: OrderToDispatch, driver: DriverToDispatch, arrivalSeconds: number): number {
  const missRate = 1 - (driver.acceptanceRate ?? 1);
  return (
    arrivalSeconds +
    driver.busyForSeconds -
    order.rules.fairnessWeight * (driver.idleSeconds / 60) +
    (order.rules.acceptanceWeight ?? 0) * missRate +
    (order.rules.ratingWeight ?? 0) * ratingShortfall(driver.rating)
  );
}
