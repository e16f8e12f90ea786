// Messages between dispatch and drivers, for dispatchers (audited mutations).
import { z } from "zod";
import { createTRPCRouter, dispatcherProcedure } from "../init";
import { markAnswersRead, recentMessages, sendToDrivers, unreadAnswers } from "../../messages/dispatch-side";
import { MAX_MESSAGE_LENGTH } from "../../messages/message-view";

const id = z.number().int().positive().max(2_147_483_647);

export const messagesRouter = createTRPCRouter({
  unread: dispatcherProcedure.query(({ ctx }) => unreadAnswers(ctx.db)),
  recent: dispatcherProcedure
    .input(z.object({ driverId: id.optional(), limit: z.number().int().min(1).max(200).default(100) }))
    .query(({ ctx, input }) => recentMessages(ctx.db, input)),
  send: dispatcherProcedure
    .meta({ entity: "driverMessage" })
    .input(
      z.object({
        to: z.union([z.object({ driverId: id }), z.object({ callSign: z.string().trim().min(1).max(50) }), z.object({ serviceId: id }), z.object({ regionId: id })]),
        text: z.string().min(1).max(MAX_MESSAGE_LENGTH),
      }),
    )
    .mutation(({ ctx, input }) => sendToDrivers(ctx.db, ctx.user.id, input)),
  markRead: dispatcherProcedure
    .meta({ entity: "driverMessage" })
    .input(z.object({ driverId: id }))
    .mutation(({ ctx, input }) => markAnswersRead(ctx.db, ctx.user.id, input.driverId)),
});
