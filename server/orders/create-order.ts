// Creating an order: from address fields (geocoded here) or from a price
// token (the estimate's addresses, phone and exact amount). The order enters
// the state machine on moderation (default), among the free orders, as an
// advance order, or sent straight to a driver.
import type { Db, Tx } from "../db";
import type { Actor } from "../actor";
import { OrderError, ValidationError, isUniqueViolation } from "../errors";
import { publish } from "../events/bus";
import { resolveAddress, type AddressInput, type ResolvedAddress } from "../geo/address";
import { wakeOutbox } from "../notifications/worker";
import { estimatePrice, resolveExtras, resolveQueue, resolveService, type ExtraRequest } from "../pricing/estimate";
import { verifyPriceToken } from "../pricing/token";
import type { Prisma } from "../generated/prisma/client";
import { applyMoveEffects } from "./move-effects";
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
  const select = { id: true, active: true, cityId: true } as const;
  const byCallSign = await db.driver.findUnique({ where: { callSign: ref }, select });
  if (byCallSign) return byCallSign;
  if (/^\d{1,9}$/.test(ref)) return db.driver.findUnique({ where: { id: Number(ref) }, select });
  return null;
}

async function checkPhone(db: Db, raw: string | undefined, param = "phone"): Promise<string> {
  if (!raw) throw new ValidationError("MISSING_PARAMETER", { parameter: param });
  const phone = normalizePhone(raw);
  if (!phone) throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: "phone number" });
  const listed = await db.blacklistedPhone.findUnique({ where: { phone }, select: { phone: true } });
  if (listed) throw new OrderError("BLACKLISTED", { phone });
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
  let driverId: number | null = null;
  if (options.driver !== undefined) {
    const driver = await findDriver(db, options.driver);
    if (!driver || !driver.active) throw new ValidationError("NOT_FOUND", { what: "Driver", id: options.driver });
    driverId = driver.id;
  }
  if (options.customerId !== undefined) {
    const customer = await db.customer.findUnique({ where: { id: options.customerId }, select: { id: true } });
    if (!customer) throw new ValidationError("NOT_FOUND", { what: "Customer", id: options.customerId });
  }
  const state = initialState(options, draft.preOrderTime !== null, driverId);
  try {
    const created = await db.$transaction(async (tx) => {
      const [client] = await tx.$queryRawUnsafe<Array<{ id: number }>>(
        `INSERT INTO client (phone, name) VALUES ($1, $2)
         ON CONFLICT (phone) DO UPDATE SET name = CASE WHEN client.name = '' THEN EXCLUDED.name ELSE client.name END
         RETURNING id`,
        draft.phone,
        options.clientName ?? "",
      );
      const order = await tx.order.create({
        data: {
          uuid: crypto.randomUUID(),
          cityId: draft.cityId,
          serviceId: draft.serviceId,
          queueId: draft.queueId,
          rateId: draft.rateId,
          regionId: draft.regionId,
          apiKeyId: options.apiKeyId ?? null,
          clientId: client?.id ?? null,
          customerId: options.customerId ?? null,
          driverId,
          source: options.source,
          state,
          statusCode: codeOf(state),
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
          priceBreakdown: draft.breakdown ?? undefined,
          priceToken: draft.priceToken,
          needNotify: options.needNotify ?? true,
          preOrderTime: draft.preOrderTime,
          extras: { create: draft.extras.map((e) => ({ extraId: e.id, count: e.count, price: e.price })) },
          history: { create: { fromState: null, toState: state, toCode: codeOf(state), actorType: actor.type, actorId: actor.id, reason: "created" } },
        },
        select: { id: true, uuid: true, regionId: true, driverId: true, amount: true },
      });
      await applyMoveEffects(tx, {
        id: order.id,
        uuid: order.uuid,
        from: state,
        to: state,
        statusCode: codeOf(state),
        driverId: order.driverId,
        regionId: order.regionId,
        version: 0,
      });
      if (driverId !== null && state === "SENT_TO_DRIVER") {
        await tx.driver.update({ where: { id: driverId }, data: { state: "BUSY" }, select: { id: true } });
      }
      return order;
    });
    publish({ type: "order.created", orderId: created.id, uuid: created.uuid, state, statusCode: codeOf(state), regionId: created.regionId });
    wakeOutbox();
    return { id: created.id, uuid: created.uuid, state, statusCode: codeOf(state), amount: created.amount };
  } catch (error) {
    if (draft.priceToken && isUniqueViolation(error)) throw new OrderError("TOKEN_USED");
    throw error;
  }
}

export async function createOrder(db: Db, input: CreateOrderInput, actor: Actor): Promise<CreatedOrder> {
  const phone = await checkPhone(db, input.phone);
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
  let priced: Awaited<ReturnType<typeof estimatePrice>> | undefined;
  if (input.amount === undefined) {
    priced = await estimatePrice(db, {
      points: points.map((p) => ({ street: p.street, house: p.house, lat: p.lat, lon: p.lon })),
      serviceId: service.id,
      queueId: queueId ?? undefined,
      extras: input.extras,
      preOrderTime: input.preOrderTime,
    }).catch(() => undefined);
  }
  return insertOrder(
    db,
    {
      cityId: service.cityId,
      serviceId: service.id,
      queueId,
      rateId: priced?.rateId ?? null,
      regionId: pickup.regionId,
      phone,
      pickup,
      destination,
      destinationLine: input.destinationLine ?? (destination ? [destination.street, destination.house].filter(Boolean).join(", ") : ""),
      points,
      amount: input.amount ?? priced?.amount ?? null,
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
  const phone = await checkPhone(db, input.phone ?? claims.phone ?? undefined);
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
