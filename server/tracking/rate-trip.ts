// The passenger's rating of a done trip (1 to 5 stars, an optional comment),
// once per order (the unique order_id decides a race), within
// RATING_WINDOW_HOURS of the trip's end.
import { config } from "../config";
import type { Db } from "../db";
import { isUniqueViolation, OrderError } from "../errors";
import type { TrackedOrder } from "./find-tracked-order";

export interface RatingInput {
  stars: number;
  comment: string;
}

export async function rateTrip(db: Db, order: TrackedOrder, input: RatingInput, now = new Date()): Promise<{ stars: number; comment: string }> {
  if (order.state !== "DONE_SUCCESSFUL" || order.driverId === null || order.finalAt === null) {
    throw new OrderError("NOT_ACCEPTABLE", { reason: "a trip can be rated only after it is done" });
  }
  if (now.getTime() - order.finalAt.getTime() > config().RATING_WINDOW_HOURS * 3_600_000) {
    throw new OrderError("NOT_ACCEPTABLE", { reason: "the time to rate this trip is over" });
  }
  try {
    const rating = await db.tripRating.create({
      data: { orderId: order.id, driverId: order.driverId, stars: input.stars, comment: input.comment },
      select: { stars: true, comment: true },
    });
    return rating;
  } catch (error) {
    if (isUniqueViolation(error)) throw new OrderError("CONFLICT", { reason: "this trip has been rated already" });
    throw error;
  }
}
