// The price estimate (pre_cost): both parameter listings of the reference,
// `way_points` (system 8.0 naming latitude/longitude, or lat/lon) and the
// older src_* / dst_* fields. Always answers amount, distance and token.
import { z } from "zod";
import { defineOperation } from "../define";
import { p } from "../params";
import { ValidationError } from "../../errors";
import { estimatePrice } from "../../pricing/estimate";
import { resolveApiTime } from "../../orders/time";
import { requirePair } from "../pairs";
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
  // one coordinate of the two would be dropped (or mixed with the street's): both or neither
  if ((lat === undefined) !== (lon === undefined)) throw new ValidationError("BAD_PARAMETER", { parameter: param, expected: "both coordinates of a point, or neither" });
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

const endFields = (prefix: "src" | "dst") => {
  const end = prefix === "src" ? "the start (adds or extends the first point)" : "the end (adds or extends the last point)";
  return {
    [`${prefix}_name`]: p.string(200).optional().describe(`A place name at ${end}`),
    [`${prefix}_street`]: p.string(200).optional().describe(`The street with its prefix, or a public place, at ${end}`),
    [`${prefix}_house`]: p.string(50).optional().describe(`The house at ${end}; a street without one is priced at the street's point (approximate)`),
    [`${prefix}_lat`]: p.latitude().optional().describe(`Latitude, degrees, at ${end}; with ${prefix}_lon, or neither`),
    [`${prefix}_lon`]: p.longitude().optional().describe(`Longitude, degrees, at ${end}; with ${prefix}_lat, or neither`),
    [`${prefix}_entrance`]: p.string(50).optional().describe(`The entrance at ${end}`),
    [`${prefix}_floor`]: p.string(50).optional().describe(`The floor at ${end}`),
    [`${prefix}_apartment`]: p.string(50).optional().describe(`The apartment or office at ${end}`),
    [`${prefix}_appartment`]: p.string(50).optional().describe(`The same as ${prefix}_apartment (the reference's other spelling)`),
    [`${prefix}_region_id`]: p.natural().optional().describe(`The region at ${end}`),
  };
};

const estimateInput = z.object({
  phone: p.phone().optional().describe("The passenger's phone (E.164 or national): bonuses and the blacklist; carried by the token to the order"),
  way_points: p
    .json()
    .optional()
    .describe("The route: a JSON array of address points, the first the pickup, later ones destinations in order. A point: {name, street, house, latitude, longitude (or lat, lon: both or neither), entrance, floor, apartment, region_id}; empty strings are absent, \"41,3\" is 41.3")
    .meta({ examples: ['[{"street":"ул. Ленина","house":"2"},{"latitude":55.8,"longitude":37.7}]'] }),
  service_id: p.natural().optional().describe("The service (GET /api/services); by default the first of the pickup's city"),
  pre_order_time_utc: p.time().optional().describe("An advance order's time on UTC's clock (the reference's form), or ISO 8601 with an offset (an exact instant); priced at that time and carried by the token. A time that cannot be read is refused, never ignored"),
  extras: p.string(2000).optional().describe("Extra options (GET /api/extras) as a JSON object id to count ({\"3\": 1, \"7\": 2}); [3, 7] and \"3*1,7*2\" are read too. Default extras must be sent as well").meta({ examples: ['{"3": 1}'] }),
  use_bonuses: p.yesNo().optional().describe("yes: pay part of the fare with the client's bonuses (BONUS_MAX_PERCENT at most; 1 bonus = 1 rouble)"),
  // natural numbers in the reference; routing services give decimals: rounded
  route_time: p.float(0, 10_000_000).transform(Math.round).optional().describe("The trip's time in seconds from an external routing service (decimals rounded); by default routed along the city's roads"),
  distance: p.float(0, 100_000_000).transform(Math.round).optional().describe("The trip's length in metres from an external routing service (decimals rounded); by default routed along the city's roads"),
  queue_id: p.natural().optional().describe("The queue; by default the service's main queue"),
  rate_id: p.natural().optional().describe("The rate (GET /api/rates); by default the service's rate in force at the time"),
  customer_id: p.natural().optional().describe("The customer (counterparty) who pays"),
  customer_card_id: p.natural().optional().describe("The customer's card (accepted for compatibility; does not change the price)"),
  // a payment card's number: up to 19 digits, more than a natural number holds
  customer_card_number: p.cardNumber().optional().describe("A payment card's number, up to 19 digits (accepted for compatibility; does not change the price)"),
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
  errors: ["NOT_FOUND", "BLACKLISTED", "ADDRESS_NOT_FOUND", "NO_RATE"],
  input: estimateInput,
  output: z.object({
    amount: z.string().describe("The price in roubles with two decimals, as a string (the reference's form)").meta({ examples: ["450.00"] }),
    distance: z.number().describe("The trip's length in km").meta({ examples: [7.42] }),
    approximate: z.boolean().describe("true: a point was priced at its street's point or off the roads (straight line times ROAD_FACTOR)"),
    token: z.string().describe("The price token: POST /api/order with it makes one order at exactly this price, for PRICE_TOKEN_TTL_SECONDS (30 minutes by default)"),
    route: z
      .object({
        distance: z.number().describe("The route's length in km"),
        points: z.array(z.tuple([z.number(), z.number()])).describe("The route along the roads as [latitude, longitude] pairs (the points themselves when it was not routed)"),
      })
      .describe("The route priced"),
    rateMutatedByLoad: z.boolean().describe("true: a demand markup is in the price"),
    loadMarkup: z.string().describe("The demand markup in roubles, two decimals, as a string").meta({ examples: ["0.00"] }),
    loadMarkupPercent: z.string().describe("The demand markup in percent, as a string").meta({ examples: ["0"] }),
    route_time: z.number().int().describe("The trip's time in seconds"),
    rate_id: z.number().int().describe("The rate the price was computed by"),
    service_id: z.number().int().describe("The service priced"),
    bonus_used: z.number().int().describe("Bonuses the price spends (use_bonuses=yes); 1 bonus = 1 rouble"),
    currency: z.string().describe("ISO 4217 currency of the amounts").meta({ examples: ["RUB"] }),
  }),
  handle: async (input, ctx) => {
    requirePair(input, "src_lat", "src_lon");
    requirePair(input, "dst_lat", "dst_lon");
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

    // On UTC's clock (an offset, when sent, names the instant itself).
    const preOrderTime = input.pre_order_time_utc ? resolveApiTime(input.pre_order_time_utc, "UTC") : undefined;
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
