// Orders for dispatchers: the board (paged, filtered), the moderation queue,
// one order with its history, moves through the state machine, moderation,
// edits, and the phone order (estimate and creation). A thin adapter over
// server/console/* and server/orders/*.
import { z } from "zod";
import { adminProcedure, createTRPCRouter, dispatcherProcedure, boardReadProcedure, roleProcedure } from "../init";
import type { Actor } from "../../actor";
import { boardFilterSchema, orderStateSchema } from "../../../shared/orders/board-filter";
import { boardRowsByIds, countBoardGroups, listBoardOrders, listModerationQueue } from "../../console/order-board";
import { getOrderDetails } from "../../console/order-details";
import { editOrder } from "../../orders/edit-order";
import { approveModeratedOrder } from "../../orders/approve-moderated-order";
import { rejectModeratedOrder } from "../../orders/reject-moderated-order";
import { recentAddresses } from "../../console/recent-addresses";
import { callSignOf } from "../../console/drivers";
import { giveToDriverByCallSign } from "../../console/give-to-driver";
import { attention, listAgeLimits, saveAgeLimit } from "../../console/order-age";
import { possibleDuplicates } from "../../console/duplicates";
import { AGE_KINDS } from "../../../shared/orders/age";
import { moveByOperator } from "../../console/status-move";
import { createOrder, createOrderFromToken } from "../../orders/create-order";
import { estimatePrice } from "../../pricing/estimate";
import { isDomainError } from "../../errors";

const id = z.number().int().positive();
const version = z.number().int().min(0);
const text = (max: number) => z.string().trim().max(max);

const addressSchema = z.object({
  street: text(200).min(1),
  house: text(20).default(""),
  entrance: text(20).default(""),
  apartment: text(20).default(""),
  lat: z.number().min(-90).max(90).optional(),
  lon: z.number().min(-180).max(180).optional(),
});

const extrasSchema = z.array(z.object({ id, count: z.number().int().min(1).max(20) })).max(30).default([]);

const estimateSchema = z.object({
  pickup: addressSchema,
  destination: addressSchema.optional(),
  serviceId: id.optional(),
  extras: extrasSchema,
  preOrderTime: z.date().optional(),
  phone: text(30).optional(),
});

const createSchema = estimateSchema.extend({
  phone: text(30).min(5),
  clientName: text(100).optional(),
  comment: text(1000).optional(),
  /** Send straight to this driver (call sign). */
  driverCallSign: text(30).min(1).optional(),
  /** Kopecks: a price the dispatcher agreed with the client instead of the estimate. */
  amount: z.number().int().min(0).max(100_000_000).optional(),
  needNotify: z.boolean().default(true),
  /** The token of the estimate shown for exactly these fields: the quoted price is kept. */
  token: z.string().max(4000).optional(),
});

function actorOf(user: { id: number }): Actor {
  return { type: "USER", id: String(user.id) };
}

function point(a: z.output<typeof addressSchema>) {
  return {
    street: a.street,
    house: a.house || undefined,
    entrance: a.entrance || undefined,
    apartment: a.apartment || undefined,
    lat: a.lat,
    lon: a.lon,
  };
}

export const ordersRouter = createTRPCRouter({
  board: boardReadProcedure
    .input(z.object({ filter: boardFilterSchema, cursor: id.nullish(), limit: z.number().int().min(10).max(500).default(100) }))
    .query(({ ctx, input }) => listBoardOrders(ctx.db, input)),

  /** The rows among `ids` that match the filter now: the board patches itself with these on live events. */
  boardRows: boardReadProcedure
    .input(z.object({ filter: boardFilterSchema, ids: z.array(id).max(500) }))
    .query(({ ctx, input }) => boardRowsByIds(ctx.db, input)),

  moderation: boardReadProcedure.query(({ ctx }) => listModerationQueue(ctx.db)),

  counts: boardReadProcedure.query(({ ctx }) => countBoardGroups(ctx.db)),

  get: boardReadProcedure.input(z.object({ id })).query(({ ctx, input }) => getOrderDetails(ctx.db, input.id)),

  move: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ orderId: id, to: orderStateSchema, expectedVersion: version, reason: text(500).optional(), driverId: id.nullish() }))
    .mutation(async ({ ctx, input }) => {
      const moved = await moveByOperator(ctx.db, {
        orderId: input.orderId,
        to: input.to,
        expectedVersion: input.expectedVersion,
        reason: input.reason,
        driverId: input.driverId ?? undefined,
        actor: actorOf(ctx.user),
      });
      return { id: moved.id, from: moved.from, to: moved.to, version: moved.version };
    }),

  approve: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ orderId: id, expectedVersion: version, driverId: id.nullish() }))
    .mutation(async ({ ctx, input }) => {
      const moved = await approveModeratedOrder(ctx.db, { ...input, actor: actorOf(ctx.user) });
      const driverCallSign = moved.driverId ? await callSignOf(ctx.db, moved.driverId) : null;
      return { id: moved.id, from: moved.from, to: moved.to, version: moved.version, driverCallSign };
    }),

  /** Active orders of the phone with a pickup near this one: the phone order form asks before saving another. */
  duplicates: dispatcherProcedure
    .input(z.object({ phone: text(30).min(5), street: text(200).min(1), house: text(20).default(""), lat: z.number().min(-90).max(90).optional(), lon: z.number().min(-180).max(180).optional() }))
    .query(({ ctx, input }) => possibleDuplicates(ctx.db, input)),

  /** The orders that need a person: past their red limit (ids), amber, on moderation (the title, the alarms). */
  attention: boardReadProcedure.query(({ ctx }) => attention(ctx.db)),

  /** The age limits per kind of wait: the board colours its age column by them; administrators edit them. */
  ageLimits: roleProcedure("DISPATCHER", "ADMIN", "MANAGER").query(({ ctx }) => listAgeLimits(ctx.db)),

  saveAgeLimit: adminProcedure
    .meta({ entity: "orderAgeLimit" })
    .input(z.object({ kind: z.enum(AGE_KINDS), amberSeconds: z.number().int().min(0).max(7 * 86_400), redSeconds: z.number().int().min(0).max(7 * 86_400) }))
    .mutation(({ ctx, input }) => saveAgeLimit(ctx.db, input)),

  /** The card's driver field: a call sign and Enter; a refusal says why the driver does not fit. */
  giveToDriver: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ orderId: id, expectedVersion: version, callSign: text(30).min(1) }))
    .mutation(({ ctx, input }) => giveToDriverByCallSign(ctx.db, { ...input, actor: actorOf(ctx.user) })),

  reject: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ orderId: id, expectedVersion: version, reason: text(500).min(1) }))
    .mutation(async ({ ctx, input }) => {
      const moved = await rejectModeratedOrder(ctx.db, { ...input, actor: actorOf(ctx.user) });
      return { id: moved.id, from: moved.from, to: moved.to, version: moved.version };
    }),

  update: dispatcherProcedure
    .meta({ entity: "order" })
    .input(
      z.object({
        orderId: id,
        expectedVersion: version,
        comment: text(1000).optional(),
        clientName: text(100).optional(),
        street: text(200).min(1).optional(),
        house: text(20).optional(),
        apartment: text(20).optional(),
        entrance: text(20).optional(),
        dst: text(300).optional(),
        amount: z.number().int().min(0).max(100_000_000).nullable().optional(),
      }),
    )
    .mutation(({ ctx, input }) => editOrder(ctx.db, input)),

  /** A caller's name and the addresses of their recent orders. */
  recentAddresses: dispatcherProcedure
    .input(z.object({ phone: text(30) }))
    .query(({ ctx, input }) => recentAddresses(ctx.db, { phone: input.phone })),

  estimate: dispatcherProcedure.input(estimateSchema).query(async ({ ctx, input }) => {
    const estimate = await estimatePrice(ctx.db, {
      points: [point(input.pickup), ...(input.destination ? [point(input.destination)] : [])],
      serviceId: input.serviceId,
      extras: input.extras,
      preOrderTime: input.preOrderTime,
      phone: input.phone && input.phone.replace(/\D/g, "").length >= 10 ? input.phone : undefined,
      pointsParam: "street",
    });
    return {
      amount: estimate.amount,
      distanceMetres: estimate.distanceMetres,
      routeSeconds: estimate.routeSeconds,
      approximate: estimate.approximate,
      token: estimate.token,
      serviceId: estimate.serviceId,
      breakdown: estimate.breakdown,
      pickup: estimate.points[0] ?? null,
      destination: estimate.points.length > 1 ? (estimate.points.at(-1) ?? null) : null,
    };
  }),

  /** A phone order: the dispatcher took it, so no moderation. */
  create: dispatcherProcedure
    .meta({ entity: "order" })
    .input(createSchema)
    .mutation(async ({ ctx, input }) => {
      const actor = actorOf(ctx.user);
      const common = {
        source: "CONSOLE" as const,
        moderationRequired: false,
        needNotify: input.needNotify,
        comment: input.comment || undefined,
        clientName: input.clientName || undefined,
        driver: input.driverCallSign,
      };
      const byFields = () =>
        createOrder(
          ctx.db,
          {
            ...common,
            phone: input.phone,
            pickup: point(input.pickup),
            destination: input.destination ? point(input.destination) : undefined,
            serviceId: input.serviceId,
            extras: input.extras,
            preOrderTime: input.preOrderTime,
            amount: input.amount,
          },
          actor,
        );
      if (!input.token || input.amount !== undefined) return byFields();
      try {
        return await createOrderFromToken(ctx.db, { ...common, token: input.token, phone: input.phone, serviceId: input.serviceId, extras: input.extras }, actor);
      } catch (error) {
        // The quote expired while the dispatcher talked: price it again from the fields.
        if (isDomainError(error) && (error.code === "TOKEN_EXPIRED" || error.code === "TOKEN_INVALID")) return byFields();
        throw error;
      }
    }),
});
