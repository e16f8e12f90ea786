// The passengers' ratings (TripRating, server/tracking) as an optional weight
// of the candidate cost, beside the acceptance weight: a driver whose trips
// are rated lower costs up to `ratingWeight` seconds more. A few ratings say
// little, so the mean is shrunk toward a prior (a Bayesian average: the prior
// counts as RATING_PRIOR_COUNT ratings of RATING_PRIOR stars). Pure: the
// server's rounds and the comparison use it.

/** The stars a driver with no ratings is taken to have, and how many ratings that assumption weighs. */
export const RATING_PRIOR = 4.5;
export const RATING_PRIOR_COUNT = 5;

/** The mean rating shrunk toward the prior: (sum + prior × k) / (count + k); the prior itself with no ratings. */
export function shrunkRating(sum: number, count: number, prior = RATING_PRIOR, priorCount = RATING_PRIOR_COUNT): number {
  if (count <= 0) return prior;
  return (sum + prior * priorCount) / (count + priorCount);
}

/** How far a rating falls short of 5 stars, 0 (5 stars) to 1 (1 star); 0 when not known. */
export function ratingShortfall(rating: number | undefined): number {
  if (rating === undefined || !Number.isFinite(rating)) return 0;
  return Math.min(1, Math.max(0, (5 - rating) / 4));
}
