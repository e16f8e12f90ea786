// The dispatcher's live map: regions with counts, drivers, the plain base
// map, a driver's card and an order's route. A thin adapter over
// server/console/map.ts; the live part arrives over live.events.
import { z } from "zod";
import { createTRPCRouter, boardReadProcedure, roleProcedure } from "../init";
import { cityBasemap, mapDriverCard, mapOverview, orderRoute, regionCounts } from "../../console/map";

const id = z.number().int().positive();

export const mapRouter = createTRPCRouter({
  overview: boardReadProcedure.input(z.object({ cityId: id.optional() })).query(({ ctx, input }) => mapOverview(ctx.db, input)),

  counts: boardReadProcedure.input(z.object({ cityId: id })).query(({ ctx, input }) => regionCounts(ctx.db, input.cityId)),

  /** The plain base map from our streets (the region editor of administrators draws it too). */
  basemap: roleProcedure("DISPATCHER", "ADMIN", "MANAGER").input(z.object({ cityId: id })).query(({ ctx, input }) => cityBasemap(ctx.db, input.cityId)),

  driver: boardReadProcedure.input(z.object({ driverId: id })).query(({ ctx, input }) => mapDriverCard(ctx.db, input.driverId)),

  route: boardReadProcedure.input(z.object({ orderId: id })).query(({ ctx, input }) => orderRoute(ctx.db, input.orderId)),
});
