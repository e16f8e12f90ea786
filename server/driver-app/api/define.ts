// One operation of the driver app interface (/driver-app/v1/...): method,
// path, who may call it, the zod schemas of its input (query string for GET,
// JSON body for POST) and of its reply, and the call into the service. The
// router, the tests and docs/driver-app.md follow these definitions.
import { z } from "zod";
import type { Db } from "../../db";
import type { ApiResponse } from "../../http/types";
import type { DriverIdentity } from "../keys";

export interface DriverAppContext {
  db: Db;
  /** The authenticated driver (null for the provisioning operations). */
  driver: DriverIdentity | null;
  language: "ru" | "en";
  /** Gives the request's admission place back before a wait that does no work (the long poll). */
  idle?: () => void;
}

export interface DriverAppOperation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: "GET" | "POST";
  /** Path below /driver-app/v1, e.g. "position" or "orders/accept". */
  path: string;
  summary: string;
  /** "driver": Authorization: Bearer <driver app key>; "provisioning": Bearer <provisioning key>; "none". */
  auth: "driver" | "provisioning" | "none";
  input: I;
  output: O;
  handle: (input: z.output<I>, ctx: DriverAppContext) => Promise<z.input<O>>;
  /** The operation's own write stores the app's mark (app_seen_at): the router does not write it before (the position report). */
  marksAppSeen?: true;
  /** A stream of server-sent events instead of one reply (`output` then describes one event's data). */
  stream?: (input: z.output<I>, ctx: DriverAppContext) => NonNullable<ApiResponse["stream"]>;
}

export function defineDriverAppOperation<I extends z.ZodType, O extends z.ZodType>(op: DriverAppOperation<I, O>): DriverAppOperation<I, O> {
  return op;
}

export const DRIVER_APP_VERSION = "1.0.0";

/** A number, in JSON or as the text of one (query strings), within bounds; the message names the expected value. */
export function numberIn(min: number, max: number) {
  const expected = `number from ${min} to ${max}`;
  return z
    .union([z.number(expected), z.string(expected).regex(/^[+-]?(\d+(\.\d*)?|\.\d+)$/, expected).transform(Number)], expected)
    .pipe(z.number(expected).min(min, expected).max(max, expected).refine(Number.isFinite, expected));
}

export function integerIn(min: number, max: number) {
  const expected = `integer from ${min} to ${max}`;
  return numberIn(min, max).pipe(z.number().int(expected));
}

export const uuidParam = z
  .string("uuid")
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "uuid")
  .transform((s) => s.toLowerCase());

export const yesNoParam = z
  .union([z.boolean(), z.enum(["yes", "no", "true", "false", "1", "0"]).transform((s) => ["yes", "true", "1"].includes(s))], "yes or no")
  .transform(Boolean);
