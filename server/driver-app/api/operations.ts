// Every operation of the driver app interface. See docs/driver-app.md.
import { z } from "zod";
import { issueDriverAppKey, revokeDriverAppKey, type DriverIdentity } from "../keys";
import { cityMap } from "../map";
import { navigate } from "../../routing/navigate";
import { DRIVER_SETTABLE_TARGETS } from "../../orders/states";
import { joinQueue, leaveQueue, queuePlaceOf } from "../../dispatch/queue";
import { endBreak, startBreak } from "../break";
import { driverProfile, myOrders } from "../profile";
import { listFreeOrders } from "../free-orders";
import { endShift, startShift } from "../shift";
import { reportPositions } from "../positions";
import { acceptOrderReply, completeOrderReply, refuseOrderReply, setStatusReply } from "../order-commands";
import { offerStream, waitForOffer } from "../offers";
import { dispatchLivenessSchema } from "../liveness-view";
import { hintFor } from "../../dispatch/hint-service";
import { ledgerOperation } from "./ledger-operation";
import { answerDispatch, driverThread, markReadByDriver } from "../../messages/driver-thread";
import { MAX_MESSAGE_LENGTH } from "../../messages/message-view";
import { DRIVER_APP_VERSION, defineDriverAppOperation, integerIn, numberIn, uuidParam, yesNoParam, type DriverAppContext } from "./define";

function me(ctx: DriverAppContext): DriverIdentity {
  if (!ctx.driver) throw new Error("a driver operation ran without a driver");
  return ctx.driver;
}

const nullableNumber = z.number().nullable();
const fareBreakdown = z.object({
  boarding: z.number(),
  distance: z.number(),
  time: z.number(),
  waiting: z.number(),
  extras: z.number(),
  minimum_added: z.number(),
  rounding: z.number(),
});
const orderView = z.object({
  id: z.number().int(),
  uuid: z.string(),
  version: z.number().int(),
  state: z.string(),
  status_code: z.number().int(),
  service_id: z.number().int(),
  pickup: z.object({ street: z.string(), house: z.string(), entrance: z.string(), lat: nullableNumber, lon: nullableNumber }),
  destination: z.object({ line: z.string(), street: z.string(), house: z.string(), lat: nullableNumber, lon: nullableNumber }).nullable(),
  amount: nullableNumber,
  route_km: nullableNumber,
  route_minutes: nullableNumber,
  pre_order_time: z.string().nullable(),
  arrival_at: z.string().nullable(),
  comment: z.string(),
  client_name: z.string(),
  phone: z.string(),
  created_at: z.string(),
  rate_kind: z.enum(["FIXED", "METERED"]),
  meter: z
    .object({ distance_m: z.number().int(), trip_seconds: z.number().int(), waiting_seconds: z.number().int(), fare: z.number(), breakdown: fareBreakdown })
    .nullable(),
});
const orderReply = z.object({ order: orderView });

const position = {
  lat: numberIn(-90, 90),
  lon: numberIn(-180, 180),
  speed: numberIn(0, 400).optional(),
  bearing: numberIn(0, 360).optional(),
};
const positionOf = (p: { lat: number; lon: number; speed?: number; bearing?: number }) => ({ lat: p.lat, lon: p.lon, speed: p.speed ?? 0, bearing: p.bearing ?? 0 });
const callSign = z.string("call sign").min(1, "call sign").max(50, "call sign");
const state = z.enum(["OFFLINE", "FREE", "BUSY"]);

export const versionOperation = defineDriverAppOperation({
  method: "GET",
  path: "version",
  summary: "The interface's version",
  auth: "none",
  input: z.object({}),
  output: z.object({ version: z.string() }),
  handle: async () => ({ version: DRIVER_APP_VERSION }),
});

export const issueKeyOperation = defineDriverAppOperation({
  method: "POST",
  path: "keys",
  summary: "Issue a new app key for a driver (replaces the old one); the key is shown once",
  auth: "provisioning",
  input: z.object({ call_sign: callSign }),
  output: z.object({ driver_id: z.number().int(), call_sign: z.string(), app_key: z.string() }),
  handle: async (input, ctx) => {
    const issued = await issueDriverAppKey(ctx.db, input.call_sign);
    return { driver_id: issued.driverId, call_sign: issued.callSign, app_key: issued.key };
  },
});

export const revokeKeyOperation = defineDriverAppOperation({
  method: "POST",
  path: "keys/revoke",
  summary: "Revoke a driver's app key",
  auth: "provisioning",
  input: z.object({ call_sign: callSign }),
  output: z.object({ call_sign: z.string(), revoked: z.literal(true) }),
  handle: async (input, ctx) => {
    await revokeDriverAppKey(ctx.db, input.call_sign);
    return { call_sign: input.call_sign, revoked: true as const };
  },
});

export const meOperation = defineDriverAppOperation({
  method: "GET",
  path: "me",
  summary: "The driver: state, shift, balance, services, car, last position",
  auth: "driver",
  input: z.object({}),
  output: z.object({
    driver: z.object({
      id: z.number().int(),
      call_sign: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      state,
      on_shift: z.boolean(),
      on_break: z.boolean(),
      shift_id: z.number().int().nullable(),
      shift_started_at: z.string().nullable(),
      balance: z.number(),
      city_id: z.number().int(),
      service_ids: z.array(z.number().int()),
      services: z.array(z.object({ id: z.number().int(), name: z.string(), name_en: z.string() })),
      car: z.object({ brand: z.string(), model: z.string(), color: z.string(), reg_number: z.string(), car_class: z.number().int() }).nullable(),
      position: z.object({ lat: nullableNumber, lon: nullableNumber, speed: z.number(), bearing: z.number(), region_id: z.number().int().nullable(), at: z.string().nullable() }),
      dispatch: dispatchLivenessSchema,
    }),
  }),
  handle: async (_input, ctx) => ({ driver: await driverProfile(ctx.db, me(ctx)) }),
});

export const mapOperation = defineDriverAppOperation({
  method: "GET",
  path: "map",
  summary: "The driver's city: centre, bounds, regions, streets with house coordinates",
  auth: "driver",
  input: z.object({}),
  output: z.object({
    city: z.object({ id: z.number().int(), name: z.string(), name_en: z.string(), lat: z.number(), lon: z.number(), timezone: z.string() }),
    bounds: z.object({ min_lat: z.number(), max_lat: z.number(), min_lon: z.number(), max_lon: z.number() }).nullable(),
    regions: z.array(z.object({ id: z.number().int(), name: z.string(), polygon: z.array(z.tuple([z.number(), z.number()])) })),
    streets: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(["STREET", "PUBLIC_PLACE"]),
        lat: z.number(),
        lon: z.number(),
        houses: z.array(z.tuple([z.string(), z.number(), z.number()])),
      }),
    ),
  }),
  handle: async (_input, ctx) => cityMap(ctx.db, me(ctx).cityId),
});

export const routeOperation = defineDriverAppOperation({
  method: "GET",
  path: "route",
  summary: "The fastest route along the city's roads between two points (the straight line when one is off them, on_roads=no)",
  auth: "driver",
  input: z.object({ from_lat: numberIn(-90, 90), from_lon: numberIn(-180, 180), to_lat: numberIn(-90, 90), to_lon: numberIn(-180, 180) }),
  output: z.object({ on_roads: z.boolean(), metres: z.number().int(), seconds: z.number().int(), points: z.array(z.tuple([z.number(), z.number()])) }),
  handle: async (input, ctx) => {
    const route = await navigate(ctx.db, me(ctx).cityId, { lat: input.from_lat, lon: input.from_lon }, { lat: input.to_lat, lon: input.to_lon });
    return { on_roads: route.onRoads, metres: route.metres, seconds: route.seconds, points: route.points };
  },
});

export const startShiftOperation = defineDriverAppOperation({
  method: "POST",
  path: "shift/start",
  summary: "Go on shift (FREE, or BUSY with an order in progress); optionally with the position",
  auth: "driver",
  input: z.object({ lat: position.lat.optional(), lon: position.lon.optional(), speed: position.speed, bearing: position.bearing }),
  output: z.object({ shift_id: z.number().int(), started_at: z.string(), state, resumed: z.boolean() }),
  handle: async (input, ctx) =>
    startShift(ctx.db, me(ctx), input.lat !== undefined && input.lon !== undefined ? positionOf({ ...input, lat: input.lat, lon: input.lon }) : undefined),
});

export const endShiftOperation = defineDriverAppOperation({
  method: "POST",
  path: "shift/end",
  summary: "Go off shift (OFFLINE); refused while an order is in progress",
  auth: "driver",
  input: z.object({}),
  output: z.object({ state: z.literal("OFFLINE"), ended_at: z.string(), shifts_closed: z.number().int() }),
  handle: async (_input, ctx) => endShift(ctx.db, me(ctx)),
});

const fixTime = z.iso.datetime({ offset: true, message: "ISO 8601 time" }).transform((s) => new Date(s));
/** When the driver made a move (a replay after a connection loss): bounds in server/orders/move-time.ts. */
const moveTime = fixTime;
const positionsReply = z.object({ state, region_id: z.number().int().nullable(), accepted: z.number().int(), dropped: z.number().int() });

export const positionOperation = defineDriverAppOperation({
  method: "POST",
  path: "position",
  summary: "Report the position (lat, lon; speed km/h; bearing degrees; optional at, the fix's time); on shift only",
  auth: "driver",
  marksAppSeen: true,
  input: z.object({ ...position, at: fixTime.optional() }),
  output: positionsReply,
  handle: async (input, ctx) => {
    const reply = await reportPositions(ctx.db, me(ctx), [{ ...positionOf(input), at: input.at ?? new Date() }], new Date(), ctx.idle);
    return { ...reply, state: state.parse(reply.state) };
  },
});

/** A replayed fix: out-of-range coordinates are dropped (counted), not refused with the batch. */
const replayedFix = z.object({
  lat: numberIn(-1000, 1000),
  lon: numberIn(-1000, 1000),
  speed: position.speed,
  bearing: position.bearing,
  at: fixTime,
});

export const positionsOperation = defineDriverAppOperation({
  method: "POST",
  path: "positions",
  summary: "Report positions recorded offline, oldest first (at most 500, each with at): the newest becomes the position, those taken with the passenger aboard count in the taximeter",
  auth: "driver",
  input: z.object({ positions: z.array(replayedFix, "array of positions").min(1, "1 to 500 positions").max(500, "1 to 500 positions") }),
  output: positionsReply,
  handle: async (input, ctx) => {
    const reply = await reportPositions(
      ctx.db,
      me(ctx),
      input.positions.map((p) => ({ ...positionOf(p), at: p.at })),
    );
    return { ...reply, state: state.parse(reply.state) };
  },
});

export const offersOperation = defineDriverAppOperation({
  method: "GET",
  path: "offers",
  summary: "Free orders the driver may take by themselves (the radio's; services without automatic dispatch) nearby, nearest first (empty unless FREE)",
  auth: "driver",
  input: z.object({ radius_km: numberIn(0.1, 100).optional(), limit: integerIn(1, 100).optional(), advance: yesNoParam.optional() }),
  output: z.object({ state, offers: z.array(orderView.extend({ distance_km: z.number() })) }),
  handle: async (input, ctx) => {
    const found = await listFreeOrders(ctx.db, me(ctx), { radiusKm: input.radius_km ?? 5, limit: input.limit ?? 20, advance: input.advance ?? false });
    return { state: state.parse(found.state), offers: found.offers };
  },
});

export const ordersOperation = defineDriverAppOperation({
  method: "GET",
  path: "orders",
  summary: "The driver's orders that are not done (taken, sent by a dispatcher, attached advance orders)",
  auth: "driver",
  input: z.object({}),
  output: z.object({ orders: z.array(orderView) }),
  handle: async (_input, ctx) => ({ orders: await myOrders(ctx.db, me(ctx)) }),
});

export const acceptOperation = defineDriverAppOperation({
  method: "POST",
  path: "orders/accept",
  summary: "Accept the offer of an order (-> CONFIRMED, BOUND or PREORDER_ATTACHED), or take a free order (FREE -> SENT_TO_DRIVER -> CONFIRMED) or a free advance order (-> PREORDER_ATTACHED)",
  auth: "driver",
  input: z.object({ uuid: uuidParam, arrival_minutes: integerIn(0, 600).optional(), version: integerIn(0, 2_147_483_647).optional() }),
  output: orderReply,
  handle: async (input, ctx) => ({ order: await acceptOrderReply(ctx.db, me(ctx), { uuid: input.uuid, arrivalMinutes: input.arrival_minutes, version: input.version }) }),
});

export const rejectOperation = defineDriverAppOperation({
  method: "POST",
  path: "orders/reject",
  summary: "Refuse an offer (the next driver gets it), an advance order's confirmation, or give back an order of the driver's before the passenger is aboard",
  auth: "driver",
  input: z.object({ uuid: uuidParam, reason: z.string("text").max(500, "text of at most 500 characters").optional() }),
  output: orderReply,
  handle: async (input, ctx) => ({ order: await refuseOrderReply(ctx.db, me(ctx), { uuid: input.uuid, reason: input.reason }) }),
});

export const statusOperation = defineDriverAppOperation({
  method: "POST",
  path: "orders/status",
  summary: `Move an order of the driver's to ${DRIVER_SETTABLE_TARGETS.join(", ")} (the state machine decides)`,
  auth: "driver",
  input: z.object({
    uuid: uuidParam,
    status: z.enum(DRIVER_SETTABLE_TARGETS, `one of ${DRIVER_SETTABLE_TARGETS.join(", ")}`),
    arrival_minutes: integerIn(0, 600).optional(),
    version: integerIn(0, 2_147_483_647).optional(),
    reason: z.string("text").max(500, "text of at most 500 characters").optional(),
    at: moveTime.optional(),
  }),
  output: orderReply,
  handle: async (input, ctx) => ({
    order: await setStatusReply(ctx.db, me(ctx), {
      uuid: input.uuid,
      status: input.status,
      arrivalMinutes: input.arrival_minutes,
      version: input.version,
      reason: input.reason,
      at: input.at,
    }),
  }),
});

export const completeOperation = defineDriverAppOperation({
  method: "POST",
  path: "orders/complete",
  summary: "Complete an order of the driver's (DONE_SUCCESSFUL); the service's commission is debited once",
  auth: "driver",
  input: z.object({ uuid: uuidParam, at: moveTime.optional() }),
  output: z.object({ order: orderView, fare: nullableNumber, breakdown: fareBreakdown.nullable(), commission: z.number(), balance: z.number() }),
  handle: async (input, ctx) => completeOrderReply(ctx.db, me(ctx), { uuid: input.uuid, at: input.at }),
});

const offerView = z.object({
  offer_id: z.number().int(),
  kind: z.enum(["LIVE", "CHAIN", "ADVANCE"]),
  attempt: z.number().int(),
  deadline: z.string(),
  seconds_left: z.number().int(),
  arrival_minutes: z.number().int().nullable(),
  order: orderView,
});
const reasonParam = z.string("text").max(500, "text of at most 500 characters").optional();

export const offerOperation = defineDriverAppOperation({
  method: "GET",
  path: "offer",
  summary: "The offer addressed to the driver now (null if none); wait=N seconds (at most 15) waits for one (a long poll)",
  auth: "driver",
  input: z.object({ wait: integerIn(0, 15).optional() }),
  output: z.object({ offer: offerView.nullable() }),
  // The wait itself does no work: its admission place goes back meanwhile (ctx.idle).
  handle: async (input, ctx) => ({ offer: await waitForOffer(ctx.db, me(ctx), input.wait ?? 0, ctx.idle) }),
});

export const offerStreamOperation = defineDriverAppOperation({
  method: "GET",
  path: "offer/stream",
  summary:
    "Server-sent events: `event: offer` with {offer} whenever the offer addressed to the driver changes (null: none), `event: message` with {message} for dispatch's messages; each event's `id:` is the stream's message cursor: reconnect (after 5 minutes, or a lost connection) with after_message=<the last id> and no message written meanwhile is missed",
  auth: "driver",
  input: z.object({ after_message: integerIn(0, 2_147_483_647).optional() }),
  output: z.object({ offer: offerView.nullable() }),
  handle: async (_input, ctx) => ({ offer: await waitForOffer(ctx.db, me(ctx), 0) }),
  stream: (input, ctx) => offerStream(ctx.db, me(ctx), undefined, input.after_message),
});

export const offerAcceptOperation = defineDriverAppOperation({
  method: "POST",
  path: "offer/accept",
  summary: "Accept the offer of the order before its deadline (LIVE -> CONFIRMED, CHAIN -> BOUND, ADVANCE -> PREORDER_ATTACHED)",
  auth: "driver",
  input: z.object({ uuid: uuidParam, arrival_minutes: integerIn(0, 600).optional() }),
  output: orderReply,
  handle: async (input, ctx) => ({ order: await acceptOrderReply(ctx.db, me(ctx), { uuid: input.uuid, arrivalMinutes: input.arrival_minutes }) }),
});

export const offerRefuseOperation = defineDriverAppOperation({
  method: "POST",
  path: "offer/refuse",
  summary: "Refuse the offer of the order with a reason (the next candidate gets it; the driver is not offered it again)",
  auth: "driver",
  input: z.object({ uuid: uuidParam, reason: reasonParam }),
  output: orderReply,
  handle: async (input, ctx) => ({ order: await refuseOrderReply(ctx.db, me(ctx), { uuid: input.uuid, reason: input.reason }) }),
});

const messageView = z.object({ id: z.number().int(), from: z.enum(["DISPATCHER", "DRIVER"]), text: z.string(), at: z.string(), read: z.boolean() });

export const messagesOperation = defineDriverAppOperation({
  method: "GET",
  path: "messages",
  summary: "The driver's messages with dispatch (to them alone and to all of their service or region), oldest first; after=id gives only newer ones",
  auth: "driver",
  input: z.object({ after: integerIn(0, 2_147_483_647).optional() }),
  output: z.object({ messages: z.array(messageView) }),
  handle: async (input, ctx) => ({ messages: await driverThread(ctx.db, me(ctx).id, input.after) }),
});

export const sendMessageOperation = defineDriverAppOperation({
  method: "POST",
  path: "messages",
  summary: "Write to dispatch (text of 1 to 1000 characters)",
  auth: "driver",
  input: z.object({ text: z.string("text").max(MAX_MESSAGE_LENGTH, "text of 1 to 1000 characters") }),
  output: z.object({ message: messageView }),
  handle: async (input, ctx) => ({ message: await answerDispatch(ctx.db, me(ctx), input.text) }),
});

export const readMessagesOperation = defineDriverAppOperation({
  method: "POST",
  path: "messages/read",
  summary: "Mark dispatch's messages up to the id read",
  auth: "driver",
  input: z.object({ up_to: integerIn(0, 2_147_483_647) }),
  output: z.object({ read: z.number().int() }),
  handle: async (input, ctx) => ({ read: await markReadByDriver(ctx.db, me(ctx).id, input.up_to) }),
});

const queuePlace = z.object({ region_id: z.number().int(), position: z.number().int(), length: z.number().int(), joined_at: z.string() });

export const queueOperation = defineDriverAppOperation({
  method: "GET",
  path: "queue",
  summary: "The driver's place in the parking queue of the region (position 1 = head), or null",
  auth: "driver",
  input: z.object({}),
  output: z.object({ queue: queuePlace.nullable() }),
  handle: async (_input, ctx) => ({ queue: await queuePlaceOf(ctx.db, me(ctx).id) }),
});

export const queueJoinOperation = defineDriverAppOperation({
  method: "POST",
  path: "queue/join",
  summary: "Join the parking queue of the region the driver stands in (FREE only; staying keeps the place)",
  auth: "driver",
  input: z.object({}),
  output: z.object({ queue: queuePlace }),
  handle: async (_input, ctx) => ({ queue: await joinQueue(ctx.db, me(ctx).id) }),
});

export const queueLeaveOperation = defineDriverAppOperation({
  method: "POST",
  path: "queue/leave",
  summary: "Leave the parking queue",
  auth: "driver",
  input: z.object({}),
  output: z.object({ left: z.boolean() }),
  handle: async (_input, ctx) => ({ left: await leaveQueue(ctx.db, me(ctx).id) }),
});

const breakState = z.object({ on_break: z.boolean(), since: z.string().nullable() });

export const breakStartOperation = defineDriverAppOperation({
  method: "POST",
  path: "break/start",
  summary: "Take a break: on shift but offered nothing, out of the parking queue (FREE only)",
  auth: "driver",
  input: z.object({}),
  output: breakState,
  handle: async (_input, ctx) => startBreak(ctx.db, me(ctx).id),
});

export const breakEndOperation = defineDriverAppOperation({
  method: "POST",
  path: "break/end",
  summary: "End the break: offered orders again",
  auth: "driver",
  input: z.object({}),
  output: breakState,
  handle: async (_input, ctx) => endBreak(ctx.db, me(ctx).id),
});

const regionHint = z.object({
  /** The target's region, as GET /map names regions; region_name_en in English. */
  region_id: z.number().int(),
  region_name: z.string(),
  region_name_en: z.string(),
  /** Where to wait: one of the recent pickups. */
  target: z.object({ lat: z.number(), lon: z.number() }),
  drive_seconds: z.number().int(),
  drive_minutes: z.number().int(),
  /**
   * What the coverage rule measured (docs/dispatch.md, "Steering idle drivers"): the city's recent pickups it weighed
   * within the window, and by how many seconds waiting at the target shortens their mean time to the nearest free car;
   * recent_orders and free_drivers: of those pickups the ones in the target's region, and the free cars there now.
   */
  reason: z.object({
    rule: z.literal("coverage"),
    pickups: z.number().int(),
    window_minutes: z.number().int(),
    saves_seconds: z.number().int(),
    recent_orders: z.number().int(),
    free_drivers: z.number().int(),
  }),
});

export const hintOperation = defineDriverAppOperation({
  method: "GET",
  path: "hint",
  summary: "A suggested place to wait while free (where a car most shortens the recent pickups' time to their nearest free car), never an order; null when none or not free",
  auth: "driver",
  input: z.object({}),
  output: z.object({ hint: regionHint.nullable() }),
  handle: async (_input, ctx) => {
    const hint = await hintFor(ctx.db, me(ctx).id);
    if (!hint) return { hint: null };
    const r = hint.reason;
    return {
      hint: {
        region_id: hint.regionId,
        region_name: hint.regionName,
        region_name_en: hint.regionNameEn,
        target: hint.target,
        drive_seconds: hint.driveSeconds,
        drive_minutes: Math.max(1, Math.round(hint.driveSeconds / 60)),
        reason: {
          rule: "coverage" as const,
          pickups: r.pickups,
          window_minutes: r.windowMinutes,
          saves_seconds: r.savesSeconds,
          recent_orders: r.regionPickups,
          free_drivers: r.regionFreeCars,
        },
      },
    };
  },
});

export const DRIVER_APP_OPERATIONS = [
  versionOperation,
  issueKeyOperation,
  revokeKeyOperation,
  meOperation,
  mapOperation,
  routeOperation,
  startShiftOperation,
  endShiftOperation,
  positionOperation,
  positionsOperation,
  offersOperation,
  ordersOperation,
  acceptOperation,
  rejectOperation,
  statusOperation,
  completeOperation,
  offerOperation,
  offerAcceptOperation,
  offerRefuseOperation,
  queueOperation,
  queueJoinOperation,
  queueLeaveOperation,
  breakStartOperation,
  breakEndOperation,
  hintOperation,
  ledgerOperation,
  messagesOperation,
  sendMessageOperation,
  readMessagesOperation,
] as const;

/**
 * Operations that answer with a stream (server-sent events) instead of one
 * reply, served by the same router. Kept apart from DRIVER_APP_OPERATIONS,
 * whose walks (the fuzz suite) expect every reply to end.
 */
export const DRIVER_APP_STREAMS = [offerStreamOperation] as const;
