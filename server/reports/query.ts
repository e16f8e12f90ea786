// What a report is asked for: the period and the filters. One zod schema for
// tRPC and the exports (whose query parameters are read into it by
// parseExportParams, which names an unknown filter instead of failing on it).
import { z } from "zod";
import { ReportError } from "./errors";

export const REPORT_KINDS = ["orders", "waits", "money", "drivers", "dispatch"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const ORDER_SOURCES = ["API", "CONSOLE", "EXCHANGE", "SIMULATOR"] as const;

const id = z.number().int().positive().max(2_147_483_647);
const day = z.string().max(10);

export const reportQuerySchema = z.strictObject({
  period: z.enum(["shift", "day", "week", "month", "range"]),
  date: day.optional(),
  from: day.optional(),
  to: day.optional(),
  cityId: id.optional(),
  serviceId: id.optional(),
  regionId: id.optional(),
  driverId: id.optional(),
  /** Where the orders came from; with API, optionally one dispatch API key. */
  source: z.enum(ORDER_SOURCES).optional(),
  apiKeyId: id.optional(),
});

export type ReportQuery = z.infer<typeof reportQuerySchema>;

const NUMERIC = new Set(["cityId", "serviceId", "regionId", "driverId", "apiKeyId"]);
const KNOWN = new Set(Object.keys(reportQuerySchema.shape));

/** An export's query parameters as a report query; ReportError (in the operator's words) for anything else. */
export function parseExportParams(params: URLSearchParams): ReportQuery & { locale?: string } {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of params) {
    if (key === "locale") continue;
    if (!KNOWN.has(key)) throw new ReportError("reportUnknownFilter", { field: key.slice(0, 40) });
    if (key in raw) throw new ReportError("reportBadFilter", { field: key });
    if (value === "") continue;
    if (NUMERIC.has(key)) {
      if (!/^\d{1,10}$/.test(value)) throw new ReportError("reportBadFilter", { field: key });
      raw[key] = Number(value);
    } else raw[key] = value;
  }
  const parsed = reportQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "period");
    throw new ReportError("reportBadFilter", { field });
  }
  return parsed.data;
}
