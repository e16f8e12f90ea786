// Creating an order: from address fields (geocoded here) or from a price
// token (the estimate's addresses, phone and exact amount). The order enters
// the state machine on moderation (default), among the free orders, as an
// advance order, or sent straight to a driver.
import type { Db, Tx } from "../db";
import { holdBonuses, recordBonusHold } from "../bonuses/reserve";
import { rawQuery } from "../db/sql";
import type { Actor } from "../actor";
import { OrderError, PricingError, ValidationError, isUniqueViolation } from "../errors";
import { publish } from "../events/bus";
import { resolveAddress, type AddressInput, type ResolvedAddress } from "../geo/address";
import { wakeOutbox } from "../notifications/wake";
import { priceRoute, resolveExtras, resolveQueue, resolveService, type ExtraRequest, type RoutePrice } from "../pricing/estimate";
import { verifyPriceToken } from "../pricing/token";
import type { Prisma } from "../generated/prisma/client";
import { insertOrderRow } from "./insert-order";
import { normalizePhone } from "./phone";
import { codeOf, isOrderState, type OrderState } from "./states";
import type { IdempotentWrite } from "../idempotency/store";
import { resolveApiTime, type ApiTime } from "./time";
import { reference } from "../reference/cache";

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
  /** The request's Idempotency-Key and reply, written with the order (server/idempotency). */
  idempotency?: IdempotentWrite;
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
  /** An advance order's time as the client wrote it: read on the clock of the order's city, once that is known. */
  preOrderAt?: PreOrderAt;
  extras?: ExtraRequest[];
}

export interface PreOrderAt {
  time: ApiTime;
  /** The parameter it came from, named in a refusal. */
  parameter: string;
}

export interface CreateFromTokenInput extends CommonOptions {
  token: string;
  phone?: string;
  serviceId?: number;
  extras?: ExtraRequest[];
  /** Sent beside a token: it must name the estimate's own time (never ignored, never a different one). */
  preOrderAt?: PreOrderAt;
}

async function resolvePreOrderAt(db: Db, at: PreOrderAt, cityId: number): Promise<Date> {
  const city = (await reference(db)).cities.get(cityId);
  const resolved = resolveApiTime(at.time, city?.timezone ?? "UTC");
  if (!resolved) throw new ValidationError("BAD_PARAMETER", { parameter: at.parameter, expected: "a time that exists on the city's clock" });
  return resolved;
}

export interface CreatedOrder {
  id: number;
  uuid: string;
  state: OrderState;
  statusCode: number;
  amount: number | null;
  /** An order created earlier by the same request (a price token replayed by the key that used it). */
  replayed?: boolean;
}

/**
 * The order a price token created, when the same API key created it: a
 * retry of a create whose reply was lost answers that order (state as
 * created) instead of TOKEN_USED; another key still gets TOKEN_USED.
 */
async function orderOfToken(db: Db, jti: string, apiKeyId: number | undefined): Promise<CreatedOrder | null> {
  if (apiKeyId === undefined) return null;
  const [row] = await rawQuery(db)<{ id: number; uuid: string; state: string; code: number; amount: number | null }>(
    `SELECT o.id, o.uuid::text AS uuid, h.to_state AS state, h.to_code AS code, o.amount
       FROM orders o JOIN order_status_change h ON h.order_id = o.id AND h.from_state IS NULL
      WHERE o.price_token = $1 AND o.api_key_id = $2
      ORDER BY h.id LIMIT 1`,
    [jti, apiKeyId],
  );
  if (!row || !isOrderState(row.state)) return null;
  return { id: row.id, uuid: row.uuid, state: row.state, statusCode: row.code, amount: row.amount, replayed: true };
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
  /** Bonuses the price counted on: held from the client's balance in the order's transaction. */
  bonusToHold?: number;
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
  const insert = (q: Db | Tx) =>
    insertOrderRow(
      q,
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
        idempotency: options.idempotency,
      },
    );
  try {
    const bonus = draft.bonusToHold ?? 0;
    result =
      bonus > 0
        ? await db.$transaction(async (tx) => {
            const hold = await holdBonuses(tx, { phone: draft.phone, amount: bonus, priceToken: draft.priceToken });
            const inserted = await insert(tx);
            // A blacklisted phone inserts nothing: the hold goes with the transaction.
            if (!inserted.inserted) throw new OrderError("BLACKLISTED", { phone: draft.phone });
            await recordBonusHold(tx, hold, inserted.id);
            return inserted;
          })
        : await insert(db);
  } catch (error) {
    if (draft.priceToken && isUniqueViolation(error)) {
      const earlier = await orderOfToken(db, draft.priceToken, options.apiKeyId);
      if (earlier) return earlier;
      throw new OrderError("TOKEN_USED");
    }
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
  if (input.preOrderAt) {
    // The city's clock is the order's city's, known only now (not the default service's).
    const at = await resolvePreOrderAt(db, input.preOrderAt, service.cityId);
    if (at.getTime() < Date.now() - 60_000) throw new ValidationError("BAD_PARAMETER", { parameter: input.preOrderAt.parameter, expected: "a time in the future" });
    input = { ...input, preOrderTime: at };
  }
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
  let claims: ReturnType<typeof verifyPriceToken>;
  try {
    claims = verifyPriceToken(input.token);
  } catch (error) {
    // A retry after the token expired still finds the order it made.
    if (error instanceof PricingError && error.code === "TOKEN_EXPIRED") {
      const earlier = await orderOfToken(db, verifyPriceToken(input.token, 0).jti, input.apiKeyId);
      if (earlier) return earlier;
    }
    throw error;
  }
  if (input.serviceId !== undefined && input.serviceId !== claims.serviceId) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "service_id", expected: `the estimate's service ${claims.serviceId}` });
  }
  if (input.extras !== undefined) {
    const key = (list: Array<[number, number]>) => JSON.stringify([...list].sort((a, b) => a[0] - b[0]));
    if (key(input.extras.map((e) => [e.id, e.count])) !== key(claims.extras)) {
      throw new ValidationError("BAD_PARAMETER", { parameter: "extras", expected: "the extras of the estimate" });
    }
  }
  if (input.preOrderAt) {
    const sent = await resolvePreOrderAt(db, input.preOrderAt, claims.cityId);
    if (claims.preOrderTime === null || new Date(claims.preOrderTime).getTime() !== sent.getTime()) {
      throw new ValidationError("BAD_PARAMETER", { parameter: input.preOrderAt.parameter, expected: "the estimate's own time (pre_order_time_utc), or none" });
    }
  }
  const phone = checkPhone(input.phone ?? claims.phone ?? undefined);
  // A price with bonuses is that client's: another phone would keep the
  // discount while nobody's bonuses pay for it.
  if (claims.bonusUsed > 0 && phone !== claims.phone) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "phone", expected: "the phone of the estimate (its price uses that client's bonuses)" });
  }
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
      bonusToHold: claims.bonusUsed,
    },
    { ...input, customerId: input.customerId ?? claims.customerId ?? undefined },
    actor,
  );
}
