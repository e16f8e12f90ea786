// The shape of a rate, written once: the price fields with their bounds (the
// console's form is checked against them), the select every reader uses, and
// the row type Prisma derives from it. The seed's plans, the console's save
// and the fare arithmetic take their types from here.
import { z } from "zod";
import type { Prisma } from "../generated/prisma/client";

const kopecks = z.number().int().min(0).max(100_000_000);
const minutes = z.number().int().min(0).max(24 * 60);
const hour = z.number().int().min(0).max(23).nullable();

/** What a rate charges and when it applies (kopecks, kilometres, minutes, hours of the city's day). */
export const rateFieldsSchema = z.object({
  pickUp: kopecks,
  minFare: kopecks,
  kmCost: kopecks,
  kmStart: z.number().int().min(0).max(1000),
  minuteCost: kopecks,
  standCost: kopecks,
  freeStandTime: minutes,
  waitCost: kopecks,
  freeWaitTime: minutes,
  roundTo: z.number().int().min(1).max(100_000),
  startHour: hour,
  endHour: hour,
});
export type RateFields = z.output<typeof rateFieldsSchema>;

/** FIXED: the estimate's price; METERED: the GPS taximeter's fare (server/meter/). */
export const rateKindSchema = z.enum(["FIXED", "METERED"]);

const FIELD_SELECT = Object.fromEntries(Object.keys(rateFieldsSchema.shape).map((k) => [k, true])) as { [K in keyof RateFields]: true };

export const rateSelect = {
  id: true,
  cityId: true,
  serviceId: true,
  queueId: true,
  name: true,
  isBasic: true,
  kind: true,
  ...FIELD_SELECT,
} as const satisfies Prisma.RateSelect;

export type RateRow = Prisma.RateGetPayload<{ select: typeof rateSelect }>;
