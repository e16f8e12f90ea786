// Passengers' ratings of drivers (given through the tracking link,
// server/tracking/rate-trip.ts), for the console's driver card.
import { z } from "zod";
import { createTRPCRouter, dispatcherProcedure } from "../init";
import { driverRating } from "../../tracking/driver-rating";

export const ratingsRouter = createTRPCRouter({
  driver: dispatcherProcedure.input(z.object({ driverId: z.number().int().positive() })).query(({ ctx, input }) => driverRating(ctx.db, input.driverId)),
});
