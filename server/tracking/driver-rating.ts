// A driver's average rating from passengers (server/tracking/rate-trip.ts),
// for the console's driver card.
import type { DbOrTx } from "../db";

export interface DriverRating {
  /** Mean stars, one decimal; null before the first rating. */
  average: number | null;
  count: number;
  /** The latest few, newest first (the comment may be empty). */
  recent: Array<{ stars: number; comment: string; at: string }>;
}

export async function driverRating(db: DbOrTx, driverId: number): Promise<DriverRating> {
  const [summary, recent] = await Promise.all([
    db.tripRating.aggregate({ where: { driverId }, _avg: { stars: true }, _count: { _all: true } }),
    db.tripRating.findMany({ where: { driverId }, orderBy: { id: "desc" }, take: 3, select: { stars: true, comment: true, createdAt: true } }),
  ]);
  const avg = summary._avg.stars;
  return {
    average: avg === null ? null : Math.round(avg * 10) / 10,
    count: summary._count._all,
    recent: recent.map((r) => ({ stars: r.stars, comment: r.comment, at: r.createdAt.toISOString() })),
  };
}
