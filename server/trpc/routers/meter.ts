// The taximeter of an order for the console's order card (live while the trip runs).
import { z } from "zod";
import { createTRPCRouter, dispatcherProcedure } from "../init";
import { readOrderMeter } from "../../meter/order-meter";
import { storedMeter } from "../../meter/final-fare";

export const meterRouter = createTRPCRouter({
  order: dispatcherProcedure.input(z.object({ orderId: z.number().int().positive().max(2_147_483_647) })).query(async ({ ctx, input }) => {
    const stored = await storedMeter(ctx.db, input.orderId).catch(() => null);
    const meter = stored ?? (await readOrderMeter(ctx.db, input.orderId));
    return meter ? { reading: meter.reading, fare: meter.fare, final: stored !== null } : null;
  }),
});
