// The signed-in operator: who they are and their console settings.
import { z } from "zod";
import { createTRPCRouter, protectedProcedure } from "../init";
import { setUserLocale } from "../../console/users";
import { revokeUserSessions } from "../../auth/session-epoch";

export const sessionRouter = createTRPCRouter({
  me: protectedProcedure.query(({ ctx }) => ctx.user),

  /** Remembers the operator's language (the console also keeps it in a cookie). */
  setLocale: protectedProcedure
    .meta({ entity: "user" })
    .input(z.object({ locale: z.enum(["ru", "en"]) }))
    .mutation(async ({ ctx, input }) => {
      await setUserLocale(ctx.db, { userId: ctx.user.id, locale: input.locale });
      return { id: ctx.user.id, locale: input.locale };
    }),

  /** Ends every session of the operator, on every device, this one included (server/auth/session-epoch.ts). */
  signOutEverywhere: protectedProcedure
    .meta({ entity: "user" })
    .mutation(async ({ ctx }) => {
      await revokeUserSessions(ctx.db, ctx.user.id, ctx.claims?.epoch ?? 0);
      return { id: ctx.user.id };
    }),
});
