// Drivers for dispatchers: the list with states and cars.
import { z } from "zod";
import { createTRPCRouter, dispatcherProcedure } from "../init";
import { listDrivers } from "../../console/drivers";

export const driversRouter = createTRPCRouter({
  list: dispatcherProcedure
    .input(
      z.object({
        state: z.enum(["OFFLINE", "FREE", "BUSY"]).optional(),
        q: z.string().trim().max(50).optional(),
        serviceId: z.number().int().positive().optional(),
        cursor: z.number().int().positive().nullish(),
        limit: z.number().int().min(10).max(500).default(200),
      }),
    )
    .query(({ ctx, input }) => listDrivers(ctx.db, input)),
});
