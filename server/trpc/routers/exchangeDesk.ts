// The exchange desk: exchange operators and dispatchers see what we sold and
// bought, the offers, the messages both ways with their delivery attempts
// and our balance; dispatchers sell free orders and give offers to drivers;
// exchange operators send a stuck message again. A thin adapter over
// server/console/exchange-desk.ts.
import { z } from "zod";
import { createTRPCRouter, dispatcherProcedure, roleProcedure } from "../init";
import {
  BOUGHT_PHASES,
  EXCHANGE_CHANNELS,
  SOLD_PHASES,
  deskSummary,
  exchangeOutboxMessage,
  listExchangeLinks,
  listExchangeOutbox,
  listInbound,
  retryExchangeMessage,
  sellToExchange,
  sellableOrders,
  takeExchangeOffer,
} from "../../console/exchange-desk";

const deskProcedure = roleProcedure("EXCHANGE_OPERATOR", "DISPATCHER");
const id = z.number().int().positive();
const phase = z.enum([...new Set([...SOLD_PHASES, ...BOUGHT_PHASES])] as [string, ...string[]]);
const actorOf = (user: { id: number }) => ({ type: "USER" as const, id: String(user.id) });

export const exchangeDeskRouter = createTRPCRouter({
  summary: deskProcedure.query(({ ctx }) => deskSummary(ctx.db)),

  links: deskProcedure
    .input(
      z.object({
        role: z.enum(["SOLD", "BOUGHT"]),
        phases: z.array(phase).max(10).optional(),
        q: z.string().trim().max(50).optional(),
        cursor: id.nullish(),
        limit: z.number().int().min(10).max(200).default(50),
      }),
    )
    .query(({ ctx, input }) => listExchangeLinks(ctx.db, input)),

  outbox: deskProcedure
    .input(
      z.object({
        channel: z.enum(EXCHANGE_CHANNELS).optional(),
        status: z.enum(["PENDING", "DELIVERED", "FAILED"]).optional(),
        orderId: id.optional(),
        cursor: id.nullish(),
        limit: z.number().int().min(10).max(200).default(50),
      }),
    )
    .query(({ ctx, input }) => listExchangeOutbox(ctx.db, input)),

  message: deskProcedure.input(z.object({ id })).query(({ ctx, input }) => exchangeOutboxMessage(ctx.db, input.id)),

  inbound: deskProcedure
    .input(z.object({ path: z.string().trim().max(50).optional(), cursor: z.number().int().min(0).nullish(), limit: z.number().int().min(10).max(200).default(50) }))
    .query(({ ctx, input }) => listInbound(ctx.db, input)),

  sellable: dispatcherProcedure
    .input(z.object({ q: z.string().trim().max(50).optional(), limit: z.number().int().min(1).max(100).default(30) }))
    .query(({ ctx, input }) => sellableOrders(ctx.db, input)),

  /** Sells a free order of ours on the exchange (the exchange's sellOrder). */
  sell: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ orderId: id }))
    .mutation(({ ctx, input }) => sellToExchange(ctx.db, actorOf(ctx.user), input.orderId)),

  /** Gives an offer received from the exchange to one of our drivers (the exchange's takeOffer). */
  take: dispatcherProcedure
    .meta({ entity: "order" })
    .input(z.object({ exchangeOrderId: z.string().trim().min(1).max(50), driverId: id, arrivalMinutes: z.number().int().min(0).max(600).optional() }))
    .mutation(({ ctx, input }) => takeExchangeOffer(ctx.db, actorOf(ctx.user), input)),

  /** Sends a pending or failed message again now. */
  retry: roleProcedure("EXCHANGE_OPERATOR")
    .meta({ entity: "outboxMessage" })
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => retryExchangeMessage(ctx.db, input.id)),
});
