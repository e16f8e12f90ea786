// Orders: create (address form and token form), information, cancel, status.
import { z } from "zod";
import { defineOperation, keyWrite, type DispatchContext } from "../define";
import { p } from "../params";
import { ValidationError } from "../../errors";
import { createOrder, createOrderFromToken } from "../../orders/create-order";
import { moveOrder } from "../../orders/move-order";
import { orderInformation, orderStatusById, orderStatusByUuid } from "../../orders/read-order";
import { STATE_TITLES, STATUS_NAMES, stateOfCode, codeOf, isOrderState, statusNameOf } from "../../orders/states";
import { roublesToKopecks } from "../../balances/money";
import type { Actor } from "../../actor";
import { trackingUrlForUuid } from "../../tracking/link";
import { parseExtras } from "../extras";
import { requirePair } from "../pairs";
import { MAX_PRICE_TOKEN_LENGTH } from "../../pricing/token";

const actorOf = (ctx: DispatchContext): Actor => ({ type: "API_KEY", id: ctx.apiKey ? String(ctx.apiKey.id) : null });

// A coordinate as a number or a numeric string; an empty string is absent
// (never 0, which z.coerce made of it: a point off the coast of Africa).
const coordinate = (limit: number) =>
  z.union([
    z.number(),
    z.string().trim().length(0).transform(() => undefined),
    z.string().trim().regex(/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/).transform((t) => Number(t.replace(",", "."))),
  ]).refine((n) => n === undefined || Math.abs(n) <= limit);

const orderWayPoint = z
  .object({
    street: z.string().min(1).max(200),
    house: z.string().max(50).nullish(),
    lat: coordinate(90).nullish(),
    lon: coordinate(180).nullish(),
  })
  // one coordinate of the two would be dropped: both or neither
  .refine((w) => (w.lat == null) === (w.lon == null));

const orderWayPoints = z.array(orderWayPoint).max(20);

function parseOrderWayPoints(value: unknown) {
  const parsed = orderWayPoints.safeParse(value);
  if (!parsed.success) throw new ValidationError("BAD_PARAMETER", { parameter: "way_points", expected: "a JSON array of {street, house, lat, lon}" });
  return parsed.data.map((w) => ({ street: w.street, house: w.house ?? undefined, lat: w.lat ?? undefined, lon: w.lon ?? undefined }));
}


const createInput = z.object({
  // never shorter than the longest token the estimate issues
  token: p.string(MAX_PRICE_TOKEN_LENGTH).optional().describe("Token form: the token of a price estimate (GET /api/order/pre_cost); the order gets the estimate's addresses, phone, time and exact amount. Send it in the form body (it may be longer than a URL allows)"),
  phone: p.phone().optional().describe("The passenger's phone, any country (numbers without a country code are read in the instance's DEFAULT_COUNTRY). Address form: required; token form: the estimate's phone when absent"),
  street: p.string(200).optional().describe("Address form (required there): the pickup street with its prefix, or a public place").meta({ examples: ["ул. Ленина"] }),
  house: p.string(50).optional().describe("The pickup house with building and letter; not needed for a public place").meta({ examples: ["2", "12к1"] }),
  appartment: p.string(50).optional().describe("The pickup apartment or office (the reference's spelling)"),
  // the reference's spelling is appartment; the address point's is apartment
  apartment: p.string(50).optional().describe("The same as appartment (the address point's spelling)"),
  entrance: p.string(50).optional().describe("The entrance, or a clarification of the pickup place"),
  dst: p.string(500).optional().describe("The destination in one line of text"),
  comment: p.string(2000).optional().describe("A comment for the dispatcher and the driver (several lines allowed)"),
  region_id: p.natural().optional().describe("The pickup region (GET /api/regions); by default the region of the pickup point"),
  lat: p.latitude().optional().describe("The pickup's latitude, degrees (WGS 84); with lon, or neither").meta({ examples: [55.7558] }),
  lon: p.longitude().optional().describe("The pickup's longitude, degrees (WGS 84); with lat, or neither").meta({ examples: [37.6173] }),
  moderation_required: p.yesNo().optional().describe("yes (default): the order waits for a dispatcher (status 80); no: it goes to the free orders (9), to driver_id (1) or becomes an advance order (50)"),
  service_id: p.natural().optional().describe("The service (GET /api/services); by default the first of the pickup's city. Token form: must be the estimate's"),
  driver_id: p.string(50).optional().describe("Send the order straight to this driver: the call sign (as order information returns it), or failing that the internal id").meta({ examples: ["101"] }),
  amount: p.float(0, 10_000_000).optional().describe("The order's price in roubles (decimals allowed); by default priced by the service's rate").meta({ examples: [450] }),
  pre_order_time: p.time().optional().describe("An advance order's time on the clock of the order's city (local time), or ISO 8601 with an offset (an exact instant). Must be in the future; a time that cannot be read is refused, never ignored. Token form: only the estimate's own time"),
  /** 1.4.4: the order's time, a datetime or "HH:MM" (pre_order_time wins when both are sent) */
  time: p.time({ clockOnly: true }).optional().describe("1.4.4: the order's time like pre_order_time (which wins when both are sent), or HH:MM alone: the next such time on the city's clock"),
  need_notify: p.yesNo().optional().describe("yes (default): the passenger gets an SMS when a driver confirms and when the car waits"),
  dst_street: p.string(200).optional().describe("The destination street with its prefix, or a public place"),
  dst_house: p.string(50).optional().describe("The destination house (with dst_street, or with dst_lat/dst_lon)"),
  dst_lat: p.latitude().optional().describe("The destination's latitude, degrees; with dst_lon, or neither"),
  dst_lon: p.longitude().optional().describe("The destination's longitude, degrees; with dst_lat, or neither"),
  way_points: p.json().optional().describe("Stops between the pickup and the destination: a JSON array of {street, house, lat, lon} (street required; lat and lon together)").meta({ examples: ['[{"street":"ул. Мира","house":"1"}]'] }),
  extras: p.string(500).optional().describe("Extra options (GET /api/extras) as \"id*count,id\" (count 1 when omitted); {\"3\": 1} and [3, 7] are read too. Token form: must be the estimate's").meta({ examples: ["3*1,7*2"] }),
  name: p.string(200).optional().describe("The passenger's name"),
  customer_id: p.natural().optional().describe("The customer (counterparty) who pays"),
});

export const createOrderOperation = defineOperation({
  method: "POST",
  path: "order",
  summary: "Create an order from address fields, or from a price token (token form)",
  auth: true,
  idempotent: true,
  errors: ["NOT_FOUND", "BLACKLISTED", "TOKEN_INVALID", "TOKEN_EXPIRED", "TOKEN_USED", "ADDRESS_NOT_FOUND", "NO_RATE", "CONFLICT"],
  forms: [
    { title: "Address form", required: ["phone", "street"], fields: Object.keys(createInput.shape).filter((name) => name !== "token") },
    { title: "Token form", required: ["token"], fields: ["token", "phone", "comment", "moderation_required", "need_notify", "driver_id", "service_id", "extras", "pre_order_time", "time", "name", "customer_id"] },
  ],
  input: createInput,
  output: z.object({
    uuid: z.string().describe("The order's identifier in every later call").meta({ format: "uuid" }),
    message: z.string().describe("A readable note: accepted, or waiting for moderation (in the configured language)"),
  }),
  handle: async (input, ctx) => {
    const reply = (uuid: string, state: string) => {
      const onModeration = state === "ON_MODERATION";
      const message = ctx.language === "en"
        ? onModeration ? "Order accepted and waiting for moderation" : "Order accepted"
        : onModeration ? "Заказ принят и ожидает модерации" : "Заказ принят";
      return { uuid, message };
    };
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
      idempotency: keyWrite(ctx, (created: { uuid: string; state: string }) => reply(created.uuid, created.state)),
    };
    const extras = input.extras !== undefined ? parseExtras(input.extras) : undefined;
    const preOrderAt = input.pre_order_time ? { time: input.pre_order_time, parameter: "pre_order_time" } : input.time ? { time: input.time, parameter: "time" } : undefined;
    const created = input.token
      ? await createOrderFromToken(ctx.db, { ...common, token: input.token, phone: input.phone, serviceId: input.service_id, extras, preOrderAt }, actorOf(ctx))
      : await (async () => {
          if (!input.phone) throw new ValidationError("MISSING_PARAMETER", { parameter: "phone" });
          if (!input.street) throw new ValidationError("MISSING_PARAMETER", { parameter: "street" });
          requirePair(input, "lat", "lon");
          requirePair(input, "dst_lat", "dst_lon");
          // a destination house with neither street nor point would be dropped
          if (input.dst_house !== undefined && input.dst_street === undefined && input.dst_lat === undefined) {
            throw new ValidationError("MISSING_PARAMETER", { parameter: "dst_street" });
          }
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
              preOrderAt,
              extras,
            },
            actorOf(ctx),
          );
        })();
    if (created.replayed) ctx.replyHeaders["idempotent-replayed"] = "true";
    return reply(created.uuid, created.state);
  },
});

export const orderInfoOperation = defineOperation({
  method: "GET",
  path: "order",
  summary: "Order information",
  auth: true,
  errors: ["NOT_FOUND"],
  input: z.object({ uuid: p.uuid().describe("The order's uuid (from creation)") }),
  output: z.object({
    uuid: z.string().describe("The order's identifier").meta({ format: "uuid" }),
    status: z.number().int().describe("The status code (see the statuses table)").meta({ examples: [80] }),
    name: z.string().describe("Our identifier of the state, e.g. ON_MODERATION"),
    message: z.string().describe("The state's readable title, in the configured language"),
    driver_id: z.string().nullable().describe("The driver's call sign; null before a driver has the order"),
    start_time: z.string().nullable().describe("When the trip starts (an advance order: its time), YYYY-MM-DD HH:MM:SS on the city's clock, without an offset (the reference's form)").meta({ examples: ["2030-01-15 10:00:00"] }),
    start_time_iso: z.string().nullable().describe("Ours: the same instant as start_time in ISO 8601 with the city's offset").meta({ examples: ["2030-01-15T10:00:00+03:00"] }),
    pre_order_time_iso: z.string().nullable().describe("Ours: an advance order's time as asked for, ISO 8601 with the city's offset; null for an immediate order").meta({ examples: ["2030-01-15T10:00:00+03:00"] }),
    remaining_time: z.number().int().nullable().describe("Minutes until the car arrives; null when unknown"),
    amount: z.number().nullable().describe("The price in roubles; null when not priced"),
    rate_id: z.number().int().nullable().describe("The rate it was priced by"),
    car_brand: z.string().describe("The car's make (empty before a driver)"),
    car_model: z.string().describe("The car's model"),
    car_color: z.string().describe("The car's colour"),
    car_number: z.string().describe("The car's registration number"),
    firstname: z.string().describe("The driver's first name"),
    phone: z.string().describe("The driver's phone, international with the plus"),
    tracking_url: z.string().describe("Ours: the passenger's tracking link (docs/tracking.md): the car on a map, cancelling, the rating; it stops working some hours after the order is final").meta({ examples: ["https://taxi.example.com/t/q4Xz0b9YwWm3kH2pLs8VrA"] }),
  }),
  handle: async (input, ctx) => {
    const info = await orderInformation(ctx.db, input.uuid.toLowerCase(), ctx.language);
    return { ...info, tracking_url: trackingUrlForUuid(info.uuid) };
  },
});

export const cancelOrderOperation = defineOperation({
  method: "POST",
  path: "cancel_order",
  summary: "Cancel an order (the client refused: status 95)",
  auth: true,
  errors: ["NOT_FOUND", "FORBIDDEN_MOVE", "CONFLICT"],
  input: z.object({ uuid: p.uuid().describe("The order's uuid"), reason: p.string(500).optional().describe("Why, for the order's history") }),
  output: z.object({ message: z.string().describe("A readable note, in the configured language") }),
  handle: async (input, ctx) => {
    await moveOrder(ctx.db, { uuid: input.uuid.toLowerCase(), to: "DONE_CANCELLED", actor: actorOf(ctx), reason: input.reason ?? "cancelled through the API" });
    return { message: ctx.language === "en" ? "Order cancelled" : "Заказ отменён" };
  },
});

/** `name` is the original's Russian name of the status; `state` our identifier of it. */
const statusReply = z.object({
  code: z.number().int().describe("The status code").meta({ examples: [10] }),
  name: z.string().describe("The original product's Russian name of the status, whatever the language").meta({ examples: ["Сообщили время подъезда"] }),
  state: z.string().describe("Our identifier of the state").meta({ examples: ["CONFIRMED_CLIENT_NOTIFIED"] }),
});

export const setStatusOperation = defineOperation({
  method: "POST",
  path: "order/status",
  summary: "Set an order's status code (only moves the state machine allows)",
  auth: true,
  errors: ["NOT_FOUND", "FORBIDDEN_MOVE", "CONFLICT"],
  input: z.object({
    uuid: p.uuid().describe("The order's uuid"),
    code: p.integer().refine((n) => n >= 0, "status code").describe("The status code to move to; only moves the state machine allows (95: the client refused; 100 only after the trip (4, 87, 89) of a driver the order holds, such as the one named with driver_id at creation: moving an order to 1, 2 or 4 names no driver)"),
    check: p.yesNo().optional().describe("yes: answer the status as stored after the move"),
  }),
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
  errors: ["NOT_FOUND"],
  input: z.object({ uuid: p.uuid().describe("The order's uuid") }),
  output: statusReply.extend({ title: z.string().describe("The state's readable title, in the configured language") }),
  handle: async (input, ctx) => {
    const order = await orderStatusByUuid(ctx.db, input.uuid);
    if (!order) throw new ValidationError("NOT_FOUND", { what: "Order", id: input.uuid });
    return { code: order.statusCode, name: statusNameOf(order.state), state: order.state, title: isOrderState(order.state) ? STATE_TITLES[order.state][ctx.language] : order.state };
  },
});
