// The phone (issue 34): the calls on the dispatcher's console (ringing and
// missed), what the pop-up says about a caller, click-to-call, the call log
// of an order or a phone. A thin adapter over server/pbx/.
import { z } from "zod";
import { boardReadProcedure, createTRPCRouter, dispatcherProcedure } from "../init";
import { callerCard, callLog, consoleCalls, dismissMissedCall } from "../../pbx/calls";
import { originateCall, phoneStatus } from "../../pbx/pbx";

const phone = z.string().trim().min(1).max(40);

export const phoneRouter = createTRPCRouter({
  /** Whether "Call" dials through the PBX for this operator (a PBX set and an extension in their profile). */
  status: boardReadProcedure.query(({ ctx }) => phoneStatus(ctx.db, ctx.user.id)),

  calls: dispatcherProcedure.query(({ ctx }) => consoleCalls(ctx.db, ctx.user.id)),

  caller: dispatcherProcedure.input(z.object({ phone })).query(({ ctx, input }) => callerCard(ctx.db, input.phone)),

  dismiss: dispatcherProcedure
    .meta({ entity: "phoneCall" })
    .input(z.object({ callId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => dismissMissedCall(ctx.db, { callId: input.callId, userId: ctx.user.id })),

  dial: dispatcherProcedure
    .meta({ entity: "phoneCall" })
    .input(z.object({ phone, orderId: z.number().int().positive().optional() }))
    .mutation(({ ctx, input }) => originateCall(ctx.db, { userId: ctx.user.id, phone: input.phone, orderId: input.orderId })),

  log: boardReadProcedure
    .input(z.union([z.object({ orderId: z.number().int().positive() }), z.object({ phone })]))
    .query(({ ctx, input }) => callLog(ctx.db, input)),
});
