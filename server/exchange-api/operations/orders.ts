// The order operations of the exchange API.
import { z } from "zod";
import {
  completionSchema,
  exchangeId,
  executorSchema,
  idText,
  registrationAttributes,
  text,
  updateAttributes,
} from "../../exchange/attributes";
import { missing } from "../../exchange/errors";
import { cancelOrder, revokeOrder } from "../../exchange/market/cancel";
import { completeOrder } from "../../exchange/market/complete";
import { getOrder, getOrders } from "../../exchange/market/get";
import { registerOrder } from "../../exchange/market/register";
import { rejectDriver } from "../../exchange/market/reject-driver";
import { takeOrder } from "../../exchange/market/take";
import { updateOrder } from "../../exchange/market/update";
import type { ExchangeCaller } from "../../exchange/sessions";
import { defineExchangeOperation, type ExchangeContext } from "../define";

function caller(ctx: ExchangeContext): ExchangeCaller {
  if (!ctx.caller) throw new Error("an authenticated operation ran without a caller");
  return ctx.caller;
}

const orderResource = z.object({ type: z.literal("order"), id: z.string(), attributes: z.record(z.string(), z.unknown()) });
const integerId = z.object({ data: z.object({ id: z.number().int() }) });

export const register = defineExchangeOperation({
  method: "POST",
  path: "order",
  summary: "Put an order on the exchange (the start coordinates are required)",
  auth: true,
  source: "data",
  input: z.object({ id: idText, type: z.string("string").optional(), attributes: registrationAttributes }),
  output: z.object({ data: z.object({ id: z.string(), orderId: z.string() }) }),
  handle: async (input, ctx) => {
    const result = await registerOrder(ctx.db, caller(ctx), input);
    return { data: { id: result.id, orderId: result.orderId } };
  },
});

export const get = defineExchangeOperation({
  method: "POST",
  path: "order/get",
  summary: "One order (data.id) or several (data.orders)",
  auth: true,
  source: "data",
  input: z.object({ id: exchangeId.optional(), orders: z.array(exchangeId, "array of order ids").max(100, "at most 100 ids").optional() }),
  output: z.object({ data: z.union([orderResource, z.array(orderResource)]) }),
  handle: async (input, ctx) => {
    if (input.orders !== undefined) return { data: await getOrders(ctx.db, caller(ctx), input.orders) };
    if (input.id === undefined) throw missing("data.id");
    return { data: await getOrder(ctx.db, caller(ctx), input.id) };
  },
});

export const cancel = defineExchangeOperation({
  method: "POST",
  path: "order/cancel",
  summary: "Cancel an order with a status (19, or 91 to 99; default 95)",
  auth: true,
  source: "data",
  input: z.object({ id: exchangeId, status: z.number("integer status code").int("integer status code").optional(), reason: text.optional() }),
  output: integerId,
  handle: async (input, ctx) => ({ data: await cancelOrder(ctx.db, caller(ctx), input) }),
});

export const complete = defineExchangeOperation({
  method: "POST",
  path: "order/complete",
  summary: "The executor completes the order; the seller is credited",
  auth: true,
  source: "data",
  input: z.object({ id: exchangeId, attributes: completionSchema.optional() }),
  output: z.object({ data: z.object({ id: z.string() }) }),
  handle: async (input, ctx) => ({ data: await completeOrder(ctx.db, caller(ctx), { id: input.id, completion: input.attributes ?? {} }) }),
});

export const revoke = defineExchangeOperation({
  method: "POST",
  path: "order/revoke",
  summary: "The seller withdraws the order from the exchange",
  auth: true,
  source: "data",
  input: z.object({ id: exchangeId }),
  output: integerId,
  handle: async (input, ctx) => ({ data: await revokeOrder(ctx.db, caller(ctx), input) }),
});

export const rejectdriver = defineExchangeOperation({
  method: "POST",
  path: "order/rejectdriver",
  summary: "The executor gives the order back, or the seller removes the driver",
  auth: true,
  source: "data",
  input: z.object({ id: exchangeId, reason: text.optional() }),
  output: integerId,
  handle: async (input, ctx) => ({ data: await rejectDriver(ctx.db, caller(ctx), input) }),
});

export const take = defineExchangeOperation({
  method: "POST",
  path: "order/take",
  summary: "Buy an offered order with a driver (exactly one of simultaneous takers wins); the reply carries the client's contact",
  auth: true,
  source: "data",
  input: z.object({
    id: exchangeId,
    orderId: idText,
    attributes: z.object(
      {
        // Required: `taken` carries it to the seller as an Integer.
        time: z.object(
          { arrival: z.number("integer (minutes)").int("integer (minutes)").min(0, "minutes, 0 or more").max(1440, "at most 1440 minutes") },
          "object",
        ),
        executor: executorSchema,
      },
      "object",
    ),
  }),
  output: z.object({
    data: z.object({ id: z.number().int(), attributes: z.object({ client: z.object({ phone: z.string(), name: z.string() }) }) }),
  }),
  handle: async (input, ctx) => ({
    data: await takeOrder(ctx.db, caller(ctx), {
      id: input.id,
      orderId: input.orderId,
      arrival: input.attributes.time?.arrival,
      executor: input.attributes.executor,
    }),
  }),
});

export const update = defineExchangeOperation({
  method: "POST",
  path: "order/update",
  summary: "Change the order's status and fields",
  auth: true,
  source: "data",
  input: z.object({ id: exchangeId, attributes: updateAttributes }),
  output: z.object({ order: orderResource, data: orderResource }),
  handle: async (input, ctx) => {
    const order = await updateOrder(ctx.db, caller(ctx), input);
    return { order, data: order };
  },
});
