// Orders: create (address form and token form), information, cancel, status.
import { z } from "zod";
import { defineOperation, type DispatchContext } from "../define";
import { p } from "../params";
import { ValidationError } from "../../errors";
import { createOrder, createOrderFromToken } from "../../orders/create-order";
import { moveOrder } from "../../orders/move-order";
import { orderInformation, orderStatusById, orderStatusByUuid } from "../../orders/read-order";
import { cityTimeZone } from "../../reference/lists";
import { parseLocal, parseOrderTime } from "../../orders/time";
import { STATE_TITLES, STATUS_NAMES, stateOfCode, codeOf, isOrderState, statusNameOf } from "../../orders/states";
import { roublesToKopecks } from "../../balances/money";
import type { Actor } from "../../actor";
import { parseExtras } from "../extras";
import { MAX_PRICE_TOKEN_LENGTH } from "../../pricing/token";

const actorOf = (ctx: DispatchContext): Actor => ({ type: "API_KEY", id: ctx.apiKey ? String(ctx.apiKey.id) : null });

const orderWayPoint = z.object({
  street: z.string().min(1).max(200),
  house: z.string().max(50).nullish(),
  lat: z.coerce.number().min(-90).max(90).nullish(),
  lon: z.coerce.number().min(-180).max(180).nullish(),
});

const orderWayPoints = z.array(orderWayPoint).max(20);

function parseOrderWayPoints(value: unknown) {
  const parsed = orderWayPoints.safeParse(value);
  if (!parsed.success) throw new ValidationError("BAD_PARAMETER", { parameter: "way_points", expected: "a JSON array of {street, house, lat, lon}" });
  return parsed.data.map((w) => ({ street: w.street, house: w.house ?? undefined, lat: w.lat ?? undefined, lon: w.lon ?? undefined }));
}


const createInput = z.object({
  // never shorter than the longest token the estimate issues
  token: p.string(MAX_PRICE_TOKEN_LENGTH).optional(),
  phone: p.phone().optional(),
  street: p.string(200).optional(),
  house: p.string(50).optional(),
  appartment: p.string(50).optional(),
  // the reference's spelling is appartment; the address point's is apartment
  apartment: p.string(50).optional(),
  entrance: p.string(50).optional(),
  dst: p.string(500).optional(),
  comment: p.string(2000).optional(),
  region_id: p.natural().optional(),
  lat: p.latitude().optional(),
  lon: p.longitude().optional(),
  moderation_required: p.yesNo().optional(),
  service_id: p.natural().optional(),
  driver_id: p.string(50).optional(),
  amount: p.float(0, 10_000_000).optional(),
  pre_order_time: p.datetime().optional(),
  /** 1.4.4: the order's time, "YYYY-MM-DD HH:MM:SS" or "HH:MM" (pre_order_time wins when both are sent) */
  time: z.string().trim().regex(/^(\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(:\d{2})?$/, "datetime YYYY-MM-DD HH:MM:SS or HH:MM").optional(),
  need_notify: p.yesNo().optional(),
  dst_street: p.string(200).optional(),
  dst_house: p.string(50).optional(),
  dst_lat: p.latitude().optional(),
  dst_lon: p.longitude().optional(),
  way_points: p.json().optional(),
  extras: p.string(500).optional(),
  name: p.string(200).optional(),
  customer_id: p.natural().optional(),
});

export const createOrderOperation = defineOperation({
  method: "POST",
  path: "order",
  summary: "Create an order from address fields, or from a price token (token form)",
  auth: true,
  input: createInput,
  output: z.object({ uuid: z.string(), message: z.string() }),
  handle: async (input, ctx) => {
    const common = {
      source: "API" as const,
      apiKeyId: ctx.apiKey?.id,
      callbackTemplate: ctx.apiKey?.callbackTemplate ?? null,
      comment: input.comment,
      moderationRequired: input.moderation_required,
      needNotify: input.need_notify,
      driver: input.driver_id,
      clientName: input.name,
      customerId: input.customer_id,
    };
    const extras = input.extras !== undefined ? parseExtras(input.extras) : undefined;
    const created = input.token
      ? await createOrderFromToken(ctx.db, { ...common, token: input.token, phone: input.phone, serviceId: input.service_id, extras }, actorOf(ctx))
      : await (async () => {
          if (!input.phone) throw new ValidationError("MISSING_PARAMETER", { parameter: "phone" });
          if (!input.street) throw new ValidationError("MISSING_PARAMETER", { parameter: "street" });
          const timeZone = input.pre_order_time || input.time ? await cityTimeZone(ctx.db, input.service_id) : "UTC";
          const preOrderTime = input.pre_order_time
            ? parseLocal(input.pre_order_time, timeZone)
            : input.time
              ? parseOrderTime(input.time, timeZone)
              : undefined;
          if (input.time && !input.pre_order_time && !preOrderTime) throw new ValidationError("BAD_PARAMETER", { parameter: "time", expected: "datetime YYYY-MM-DD HH:MM:SS or HH:MM" });
          return createOrder(
            ctx.db,
            {
              ...common,
              phone: input.phone,
              pickup: { street: input.street, house: input.house, lat: input.lat, lon: input.lon, apartment: input.appartment ?? input.apartment, entrance: input.entrance, regionId: input.region_id },
              destinationLine: input.dst,
              destination: input.dst_street || input.dst_lat !== undefined ? { street: input.dst_street, house: input.dst_house, lat: input.dst_lat, lon: input.dst_lon } : undefined,
              wayPoints: input.way_points !== undefined ? parseOrderWayPoints(input.way_points) : undefined,
              serviceId: input.service_id,
              amount: input.amount !== undefined ? roublesToKopecks(input.amount) : undefined,
              preOrderTime,
              extras,
            },
            actorOf(ctx),
          );
        })();
    const onModeration = created.state === "ON_MODERATION";
    const message = ctx.language === "en"
      ? onModeration ? "Order accepted and waiting for moderation" : "Order accepted"
      : onModeration ? "Заказ принят и ожидает модерации" : "Заказ принят";
    return { uuid: created.uuid, message };
  },
});

export const orderInfoOperation = defineOperation({
  method: "GET",
  path: "order",
  summary: "Order information",
  auth: true,
  input: z.object({ uuid: p.uuid() }),
  output: z.object({
    uuid: z.string(),
    status: z.number().int(),
    name: z.string(),
    message: z.string(),
    driver_id: z.string().nullable(),
    start_time: z.string().nullable(),
    remaining_time: z.number().int().nullable(),
    amount: z.number().nullable(),
    rate_id: z.number().int().nullable(),
    car_brand: z.string(),
    car_model: z.string(),
    car_color: z.string(),
    car_number: z.string(),
    firstname: z.string(),
    phone: z.string(),
  }),
  handle: async (input, ctx) => orderInformation(ctx.db, input.uuid.toLowerCase(), ctx.language),
});

export const cancelOrderOperation = defineOperation({
  method: "POST",
  path: "cancel_order",
  summary: "Cancel an order (the client refused: status 95)",
  auth: true,
  input: z.object({ uuid: p.uuid(), reason: p.string(500).optional() }),
  output: z.object({ message: z.string() }),
  handle: async (input, ctx) => {
    await moveOrder(ctx.db, { uuid: input.uuid.toLowerCase(), to: "DONE_CANCELLED", actor: actorOf(ctx), reason: input.reason ?? "cancelled through the API" });
    return { message: ctx.language === "en" ? "Order cancelled" : "Заказ отменён" };
  },
});

/** `name` is the original's Russian name of the status; `state` our identifier of it. */
const statusReply = z.object({ code: z.number().int(), name: z.string(), state: z.string() });

export const setStatusOperation = defineOperation({
  method: "POST",
  path: "order/status",
  summary: "Set an order's status code (only moves the state machine allows)",
  auth: true,
  input: z.object({ uuid: p.uuid(), code: p.integer().refine((n) => n >= 0, "status code"), check: p.yesNo().optional() }),
  output: statusReply,
  handle: async (input, ctx) => {
    const to = stateOfCode(input.code);
    if (!to) throw new ValidationError("BAD_PARAMETER", { parameter: "code", expected: "a known status code" });
    const moved = await moveOrder(ctx.db, { uuid: input.uuid.toLowerCase(), to, actor: actorOf(ctx), reason: "set through the API" });
    if (input.check) {
      const stored = await orderStatusById(ctx.db, moved.id);
      return { code: stored.statusCode, name: statusNameOf(stored.state), state: stored.state };
    }
    return { code: codeOf(moved.to), name: STATUS_NAMES[moved.to], state: moved.to };
  },
});

export const getStatusOperation = defineOperation({
  method: "GET",
  path: "order/status",
  summary: "An order's status code and name",
  auth: true,
  input: z.object({ uuid: p.uuid() }),
  output: statusReply.extend({ title: z.string() }),
  handle: async (input, ctx) => {
    const order = await orderStatusByUuid(ctx.db, input.uuid);
    if (!order) throw new ValidationError("NOT_FOUND", { what: "Order", id: input.uuid });
    return { code: order.statusCode, name: statusNameOf(order.state), state: order.state, title: isOrderState(order.state) ? STATE_TITLES[order.state][ctx.language] : order.state };
  },
});
