// Drivers for dispatchers: the list with states and cars.
import { z } from "zod";
import { createTRPCRouter, boardReadProcedure } from "../init";
import { listDrivers } from "../../console/drivers";

export const driversRouter = createTRPCRouter({
  list: boardReadProcedure
    .input(
      z.object({
        state: z.enum(["OFFLINE", "FREE", "BUSY"]).optional(),
        q: z.string().trim().max(50).optional(),
        serviceId: z.number().int().positive().optional(),
        notOffered: z.boolean().optional(),
        cursor: z.number().int().positive().nullish(),
        limit: z.number().int().min(10).max(500).default(200),
      }),
    )
    .query(({ ctx, input }) => listDrivers(ctx.db, input)),
});
