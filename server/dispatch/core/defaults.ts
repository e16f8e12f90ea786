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
  /** Under deep scarcity (free orders at least DEEP_SCARCITY_RATIO, 4, times the free cars, scarcity.ts): the radius capped at this (km) instead; 0: off. DISPATCH_DEEP_SCARCE_RADIUS_KM. */
  deepScarceRadiusKm: number;
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
  /**
   * The comparison's idle drivers follow the product's hint (the coverage
   * rule, suggestCoverageMove in hint.ts, served as GET /driver-app/v1/hint)
   * with this probability. How often real drivers follow one is not known:
   * 0.3 is an assumption on the low side, and the comparison shows the
   * default with none followed and with 0.6 followed beside it
   * (docs/dispatch.md, "What the hint adds").
   */
  steerShare: 0.3,
  scarceRadiusKm: 3,
  /** Measured on seeds 1–20, checked on 21–40 (docs/dispatch.md): shorter waits twice over capacity, more orders lost. */
  deepScarceRadiusKm: 2,
};
