// Reading the parameters of a dispatch API call: the query string and the
// form body together (clients send api_key in both), an empty string counts
// as absent, the first non-empty value of a repeated name wins, and unknown
// names are ignored. Plus the parameter types of the reference as zod schemas
// whose error message is the expected type, so that errors name it.
import { z } from "zod";
import { holdsUnstorableText } from "../http/nul";
import { ValidationError } from "../errors";
import type { ApiRequest } from "../http/types";
import { UUID_PATTERN } from "../../shared/uuid";
import { API_TIME_FORMS, readApiTime, type ApiTime } from "../orders/time";

export type RawParams = Map<string, string>;

function add(params: RawParams, name: string, value: unknown): void {
  if (params.has(name)) return;
  if (value === null || value === undefined) return;
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (text.trim() === "") return;
  params.set(name, text);
}

export async function readParams(request: ApiRequest): Promise<RawParams> {
  const params: RawParams = new Map();
  for (const [name, value] of request.query) add(params, name, value);
  if (request.body.length === 0) return params;
  const contentType = (request.headers["content-type"] ?? "").toLowerCase();
  // A body that does not parse is refused (BAD_REQUEST), never read as empty:
  // read as empty, its parameters would silently fall back to "not given".
  if (contentType.includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(request.body.toString("utf8"));
    } catch {
      throw new ValidationError("BAD_REQUEST");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new ValidationError("BAD_REQUEST");
    for (const [name, value] of Object.entries(parsed)) add(params, name, value);
  } else if (contentType.includes("multipart/form-data")) {
    try {
      const form = await new Response(new Uint8Array(request.body), { headers: { "content-type": contentType } }).formData();
      form.forEach((value, name) => add(params, name, typeof value === "string" ? value : undefined));
    } catch {
      throw new ValidationError("BAD_REQUEST");
    }
  } else {
    // Form encoding, also when the client did not say (some don't).
    for (const [name, value] of new URLSearchParams(request.body.toString("utf8"))) add(params, name, value);
  }
  return params;
}

const MAX_INT = 2_147_483_647;

export const p = {
  string: (max = 1000) => z.string().max(max, `text of at most ${max} characters`),
  // Numbers and ids are read with the spaces around them dropped ("12 " from a
  // bot's string formatting is 12).
  natural: () =>
    z
      .string()
      .trim()
      .regex(/^\+?\d{1,10}$/, "natural number")
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_INT, "natural number")
      // on the wire a query or form value; described as the integer it is (openapi.ts)
      .meta({ "x-wire-type": "integer", minimum: 1, maximum: MAX_INT }),
  integer: () =>
    z
      .string()
      .trim()
      .regex(/^[+-]?\d{1,10}$/, "integer")
      .transform(Number)
      .refine((n) => Math.abs(n) <= MAX_INT, "integer")
      .meta({ "x-wire-type": "integer" }),
  float: (min = -1e9, max = 1e9) =>
    z
      .string()
      .trim()
      .regex(/^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/, "number")
      .transform((s) => Number(s.replace(",", ".")))
      .refine((n) => Number.isFinite(n) && n >= min && n <= max, `number from ${min} to ${max}`)
      .meta({ "x-wire-type": "number", minimum: min, maximum: max }),
  latitude: () => p.float(-90, 90),
  longitude: () => p.float(-180, 180),
  /** yes/no, and true/false as clients written in other languages send booleans. */
  yesNo: () =>
    z
      .string()
      .transform((s) => s.trim().toLowerCase())
      .pipe(z.enum(["yes", "no", "true", "false"], "yes or no"))
      .transform((s) => s === "yes" || s === "true")
      // the reference's values; true/false are read too (clients in other languages send booleans)
      .meta({ enum: ["yes", "no"] }),
  /** A payment card's number: up to 19 digits (spaces between groups allowed), kept as text. */
  cardNumber: () =>
    z
      .string()
      .transform((s) => s.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(/^\d{1,19}$/, "card number of up to 19 digits"))
      .meta({ examples: ["4276 1600 1234 5678"] }),
  uuid: () => z.string().trim().regex(UUID_PATTERN, "uuid").meta({ format: "uuid", examples: ["5f0c6d1e-8a8e-4b7e-9a43-2f1d9c0b7e21"] }),
  /**
   * A time: `%Y-%m-%d %H:%M:%S` on the parameter's clock (seconds optional, `T`
   * or a space), or ISO 8601 with an offset (an exact instant). Checked against
   * the calendar here; the operation applies the clock (resolveApiTime).
   * `clockOnly`: `HH:MM[:SS]` alone as well (creation's 1.4.4 `time`).
   */
  time: (options: { clockOnly?: boolean } = {}) => {
    const expected = options.clockOnly ? `${API_TIME_FORMS}, or HH:MM` : API_TIME_FORMS;
    return z
      .string()
      .max(64, expected)
      .transform((s, ctx): ApiTime => {
        const time = readApiTime(s, options);
        if (time) return time;
        ctx.addIssue({ code: "custom", message: expected });
        return z.NEVER;
      })
      .meta({ examples: options.clockOnly ? ["2030-01-15 10:00:00", "2030-01-15T10:00:00+03:00", "10:00"] : ["2030-01-15 10:00:00", "2030-01-15T10:00:00+03:00"] });
  },
  phone: () => z.string().max(32, "phone number").regex(/^\+?[\d\s()-]{5,}$/, "phone number").meta({ examples: ["+79161234567", "89161234567", "+998919800555"] }),
  /** A JSON text; the operation validates its structure. */
  json: () =>
    z
      .string()
      .max(20_000, "JSON of at most 20000 characters")
      .transform((s, ctx) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(s) as unknown;
        } catch {
          ctx.addIssue({ code: "custom", message: "JSON" });
          return z.NEVER;
        }
        if (holdsUnstorableText(parsed)) {
          ctx.addIssue({ code: "custom", message: "JSON without NUL characters or unpaired surrogates" });
          return z.NEVER;
        }
        return parsed;
      }),
};

export type ParamIssue = { kind: "missing" | "bad"; parameter: string; expected?: string };

/** Validates the raw parameters against an operation's input schema. */
export function parseParams<S extends z.ZodType>(schema: S, params: RawParams):
  | { ok: true; value: z.output<S> }
  | { ok: false; issue: ParamIssue } {
  // A NUL character cannot be stored or compared in PostgreSQL text: refused, named.
  const known = (schema as { shape?: Record<string, unknown> }).shape;
  for (const [name, value] of params) {
    if (holdsUnstorableText(value) && (!known || name in known)) return { ok: false, issue: { kind: "bad", parameter: name, expected: "text without NUL characters or unpaired surrogates" } };
  }
  const result = schema.safeParse(Object.fromEntries(params));
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const parameter = String(issue?.path[0] ?? "");
  if (issue && issue.code === "invalid_type" && !params.has(parameter)) {
    return { ok: false, issue: { kind: "missing", parameter } };
  }
  // zod's own messages ("Invalid input: expected string ...") are not ours to show people.
  const expected = issue?.message && !/^(Invalid|Too (big|small)|Unrecognized)/.test(issue.message) ? issue.message : undefined;
  return { ok: false, issue: { kind: "bad", parameter, expected } };
}
