// The price estimate: the rate in force, the route's distance and time (from
// the client's routing service when given, else along the city's roads, else
// straight lines times the road factor at the average speed when a point is
// off the roads), extras, demand and bonuses, and a signed token that
// guarantees the price to the order made from it.
import { config } from "../config";
import type { DbOrTx } from "../db";
import { rawQuery } from "../db/sql";
import { ValidationError } from "../errors";
import { resolveAddress, type AddressInput, type ResolvedAddress } from "../geo/address";
import { pathMetres } from "../geo/distance";
import { normalizePhone } from "../orders/phone";
import { routeThrough } from "../routing/routes";
import { computeFare, type FareBreakdown } from "./fare";
import { demandMarkupPercent } from "./demand";
import { chooseRate, type RateRow } from "./rates";
import { issuePriceToken } from "./token";
import { reference } from "../reference/cache";

export interface ExtraRequest {
  id: number;
  count: number;
}

export interface EstimateInput {
  /** The pickup first, then destinations in order. */
  points: AddressInput[];
  serviceId?: number;
  queueId?: number;
  rateId?: number;
  cityId?: number;
  phone?: string;
  customerId?: number;
  extras?: ExtraRequest[];
  useBonuses?: boolean;
  preOrderTime?: Date;
  /** From an external routing service: metres and seconds. */
  distanceMetres?: number;
  routeSeconds?: number;
  /** Parameter name of the points, for errors. */
  pointsParam?: string;
  /** Per point, the names of the parameters its street and house came from (src_street, ...), for errors. */
  pointParams?: Array<{ street: string; house: string } | undefined>;
}

export interface Estimate {
  amount: number;
  distanceMetres: number;
  routeSeconds: number;
  approximate: boolean;
  token: string;
  points: ResolvedAddress[];
  /** The route along the roads ([lat, lon]), when it was computed on them. */
  route?: Array<[number, number]>;
  serviceId: number;
  rateId: number;
  breakdown: FareBreakdown;
}

export async function resolveService(db: DbOrTx, serviceId: number | undefined, cityId: number | undefined) {
  const { services } = await reference(db);
  if (serviceId !== undefined) {
    const service = services.get(serviceId);
    if (!service || !service.active) throw new ValidationError("NOT_FOUND", { what: "Service", id: serviceId });
    return service;
  }
  const service = [...services.values()]
    .filter((s) => s.active && (cityId === undefined || s.cityId === cityId))
    .sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)[0];
  if (!service) throw new ValidationError("NOT_FOUND", { what: "Service" });
  return service;
}

/** The queue asked for (it must be the service's), else the service's main queue. */
export async function resolveQueue(db: DbOrTx, serviceId: number, queueId: number | undefined): Promise<number | null> {
  const { queues } = await reference(db);
  if (queueId !== undefined) {
    const queue = queues.get(queueId);
    if (!queue || queue.serviceId !== serviceId) throw new ValidationError("BAD_PARAMETER", { parameter: "queue_id", expected: "a queue of the chosen service" });
    return queueId;
  }
  return [...queues.values()].find((q) => q.serviceId === serviceId && q.isMain)?.id ?? null;
}

export async function resolveExtras(db: DbOrTx, serviceId: number, queueId: number | null, requested: ExtraRequest[], param = "extras") {
  if (requested.length === 0) return [];
  const { extras } = await reference(db);
  const merged = new Map<number, number>();
  for (const e of requested) merged.set(e.id, (merged.get(e.id) ?? 0) + e.count);
  return [...merged].map(([id, count]) => {
    const extra = extras.get(id);
    if (!extra || extra.serviceId !== serviceId || (extra.queueId !== null && extra.queueId !== queueId)) {
      throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: `extras of service ${serviceId} (no extra ${id})` });
    }
    if (count < 1 || count > 20 || (!extra.allowMultiple && count > 1)) {
      throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: `a count from 1 to ${extra.allowMultiple ? 20 : 1} for extra ${id}` });
    }
    return { id, price: extra.price, count };
  });
}

/** A route whose points are already geocoded, for a service. */
export interface ResolvedRoute {
  points: ResolvedAddress[];
  service: { id: number; cityId: number };
}

export interface PriceOptions {
  queueId?: number;
  rateId?: number;
  extras?: ExtraRequest[];
  preOrderTime?: Date;
  distanceMetres?: number;
  routeSeconds?: number;
  /** the client's bonuses, when they pay with them */
  bonusAvailable?: number;
  useBonuses?: boolean;
}

export interface RoutePrice {
  queueId: number | null;
  rate: RateRow;
  extras: Array<{ id: number; price: number; count: number }>;
  distanceMetres: number;
  routeSeconds: number;
  /** The distance came from the roads (not the client, not the straight line). */
  onRoads: boolean;
  route?: Array<[number, number]>;
  markupPercent: number;
  breakdown: FareBreakdown;
}

/** The fare of a geocoded route: rate, distance, time, extras, demand, bonuses. Reads cached reference data and the demand count only. */
export async function priceRoute(db: DbOrTx, route: ResolvedRoute, options: PriceOptions): Promise<RoutePrice> {
  const cfg = config();
  const { points, service } = route;
  const queueId = await resolveQueue(db, service.id, options.queueId);
  const city = (await reference(db)).cities.get(service.cityId);
  const at = options.preOrderTime ?? new Date();
  const rate = await chooseRate(db, { serviceId: service.id, queueId, rateId: options.rateId, at, timeZone: city?.timezone ?? "Europe/Moscow" });
  const extras = await resolveExtras(db, service.id, queueId, options.extras ?? []);

  // The client's figures first; then the roads; the straight line when a point is off them.
  const road = options.distanceMetres === undefined ? await routeThrough(db, service.cityId, points, at) : undefined;
  const distanceMetres = options.distanceMetres ?? road?.metres ?? Math.round(pathMetres(points) * cfg.ROAD_FACTOR);
  const routeSeconds = options.routeSeconds ?? road?.seconds ?? Math.round((distanceMetres / 1000 / cfg.AVERAGE_SPEED_KMH) * 3600);
  const markupPercent = await demandMarkupPercent(db, points[0]?.regionId ?? null, { stepPercent: cfg.DEMAND_STEP_PERCENT, maxPercent: cfg.DEMAND_MAX_PERCENT });
  const breakdown = computeFare({
    rate,
    distanceMetres,
    routeSeconds,
    extras,
    markupPercent,
    bonusAvailable: options.bonusAvailable ?? 0,
    bonusMaxPercent: cfg.BONUS_MAX_PERCENT,
    useBonuses: options.useBonuses ?? false,
  });
  return { queueId, rate, extras, distanceMetres, routeSeconds, onRoads: road !== undefined, ...(road ? { route: road.points } : {}), markupPercent, breakdown };
}

export async function estimatePrice(db: DbOrTx, input: EstimateInput): Promise<Estimate> {
  const cfg = config();
  const pointsParam = input.pointsParam ?? "way_points";
  if (input.points.length === 0) throw new ValidationError("MISSING_PARAMETER", { parameter: pointsParam });
  if (input.points.length > 20) throw new ValidationError("BAD_PARAMETER", { parameter: pointsParam, expected: "at most 20 points" });

  // A street without a known house is priced at the street's own point (approximate).
  const resolveOptions = (i: number, cityId: number | undefined) => ({
    cityId,
    streetParam: input.pointParams?.[i]?.street ?? pointsParam,
    houseParam: input.pointParams?.[i]?.house ?? pointsParam,
    streetPointForHouse: true,
  });
  const pickup = await resolveAddress(db, input.points[0]!, resolveOptions(0, input.cityId));
  const cityId = input.cityId ?? pickup.cityId ?? undefined;
  const service = await resolveService(db, input.serviceId, cityId);
  const points = [pickup];
  for (const [i, point] of input.points.entries()) {
    if (i > 0) points.push(await resolveAddress(db, point, resolveOptions(i, service.cityId)));
  }
  const phone = input.phone ? normalizePhone(input.phone) : undefined;
  if (input.phone && !phone) throw new ValidationError("BAD_PARAMETER", { parameter: "phone", expected: "phone number" });

  let bonusAvailable = 0;
  if (input.useBonuses && phone) {
    const [client] = await rawQuery(db)<{ bonus: number }>(`SELECT bonus FROM client WHERE phone = $1`, [phone]);
    bonusAvailable = client?.bonus ?? 0;
  }
  const priced = await priceRoute(db, { points, service }, { ...input, bonusAvailable });
  const { breakdown, queueId, rate, extras, distanceMetres, routeSeconds, markupPercent } = priced;

  const token = issuePriceToken(
    {
      amount: breakdown.total,
      distance: distanceMetres,
      routeTime: routeSeconds,
      cityId: service.cityId,
      serviceId: service.id,
      queueId,
      rateId: rate.id,
      regionId: pickup.regionId,
      phone: phone ?? null,
      customerId: input.customerId ?? null,
      points: points.map((p) => ({
        street: p.street,
        house: p.house,
        lat: p.lat,
        lon: p.lon,
        ...(p.name ? { name: p.name } : {}),
        ...(p.entrance ? { entrance: p.entrance } : {}),
        ...(p.floor ? { floor: p.floor } : {}),
        ...(p.apartment ? { apartment: p.apartment } : {}),
        regionId: p.regionId,
      })),
      extras: extras.map((e) => [e.id, e.count] as [number, number]),
      preOrderTime: input.preOrderTime?.toISOString() ?? null,
      bonusUsed: breakdown.bonusUsed,
      markupPercent,
    },
    cfg.PRICE_TOKEN_TTL_SECONDS,
  );

  return {
    amount: breakdown.total,
    distanceMetres,
    routeSeconds,
    // Exact only when the route came from the client's routing service or
    // along the roads, and every point is a known address.
    approximate: (input.distanceMetres === undefined && !priced.onRoads) || points.some((p) => !p.known),
    token,
    points,
    ...(priced.route ? { route: priced.route } : {}),
    serviceId: service.id,
    rateId: rate.id,
    breakdown,
  };
}
