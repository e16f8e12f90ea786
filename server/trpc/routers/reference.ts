// Reference data for the console's forms and filters, and street search.
import { z } from "zod";
import { createTRPCRouter, dispatcherProcedure, protectedProcedure } from "../init";
import { listCities, listRegions, listServices } from "../../console/reference";
import { listAssignableDrivers } from "../../console/drivers";
import { searchStreets } from "../../geo/streets";

export const referenceRouter = createTRPCRouter({
  /** Cities, services with extras, regions: one call, cached long by the console. */
  lookups: protectedProcedure.query(async ({ ctx }) => {
    const [cities, services, regions] = await Promise.all([listCities(ctx.db), listServices(ctx.db), listRegions(ctx.db)]);
    return { cities, services, regions };
  }),

  streets: dispatcherProcedure
    .input(z.object({ q: z.string().trim().min(1).max(100), cityId: z.number().int().positive().optional(), limit: z.number().int().min(1).max(30).default(10) }))
    .query(({ ctx, input }) => searchStreets(ctx.db, { pattern: input.q, cityId: input.cityId, limit: input.limit })),

  /** Drivers an order may be sent to (free first). */
  assignableDrivers: dispatcherProcedure
    .input(z.object({ serviceId: z.number().int().positive().optional(), q: z.string().trim().max(50).optional() }))
    .query(({ ctx, input }) => listAssignableDrivers(ctx.db, input)),
});
