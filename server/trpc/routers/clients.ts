// The client's card (issue 34): a thin adapter over server/console/client-card.ts.
// Dispatchers only: it shows the client's phone, which managers do not see.
import { z } from "zod";
import { createTRPCRouter, dispatcherProcedure } from "../init";
import { clientCard } from "../../console/client-card";

export const clientsRouter = createTRPCRouter({
  card: dispatcherProcedure.input(z.object({ phone: z.string().trim().min(1).max(40) })).query(({ ctx, input }) => clientCard(ctx.db, input)),
});
