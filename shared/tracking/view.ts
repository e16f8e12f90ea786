// The tracking page's view of an order, as GET /t/<token>/state and the
// event stream send it (server/tracking/tracking-view.ts builds it; the page
// in app/t/ reads it). Money in roubles with two decimals.
import { z } from "zod";
import { TRACKING_PHASES } from "./phase";

const point = z.object({ lat: z.number(), lon: z.number() });
const money = z.string().regex(/^\d+\.\d{2}$/);

/** The meter's breakdown in roubles (present only when the trip was metered, docs/tracking.md). */
export const meterBreakdownSchema = z.object({
  boarding: money,
  distance: money,
  time: money,
  waiting: money,
  extras: money,
  minimum_added: money,
  rounding: money,
});

export const trackingViewSchema = z.object({
  phase: z.enum(TRACKING_PHASES),
  status_code: z.number().int(),
  pickup: z.object({ address: z.string(), lat: z.number().nullable(), lon: z.number().nullable() }),
  destination: z.object({ address: z.string(), lat: z.number().nullable(), lon: z.number().nullable() }).nullable(),
  pre_order_time: z.string().nullable(),
  driver: z
    .object({
      first_name: z.string(),
      car: z.object({ colour: z.string(), make: z.string(), model: z.string(), plate: z.string() }).nullable(),
      position: point.extend({ bearing: z.number(), at: z.string().nullable() }).nullable(),
    })
    .nullable(),
  /** Seconds until the car is at the pickup along the roads, while it is on its way. */
  arrival_seconds: z.number().int().nullable(),
  can_call: z.boolean(),
  can_cancel: z.boolean(),
  fare: z.object({ amount: money, breakdown: meterBreakdownSchema.nullable() }).nullable(),
  rating: z.object({ can_rate: z.boolean(), stars: z.number().int().nullable(), comment: z.string().nullable() }),
});

export type TrackingView = z.infer<typeof trackingViewSchema>;
