// The production default of automatic dispatch's choice, in one place: the
// server's rounds (server/dispatch/candidates.ts, round.ts) and the strategy
// comparison's "default" policy (server/simulator/compare/run.ts) read it, so
// the comparison measures what production runs. Each part was kept only
// after the comparison showed it helps (docs/dispatch.md).

export interface DispatchDefaults {
  ageWeight: number;
  radiusGrowth: boolean;
  radiusStartKm: number;
  radiusStepKm: number;
  acceptanceWeight: number;
  ratingWeight: number;
  steerShare: number;
  /** Under scarcity (more free orders than free cars in a round): the radius capped at this (km) and no chains; 0: off. The server's DISPATCH_SCARCE_RADIUS_KM defaults to it. */
  scarceRadiusKm: number;
}

export const PRODUCTION_DEFAULT: Readonly<DispatchDefaults> = {
  /**
   * Batched assignment's weight of the order's age (seconds of cost per
   * second waited). It was 0.1; measured, it bought nothing (the waits of
   * lost orders count) and it sends cars to far old orders: off.
   */
  ageWeight: 0,
  /** The search radius grows with the order's age (radiusStartKm, radiusStepKm per minute). */
  radiusGrowth: false,
  radiusStartKm: 2,
  radiusStepKm: 1,
  /** Seconds of cost a driver's miss rate of 1 adds (0: off). Measured: no gain, off. */
  acceptanceWeight: 0,
  /**
   * Seconds of cost a rating shortfall of 1 adds (1 star against 5, rating.ts;
   * 0: off). Measured (docs/dispatch.md, "batched+rating"): see there; off.
   */
  ratingWeight: 0,
  /** The comparison's idle drivers follow region hints (hint.ts) with this probability (0: no hints). Not kept: the server has no hint endpoint and the driver app shows no hint. */
  steerShare: 0,
  scarceRadiusKm: 3,
};
