// Creating an order: from address fields (geocoded here) or from a price
// token (the estimate's addresses, phone and exact amount). The order enters
// the state machine on moderation (default), among the free orders, as an
// advance order, or sent straight to a driver.
import type { Db, Tx } from "../db";
import { rawQuery } from "../db/sql";
import type { Actor } from "../actor";
import { OrderError, ValidationError, isUniqueViolation } from "../errors";
import { publish } from "../events/bus";
import { resolveAddress, type AddressInput, type ResolvedAddress } from "../geo/address";
import { wakeOutbox } from "../notifications/wake";
import { priceRoute, resolveExtras, resolveQueue, resolveService, type ExtraRequest, type RoutePrice } from "../pricing/estimate";
import { verifyPriceToken } from "../pricing/token";
import type { Prisma } from "../generated/prisma/client";
import { insertOrderRow } from "./insert-order";
import { normalizePhone } from "./phone";
import { codeOf, type OrderState } from "./states";

export type OrderSourceName = "API" | "CONSOLE" | "EXCHANGE" | "SIMULATOR";

interface CommonOptions {
  source: OrderSourceName;
  apiKeyId?: number;
  comment?: string;
  moderationRequired?: boolean;
  needNotify?: boolean;
  /** The driver to send the order to: a call sign, or failing that an id. */
  driver?: string;
  clientName?: string;
  customerId?: number;
  /** The integrator's status callback URL template (of its API key); read by apiKeyId when not given. */
  callbackTemplate?: string | null;
}

export interface CreateOrderInput extends CommonOptions {
  phone: string;
  pickup: AddressInput;
  /** The destination as one line of text (`dst`). */
  destinationLine?: string;
  destination?: AddressInput;
  /** Points after the pickup (way_points), before the destination. */
  wayPoints?: AddressInput[];
  serviceId?: number;
  queueId?: number;
  cityId?: number;
  amount?: number;
  preOrderTime?: Date;
  extras?: ExtraRequest[];
}

export interface CreateFromTokenInput extends CommonOptions {
  token: string;
  phone?: string;
  serviceId?: number;
  extras?: ExtraRequest[];
}

export interface CreatedOrder {
  id: number;
  uuid: string;
  state: OrderState;
  statusCode: number;
  amount: number | null;
}

async function findDriver(db: Db | Tx, ref: string) {
  const select = {
    id: true,
    active: true,
    cityId: true,
    callSign: true,
    firstName: true,
    phone: true,
    car: { select: { brand: true, model: true, color: true, regNumber: true } },
  } as const;
  const byCallSign = await db.driver.findUnique({ where: { callSign: ref }, select });
  if (byCallSign) return byCallSign;
  if (/^\d{1,9}$/.test(ref)) return db.driver.findUnique({ where: { id: Number(ref) }, select });
  return null;
}

/** The phone in our form; whether it is blacklisted is decided by the insert itself. */
function checkPhone(raw: string | undefined, param = "phone"): string {
  if (!raw) throw new ValidationError("MISSING_PARAMETER", { parameter: param });
  const phone = normalizePhone(raw);
  if (!phone) throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: "phone number" });
  return phone;
}

function initialState(options: CommonOptions, preOrder: boolean, driverId: number | null): OrderState {
  if (options.moderationRequired ?? true) return "ON_MODERATION";
  if (preOrder) return "PREORDER_FREE";
  return driverId !== null ? "SENT_TO_DRIVER" : "FREE";
}

function pointJson(p: ResolvedAddress): Prisma.InputJsonObject {
  return {
    street: p.street,
    house: p.house,
    lat: p.lat,
    lon: p.lon,
    ...(p.name ? { name: p.name } : {}),
    ...(p.entrance ? { entrance: p.entrance } : {}),
    ...(p.floor ? { floor: p.floor } : {}),
    ...(p.apartment ? { apartment: p.apartment } : {}),
    regionId: p.regionId,
  };
}

interface OrderDraft {
  cityId: number;
  serviceId: number;
  queueId: number | null;
  rateId: number | null;
  regionId: number | null;
  phone: string;
  pickup: ResolvedAddress;
  destination: ResolvedAddress | null;
  destinationLine: string;
  points: ResolvedAddress[];
  amount: number | null;
  distance: number | null;
  routeTime: number | null;
  breakdown: Prisma.InputJsonValue | null;
  priceToken: string | null;
  preOrderTime: Date | null;
  extras: Array<{ id: number; price: number; count: number }>;
}

async function insertOrder(db: Db, draft: OrderDraft, options: CommonOptions, actor: Actor): Promise<CreatedOrder> {
  let driver: Awaited<ReturnType<typeof findDriver>> = null;
  if (options.driver !== undefined) {
    driver = await findDriver(db, options.driver);
    if (!driver || !driver.active) throw new ValidationError("NOT_FOUND", { what: "Driver", id: options.driver });
  }
  if (options.customerId !== undefined) {
    const customer = await db.customer.findUnique({ where: { id: options.customerId }, select: { id: true } });
    if (!customer) throw new ValidationError("NOT_FOUND", { what: "Customer", id: options.customerId });
  }
  const state = initialState(options, draft.preOrderTime !== null, driver?.id ?? null);
  const statusCode = codeOf(state);
  // The API passes its key's template (already read with the key); other callers name only the key.
  let callbackTemplate = options.callbackTemplate;
  if (callbackTemplate === undefined && options.apiKeyId !== undefined) {
    const [key] = await rawQuery(db)<{ template: string | null }>(`SELECT callback_template AS template FROM api_key WHERE id = $1 AND revoked_at IS NULL`, [options.apiKeyId]);
    callbackTemplate = key?.template ?? null;
  }
  let result: Awaited<ReturnType<typeof insertOrderRow>>;
  try {
    result = await insertOrderRow(
      db,
      {
        cityId: draft.cityId,
        serviceId: draft.serviceId,
        queueId: draft.queueId,
        rateId: draft.rateId,
        regionId: draft.regionId,
        apiKeyId: options.apiKeyId ?? null,
        customerId: options.customerId ?? null,
        driverId: driver?.id ?? null,
        source: options.source,
        state,
        statusCode,
        phone: draft.phone,
        clientName: options.clientName ?? "",
        street: draft.pickup.street,
        house: draft.pickup.house,
        apartment: draft.pickup.apartment,
        entrance: draft.pickup.entrance,
        lat: draft.pickup.lat,
        lon: draft.pickup.lon,
        dst: draft.destinationLine,
        dstStreet: draft.destination?.street ?? "",
        dstHouse: draft.destination?.house ?? "",
        dstLat: draft.destination?.lat ?? null,
        dstLon: draft.destination?.lon ?? null,
        wayPoints: draft.points.map(pointJson),
        comment: options.comment ?? "",
        amount: draft.amount,
        distance: draft.distance,
        routeTime: draft.routeTime,
        priceBreakdown: draft.breakdown,
        priceToken: draft.priceToken,
        needNotify: options.needNotify ?? true,
        preOrderTime: draft.preOrderTime,
      },
      {
        extras: draft.extras,
        driver: driver ? { callSign: driver.callSign, firstName: driver.firstName, phone: driver.phone, car: driver.car } : null,
        callbackTemplate: callbackTemplate ?? null,
        actor,
      },
    );
  } catch (error) {
    if (draft.priceToken && isUniqueViolation(error)) throw new OrderError("TOKEN_USED");
    throw error;
  }
  if (!result.inserted) throw new OrderError("BLACKLISTED", { phone: draft.phone });
  publish({ type: "order.created", orderId: result.id, uuid: result.uuid, state, statusCode, regionId: draft.regionId });
  if (callbackTemplate) wakeOutbox();
  return { id: result.id, uuid: result.uuid, state, statusCode, amount: draft.amount };
}

export async function createOrder(db: Db, input: CreateOrderInput, actor: Actor): Promise<CreatedOrder> {
  const phone = checkPhone(input.phone);
  if (input.pickup.regionId !== undefined) {
    const region = await db.region.findUnique({ where: { id: input.pickup.regionId }, select: { id: true } });
    if (!region) throw new ValidationError("BAD_PARAMETER", { parameter: "region_id", expected: "the id of an existing region" });
  }
  if (input.preOrderTime && input.preOrderTime.getTime() < Date.now() - 60_000) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "pre_order_time", expected: "a time in the future" });
  }
  const pickup = await resolveAddress(db, input.pickup, { cityId: input.cityId, streetParam: "street", houseParam: "house" });
  const service = await resolveService(db, input.serviceId, input.cityId ?? pickup.cityId ?? undefined);
  const wayPoints: ResolvedAddress[] = [];
  for (const point of input.wayPoints ?? []) {
    wayPoints.push(await resolveAddress(db, point, { cityId: service.cityId, streetParam: "way_points", houseParam: "way_points" }));
  }
  // The destination may be only a line of text; a structured one that we
  // cannot find is kept as text rather than refusing the passenger.
  let destination: ResolvedAddress | null = null;
  if (input.destination && (input.destination.street || input.destination.lat !== undefined)) {
    const wanted = input.destination;
    destination = await resolveAddress(db, wanted, { cityId: service.cityId, streetParam: "dst_street", houseParam: "dst_house" }).catch(() => null);
    if (!destination && wanted.lat !== undefined && wanted.lon !== undefined) {
      destination = {
        name: "",
        street: wanted.street ?? "",
        house: wanted.house ?? "",
        lat: wanted.lat,
        lon: wanted.lon,
        regionId: null,
        cityId: service.cityId,
        publicPlace: false,
        known: false,
        entrance: "",
        floor: "",
        apartment: "",
      };
    }
  }
  const queueId = await resolveQueue(db, service.id, input.queueId);
  const extras = await resolveExtras(db, service.id, queueId, input.extras ?? []);
  const points = [pickup, ...wayPoints, ...(destination ? [destination] : [])];

  // Price it when the client did not: the order then carries an amount.
  // (the points are geocoded already: priced as they are, without a token)
  let priced: RoutePrice | undefined;
  if (input.amount === undefined) {
    priced = await priceRoute(db, { points, service }, { queueId: queueId ?? undefined, extras: input.extras, preOrderTime: input.preOrderTime }).catch(() => undefined);
  }
  return insertOrder(
    db,
    {
      cityId: service.cityId,
      serviceId: service.id,
      queueId,
      rateId: priced?.rate.id ?? null,
      regionId: pickup.regionId,
      phone,
      pickup,
      destination,
      destinationLine: input.destinationLine ?? (destination ? [destination.street, destination.house].filter(Boolean).join(", ") : ""),
      points,
      amount: input.amount ?? priced?.breakdown.total ?? null,
      distance: priced?.distanceMetres ?? null,
      routeTime: priced?.routeSeconds ?? null,
      breakdown: priced ? { ...priced.breakdown } : null,
      priceToken: null,
      preOrderTime: input.preOrderTime ?? null,
      extras,
    },
    input,
    actor,
  );
}

export async function createOrderFromToken(db: Db, input: CreateFromTokenInput, actor: Actor): Promise<CreatedOrder> {
  const claims = verifyPriceToken(input.token);
  if (input.serviceId !== undefined && input.serviceId !== claims.serviceId) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "service_id", expected: `the estimate's service ${claims.serviceId}` });
  }
  if (input.extras !== undefined) {
    const key = (list: Array<[number, number]>) => JSON.stringify([...list].sort((a, b) => a[0] - b[0]));
    if (key(input.extras.map((e) => [e.id, e.count])) !== key(claims.extras)) {
      throw new ValidationError("BAD_PARAMETER", { parameter: "extras", expected: "the extras of the estimate" });
    }
  }
  const phone = checkPhone(input.phone ?? claims.phone ?? undefined);
  const toResolved = (p: (typeof claims.points)[number]): ResolvedAddress => ({
    name: p.name ?? "",
    street: p.street,
    house: p.house,
    lat: p.lat,
    lon: p.lon,
    regionId: p.regionId ?? null,
    cityId: claims.cityId,
    publicPlace: false,
    known: true,
    entrance: p.entrance ?? "",
    floor: p.floor ?? "",
    apartment: p.apartment ?? "",
  });
  const points = claims.points.map(toResolved);
  const pickup = points[0]!;
  const destination = points.length > 1 ? points[points.length - 1]! : null;
  const extras = await resolveExtras(db, claims.serviceId, claims.queueId, claims.extras.map(([id, count]) => ({ id, count })));
  return insertOrder(
    db,
    {
      cityId: claims.cityId,
      serviceId: claims.serviceId,
      queueId: claims.queueId,
      rateId: claims.rateId,
      regionId: claims.regionId,
      phone,
      pickup,
      destination,
      destinationLine: destination ? [destination.street, destination.house].filter(Boolean).join(", ") : "",
      points,
      amount: claims.amount,
      distance: claims.distance,
      routeTime: claims.routeTime,
      breakdown: { bonusUsed: claims.bonusUsed, loadMarkupPercent: claims.markupPercent, fromToken: true },
      priceToken: claims.jti,
      preOrderTime: claims.preOrderTime ? new Date(claims.preOrderTime) : null,
      extras,
    },
    { ...input, customerId: input.customerId ?? claims.customerId ?? undefined },
    actor,
  );
}
