// The price estimate (pre_cost): both parameter listings of the reference,
// `way_points` (system 8.0 naming latitude/longitude, or lat/lon) and the
// older src_* / dst_* fields. Always answers amount, distance and token.
import { z } from "zod";
import { defineOperation } from "../define";
import { p } from "../params";
import { ValidationError } from "../../errors";
import { estimatePrice } from "../../pricing/estimate";
import { parseLocal } from "../../orders/time";
import { parseExtras } from "../extras";
import type { AddressInput } from "../../geo/address";

// Inside way_points chat bots send what their users typed: an empty string
// is absent (as for the flat parameters), and a decimal comma is a point.
const blank = z.string().trim().length(0).transform(() => undefined);
const text = z.union([blank, z.string(), z.number()]).transform((v) => (v === undefined ? undefined : String(v)));
const coordinate = z.union([
  z.number(),
  blank,
  z.string().trim().regex(/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/).transform((s) => Number(s.replace(",", "."))),
]);
const estimatePoint = z.object({
  name: text.nullish(),
  street: text.nullish(),
  house: text.nullish(),
  latitude: coordinate.nullish(),
  longitude: coordinate.nullish(),
  lat: coordinate.nullish(),
  lon: coordinate.nullish(),
  entrance: text.nullish(),
  floor: text.nullish(),
  apartment: text.nullish(),
  appartment: text.nullish(),
  region_id: z.union([z.number().int().positive(), blank, z.string().trim().regex(/^\d{1,9}$/).transform(Number)]).nullish(),
});

function toAddress(point: z.infer<typeof estimatePoint>, param: string): AddressInput {
  const lat = point.latitude ?? point.lat ?? undefined;
  const lon = point.longitude ?? point.lon ?? undefined;
  if ((lat !== undefined && (lat < -90 || lat > 90)) || (lon !== undefined && (lon < -180 || lon > 180))) {
    throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: "coordinates within -90..90 and -180..180" });
  }
  const clean = (s: string | null | undefined) => (s && s.trim() ? s.trim().slice(0, 200) : undefined);
  return {
    name: clean(point.name),
    street: clean(point.street),
    house: clean(point.house),
    lat,
    lon,
    entrance: clean(point.entrance),
    floor: clean(point.floor),
    apartment: clean(point.apartment ?? point.appartment),
    regionId: point.region_id ?? undefined,
  };
}

const endFields = (prefix: "src" | "dst") => ({
  [`${prefix}_name`]: p.string(200).optional(),
  [`${prefix}_street`]: p.string(200).optional(),
  [`${prefix}_house`]: p.string(50).optional(),
  [`${prefix}_lat`]: p.latitude().optional(),
  [`${prefix}_lon`]: p.longitude().optional(),
  [`${prefix}_entrance`]: p.string(50).optional(),
  [`${prefix}_floor`]: p.string(50).optional(),
  [`${prefix}_apartment`]: p.string(50).optional(),
  [`${prefix}_appartment`]: p.string(50).optional(),
  [`${prefix}_region_id`]: p.natural().optional(),
});

const estimateInput = z.object({
  phone: p.phone().optional(),
  way_points: p.json().optional(),
  service_id: p.natural().optional(),
  pre_order_time_utc: p.datetime().optional(),
  extras: p.string(2000).optional(),
  use_bonuses: p.yesNo().optional(),
  // natural numbers in the reference; routing services give decimals: rounded
  route_time: p.float(0, 10_000_000).transform(Math.round).optional(),
  distance: p.float(0, 100_000_000).transform(Math.round).optional(),
  queue_id: p.natural().optional(),
  rate_id: p.natural().optional(),
  customer_id: p.natural().optional(),
  customer_card_id: p.natural().optional(),
  // a payment card's number: up to 19 digits, more than a natural number holds
  customer_card_number: p.cardNumber().optional(),
  ...endFields("src"),
  ...endFields("dst"),
});

type EstimateParams = z.output<typeof estimateInput>;

function endPoint(input: EstimateParams, prefix: "src" | "dst"): AddressInput | undefined {
  const get = (name: string) => (input as Record<string, unknown>)[`${prefix}_${name}`];
  const point: AddressInput = {
    name: get("name") as string | undefined,
    street: get("street") as string | undefined,
    house: get("house") as string | undefined,
    lat: get("lat") as number | undefined,
    lon: get("lon") as number | undefined,
    entrance: get("entrance") as string | undefined,
    floor: get("floor") as string | undefined,
    apartment: (get("apartment") ?? get("appartment")) as string | undefined,
    regionId: get("region_id") as number | undefined,
  };
  return Object.values(point).some((v) => v !== undefined) ? point : undefined;
}

/** Fields given extend a point; missing ones keep the point's own. */
function extend(base: AddressInput, extra: AddressInput): AddressInput {
  const out: AddressInput = { ...base };
  for (const [k, v] of Object.entries(extra) as Array<[keyof AddressInput, never]>) if (v !== undefined) out[k] = v;
  return out;
}

// Built once, not per request (building a schema is most of zod's cost).
const estimatePoints = z.array(estimatePoint).max(20);

/** The parameters a point's street and house came from, so that an error names what the client sent. */
type PointParams = { street: string; house: string };
const WAY_POINT: PointParams = { street: "way_points", house: "way_points" };

function endParams(input: EstimateParams, prefix: "src" | "dst", base: PointParams | undefined): PointParams {
  const given = (name: string) => (input as Record<string, unknown>)[`${prefix}_${name}`] !== undefined;
  return {
    street: given("street") || !base ? `${prefix}_street` : base.street,
    house: given("house") || given("street") || !base ? `${prefix}_house` : base.house,
  };
}

export const estimateOperation = defineOperation({
  method: "GET",
  path: "order/pre_cost",
  summary: "Estimate the price of a trip; the token guarantees it to an order",
  auth: true,
  input: estimateInput,
  output: z.object({
    amount: z.string(),
    distance: z.number(),
    approximate: z.boolean(),
    token: z.string(),
    route: z.object({ distance: z.number(), points: z.array(z.tuple([z.number(), z.number()])) }),
    rateMutatedByLoad: z.boolean(),
    loadMarkup: z.string(),
    loadMarkupPercent: z.string(),
    route_time: z.number().int(),
    rate_id: z.number().int(),
    service_id: z.number().int(),
    bonus_used: z.number().int(),
    currency: z.string(),
  }),
  handle: async (input, ctx) => {
    let points: AddressInput[] = [];
    let params: PointParams[] = [];
    if (input.way_points !== undefined) {
      const parsed = estimatePoints.safeParse(input.way_points);
      if (!parsed.success) {
        throw new ValidationError("BAD_PARAMETER", { parameter: "way_points", expected: "a JSON array of address points" });
      }
      points = parsed.data.map((pt) => toAddress(pt, "way_points"));
      params = points.map(() => WAY_POINT);
    }
    const src = endPoint(input, "src");
    const dst = endPoint(input, "dst");
    if (src) {
      const named = endParams(input, "src", points.length ? params[0] : undefined);
      points = points.length ? [extend(points[0]!, src), ...points.slice(1)] : [src];
      params = params.length ? [named, ...params.slice(1)] : [named];
    }
    if (dst) {
      const extendsLast = points.length >= 2;
      const named = endParams(input, "dst", extendsLast ? params.at(-1) : undefined);
      points = extendsLast ? [...points.slice(0, -1), extend(points.at(-1)!, dst)] : [...points, dst];
      params = extendsLast ? [...params.slice(0, -1), named] : [...params, named];
    }
    if (points.length === 0) throw new ValidationError("MISSING_PARAMETER", { parameter: "way_points" });

    const preOrderTime = input.pre_order_time_utc ? parseLocal(input.pre_order_time_utc, "UTC") : undefined;
    const estimate = await estimatePrice(ctx.db, {
      points,
      serviceId: input.service_id,
      queueId: input.queue_id,
      rateId: input.rate_id,
      phone: input.phone,
      customerId: input.customer_id,
      extras: input.extras !== undefined ? parseExtras(input.extras) : [],
      useBonuses: input.use_bonuses,
      preOrderTime,
      distanceMetres: input.distance,
      routeSeconds: input.route_time,
      pointParams: params,
    });
    const km = Math.round(estimate.distanceMetres) / 1000;
    const b = estimate.breakdown;
    return {
      amount: (estimate.amount / 100).toFixed(2),
      distance: km,
      approximate: estimate.approximate,
      token: estimate.token,
      // Along the roads when it was routed on them, else the points themselves.
      route: { distance: km, points: estimate.route ?? estimate.points.map((pt) => [pt.lat, pt.lon] as [number, number]) },
      rateMutatedByLoad: b.loadMarkupPercent > 0,
      loadMarkup: (b.loadMarkup / 100).toFixed(2),
      loadMarkupPercent: String(b.loadMarkupPercent),
      route_time: estimate.routeSeconds,
      rate_id: estimate.rateId,
      service_id: estimate.serviceId,
      bonus_used: b.bonusUsed,
      currency: "RUB",
    };
  },
});
