// Automatic dispatch in the console: the distribution settings per service
// and region (reference data for administrators; every change audited), and
// the dispatcher's controls — pause, send to a chosen driver among the
// candidates with their arrival times, take back — with the attempts of an
// order, the queues per region and the orders in trouble. A thin adapter
// over server/dispatch.
import { z } from "zod";
import type { Actor } from "../../actor";
import { adminProcedure, createTRPCRouter, dispatcherProcedure, boardReadProcedure, roleProcedure } from "../init";
import { attemptsOf, candidatesFor, controlOf, sendToDriver, setPaused, takeBack, troubleOrders } from "../../dispatch/dispatcher";
import { listQueues, putInQueue, removeFromQueue } from "../../dispatch/queue";
import { deleteDispatchSettings, listDispatchSettings, saveDispatchSettings, settingsInput } from "../../dispatch/settings-admin";

const id = z.number().int().positive();
const actorOf = (user: { id: number }): Actor => ({ type: "USER", id: String(user.id) });

/** BigInt does not travel as JSON: the minimum balance goes out as a number of kopecks. */
const plain = <T extends { minBalance: bigint }>(s: T) => ({ ...s, minBalance: Number(s.minBalance) });

export const dispatchRouter = createTRPCRouter({
  settings: roleProcedure("ADMIN", "DISPATCHER", "MANAGER").query(async ({ ctx }) => (await listDispatchSettings(ctx.db)).map(plain)),

  saveSettings: adminProcedure
    .meta({ entity: "dispatchSetting" })
    .input(settingsInput)
    .mutation(async ({ ctx, input }) => plain(await saveDispatchSettings(ctx.db, input))),

  deleteSettings: adminProcedure
    .meta({ entity: "dispatchSetting" })
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => {
      await deleteDispatchSettings(ctx.db, input.id);
      return { id: input.id };
    }),

  /** The order card's part: the control (paused, attempts) and every offer made. */
  order: boardReadProcedure.input(z.object({ orderId: id })).query(async ({ ctx, input }) => ({
    control: await controlOf(ctx.db, input.orderId),
    attempts: await attemptsOf(ctx.db, input.orderId),
  })),

  candidates: boardReadProcedure.input(z.object({ orderId: id })).query(({ ctx, input }) => candidatesFor(ctx.db, input.orderId)),

  pause: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ orderId: id, paused: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await setPaused(ctx.db, input.orderId, input.paused, actorOf(ctx.user));
      return { orderId: input.orderId, paused: input.paused };
    }),

  send: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ orderId: id, driverId: id }))
    .mutation(async ({ ctx, input }) => {
      const made = await sendToDriver(ctx.db, input.orderId, input.driverId, actorOf(ctx.user));
      return { orderId: made.orderId, driverId: made.driverId, offerId: made.offerId, deadline: made.deadline.toISOString() };
    }),

  takeBack: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ orderId: id, reason: z.string().max(500).optional() }))
    .mutation(async ({ ctx, input }) => {
      await takeBack(ctx.db, input.orderId, actorOf(ctx.user), input.reason || undefined);
      return { orderId: input.orderId };
    }),

  queues: boardReadProcedure.input(z.object({ cityId: id.optional() })).query(({ ctx, input }) => listQueues(ctx.db, input.cityId)),

  /** A driver (by call sign, or by id when moving one already shown) put on a stand, or moved to another place or stand. */
  queuePut: dispatcherProcedure
    .meta({ entity: "dispatchQueue" })
    .input(
      z
        .object({ callSign: z.string().trim().min(1).max(32).optional(), driverId: id.optional(), regionId: id, position: z.number().int().min(1).max(10_000).optional() })
        .refine((v) => (v.callSign === undefined) !== (v.driverId === undefined), { message: "callSign or driverId" }),
    )
    .mutation(({ ctx, input }) => putInQueue(ctx.db, input)),

  queueRemove: dispatcherProcedure
    .meta({ entity: "dispatchQueue" })
    .input(z.object({ driverId: id }))
    .mutation(({ ctx, input }) => removeFromQueue(ctx.db, input.driverId)),

  trouble: boardReadProcedure.query(({ ctx }) => troubleOrders(ctx.db)),
});
