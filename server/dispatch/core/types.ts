// The dispatch core's inputs and outputs: plain data, no database, so the
// server's dispatcher (server/dispatch/round.ts) and the strategy comparison
// (server/simulator/compare/) run the very same choice code.

export type DispatchStrategyName = "GREEDY" | "BATCHED";
export type OfferSource = "AUTO" | "QUEUE" | "BATCH" | "DISPATCHER";

/** The rules of the order's service and pickup region (its DispatchSetting). */
export interface OrderRules {
  /** AUTO: the best candidate; QUEUE: the head of the pickup region's parking queue first. */
  mode: "AUTO" | "QUEUE";
  radiusKm: number;
  /** Seconds of arrival one minute of a driver's waiting for an order is worth. */
  fairnessWeight: number;
  /** Kopecks a driver's balance must reach to be offered orders. */
  minBalance: number;
  /** A busy driver finishing within this many seconds may be offered the order as a chain (BOUND). */
  chainSeconds: number;
  /**
   * A search radius growing with the order's age: this many km at first,
   * `radiusStepKm` more every minute the order waits, up to `radiusKm`.
   * Undefined: the whole radius at once.
   */
  radiusStartKm?: number;
  radiusStepKm?: number;
  /** Seconds of cost a driver's refusal/timeout rate of 1 adds (0 or undefined: acceptance does not count). */
  acceptanceWeight?: number;
  /** Seconds of cost a driver's rating shortfall of 1 adds (1 star against 5: see ratingShortfall; 0 or undefined: ratings do not count). */
  ratingWeight?: number;
}

export interface OrderToDispatch {
  id: number;
  serviceId: number;
  regionId: number | null;
  lat: number;
  lon: number;
  /** Seconds since the order became free (oldest first in the greedy rule). */
  waitingSeconds: number;
  /** Car options the order's extras need (server/dispatch/extras.ts). */
  neededOptions: readonly number[];
  /** Drivers who refused the order or let an offer of it time out: never offered it again. */
  refusedBy: ReadonlySet<number>;
  rules: OrderRules;
}

export interface DriverToDispatch {
  id: number;
  /** Where the driver will start from: the position, or a busy driver's destination. */
  lat: number;
  lon: number;
  serviceIds: readonly number[];
  options: readonly number[];
  /** Kopecks. */
  balance: number;
  /** Seconds since the driver's last order ended (or the shift began). */
  idleSeconds: number;
  /** The parking queue the driver stands in and the place in it (0 = head). */
  queue: { regionId: number; position: number } | null;
  /** 0 for a free driver; the seconds left of a busy driver's trip (a chain candidate). */
  busyForSeconds: number;
  /** Share of the driver's recent offers accepted (0..1); undefined: not known, counted as 1. */
  acceptanceRate?: number;
  /** The passengers' mean rating of the driver's trips, 1..5 stars, shrunk toward the prior (rating.ts); undefined: not known, no cost. */
  rating?: number;
}

/** Seconds from driver to order along the roads (the straight line off them); undefined: unreachable. */
export type ArrivalOf = (orderIndex: number, driverIndex: number) => number | undefined;

/**
 * The drivers (their indices) who may be the order's candidates; no other
 * is. A round passes its sparse pairs (the radius and the rules that need no
 * arrival time), so that a rule looks at ~200 drivers an order, not the
 * fleet. Absent: every driver.
 */
export type CandidatesOf = (orderIndex: number) => Iterable<number>;

/** The drivers to look at for an order: its candidates when known, else every driver. */
export function driversFor(candidatesOf: CandidatesOf | undefined, orderIndex: number, drivers: readonly unknown[]): Iterable<number> {
  return candidatesOf ? candidatesOf(orderIndex) : drivers.keys();
}

export interface Assignment {
  orderId: number;
  driverId: number;
  /** Seconds until the car reaches the pickup (a chained driver's remaining trip included). */
  arrivalSeconds: number;
  source: OfferSource;
  /** The driver is busy finishing a trip: the offer binds the order (BOUND). */
  chain: boolean;
}
