// The exchange's resources as zod schemas: order attributes, executor,
// completion data, driver state. String fields of the reference accept a
// number too (kept as text); numeric fields must be numbers. The schemas'
// messages name the expected type, which the error replies show.
import { z } from "zod";
import type { Prisma } from "../generated/prisma/client";
import { badRequest } from "./errors";

export const text = z.union([z.string("string"), z.number("string")], "string").transform(String);
const optText = text.optional();
const latitude = z.number("number (latitude)").min(-90, "latitude from -90 to 90").max(90, "latitude from -90 to 90");
const longitude = z.number("number (longitude)").min(-180, "longitude from -180 to 180").max(180, "longitude from -180 to 180");
export const isoDate = z
  .string("ISO date string")
  .max(64, "ISO date string")
  .refine((s) => !Number.isNaN(Date.parse(s)), "ISO date string");
/** An id that the reference types as String; integers are accepted too. */
export const idText = z
  .union([z.string("string id"), z.number("string id").int("string id")], "string id")
  .transform(String)
  .pipe(z.string().min(1, "non-empty string id").max(64, "string id of at most 64 characters"));
/** An exchange order id: digits, as a string or a number. */
export const exchangeId = z
  .union([z.string("order id"), z.number("order id").int("order id")], "order id")
  .transform(String)
  .pipe(z.string().regex(/^\d{1,9}$/, "order id (digits)"))
  .transform(Number);

const point = z.object({
  street: optText,
  house: optText,
  porch: optText,
  latitude: latitude.optional(),
  longitude: longitude.optional(),
});

const tariff = z.object({
  name: optText,
  minFare: optText,
  farePerKm: optText,
  secondFarePerKm: optText,
  secondFareStart: optText,
  skipFirstKm: optText,
  timeUnitSize: optText,
  timeUnitFare: optText,
  freeTime: optText,
  markupRatio: optText,
  stationaryFare: optText,
  freeStationaryTime: optText,
  enableAutoStationaryFare: optText,
  freeWaitingTime: optText,
  waitingRate: optText,
  changeoverSpeed: optText,
  trafficLightPause: optText,
  roundTo: optText,
  roundType: z.number("integer -1, 0 or 1").int("integer -1, 0 or 1").min(-1, "integer -1, 0 or 1").max(1, "integer -1, 0 or 1").optional(),
  pickUp: optText,
  roundFareRealtime: optText,
  showMinFare: optText,
});

const extra = z.object({
  name: optText,
  shortName: optText,
  price: z.number("number").optional(),
  options: z.array(z.union([z.string(), z.number()]), "array").optional(),
  count: z.union([z.number().int(), z.array(z.union([z.string(), z.number()]))], "array or integer").optional(),
});

const waypoint = z.object({
  publicPlace: optText,
  house: optText,
  street: optText,
  lat: optText,
  lon: optText,
});

const attributeFields = {
  client: z.object({ phone: optText, name: optText }, "object").optional(),
  from: point.optional(),
  to: point.optional(),
  time: z.object({ registered: isoDate.optional() }, "object").optional(),
  carClass: z.number("integer").int("integer").min(0, "car class id").max(1_000_000, "car class id").optional(),
  fare: z.number("number").min(0, "a fare of 0 or more").max(10_000_000, "a fare below 10000000").optional(),
  note: z.union([z.string("string"), z.number("string")], "string").transform(String).pipe(z.string().max(2000, "at most 2000 characters")).optional(),
  tariff: tariff.optional(),
  service: z.object({ id: z.union([z.string(), z.number()], "string or number").optional(), extras: z.array(extra, "array").max(50).optional() }, "object").optional(),
  waypoints: z.array(waypoint, "array").max(50, "at most 50 waypoints").optional(),
};

/** Attributes of POST /order: the start coordinates are required; `status` is set by the exchange. */
export const registrationAttributes = z.object({
  ...attributeFields,
  from: point.extend({ latitude, longitude }),
  status: z.unknown().optional(),
});

/** Attributes of POST /order/update: any subset, with `status`. */
export const updateAttributes = z.object({
  ...attributeFields,
  status: z.number("integer status code").int("integer status code").optional(),
});

export type RegistrationAttributes = z.output<typeof registrationAttributes>;
export type UpdateAttributes = z.output<typeof updateAttributes>;
export type StoredAttributes = Omit<RegistrationAttributes, "status"> & { carClass: number; fare: number; time: { registered: string } };

/** What the exchange keeps of a registration (defaults filled in). */
export function storedAttributes(input: RegistrationAttributes, now = new Date()): StoredAttributes {
  const { status: _status, ...rest } = input;
  return {
    ...rest,
    carClass: input.carClass ?? 1,
    fare: input.fare ?? 0,
    time: { registered: input.time?.registered ?? now.toISOString() },
  };
}

/**
 * A fare in roubles (a JSON number) as whole kopecks, exactly: from the
 * number's shortest decimal form (123.45 is 12345, not 12344.999…), rounded
 * half up on the third decimal (1.005 is 101).
 */
export function fareKopecks(fare: number | undefined): number {
  if (fare === undefined || !Number.isFinite(fare)) return 0;
  const negative = fare < 0;
  const text = decimalOf(Math.abs(fare));
  const [whole = "0", fraction = ""] = text.split(".");
  const digits = (fraction + "000").slice(0, 3);
  let kopecks = Number(whole) * 100 + Number(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) kopecks += 1;
  return negative ? -kopecks : kopecks;
}

/** The shortest decimal text of a non-negative number, never in exponent form. */
function decimalOf(value: number): string {
  const text = String(value);
  if (!text.includes("e")) return text;
  const [mantissa = "0", exponent = "0"] = text.split("e");
  const power = Number(exponent);
  const [int = "0", frac = ""] = mantissa.split(".");
  if (power < 0) return `0.${"0".repeat(-power - 1)}${int}${frac}`;
  return `${int}${frac}${"0".repeat(Math.max(0, power - frac.length))}`;
}

export const executorSchema = z.object(
  {
    callSign: optText,
    phone: optText,
    registrationNumber: optText,
    brand: optText,
    model: optText,
    color: optText,
    autoAge: optText,
    modelCode: optText,
    colorCode: optText,
    serviceName: optText,
    latitude: optText,
    longitude: optText,
    speed: optText,
    bearing: optText,
  },
  "object (executor)",
);
export type Executor = z.output<typeof executorSchema>;

export const completionSchema = z.object(
  {
    fare: optText,
    distance: optText,
    time: z
      .object({ completed: optText, standing: optText, waiting: optText }, "object")
      .optional(),
  },
  "object (completion data)",
);
export type Completion = z.output<typeof completionSchema>;

// ---------------------------------------------------------------- comparing and merging

type Json = Prisma.JsonValue;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

const OBJECT_FIELDS = new Set(["client", "from", "to", "time", "tariff", "service"]);

/** The attributes after an update: objects merged one level deep, the rest replaced. */
export function mergeAttributes(current: Record<string, Json>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || key === "status") continue;
    const before = current[key];
    if (OBJECT_FIELDS.has(key) && value && typeof value === "object" && !Array.isArray(value) && before && typeof before === "object" && !Array.isArray(before)) {
      out[key] = { ...(before as Record<string, unknown>), ...(value as Record<string, unknown>) };
    } else {
      out[key] = value;
    }
  }
  return canonical(out) as Record<string, unknown>;
}

/** The fields of an update that change something, by name (one level). */
export function changedFields(current: Record<string, Json>, merged: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(current), ...Object.keys(merged)]);
  return [...keys].filter((k) => k !== "status" && !sameJson(current[k], merged[k])).sort();
}

/**
 * The rule for changing an order's fields (BadRequest otherwise): nobody
 * changes time.registered, service or carClass; the executor changes only
 * the status; once the order is taken its fare is fixed.
 */
export function checkFieldChanges(changed: string[], role: "seller" | "executor", taken: boolean, merged: Record<string, unknown>, current: Record<string, Json>): void {
  for (const field of changed) {
    if (field === "service" || field === "carClass") throw badRequest(`${field} may not change`, { parameter: `data.attributes.${field}` });
    if (field === "time") {
      const before = (current.time as { registered?: string } | undefined)?.registered;
      const after = (merged.time as { registered?: string } | undefined)?.registered;
      if (before !== after) throw badRequest("time.registered may not change", { parameter: "data.attributes.time.registered" });
    }
    if (role === "executor") throw badRequest(`the executor may change only the status, not ${field}`, { parameter: `data.attributes.${field}` });
    if (taken && field === "fare") throw badRequest("the fare may not change once the order is taken", { parameter: "data.attributes.fare" });
  }
}
