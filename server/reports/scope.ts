// A report query made concrete: the city's time zone, the shift start, the
// period's instants, and the orders' filter as SQL conditions with numbered
// parameters. Every report's statement starts from these.
import type { DbOrTx } from "../db";
import { DomainError } from "../errors";
import { resolvePeriod, type Period } from "./period";
import type { ReportQuery } from "./query";
import { shiftStartHour } from "./settings";

export interface Scope {
  query: ReportQuery;
  period: Period;
}

export async function resolveScope(db: DbOrTx, query: ReportQuery, now = new Date()): Promise<Scope> {
  const city = query.cityId
    ? await db.city.findUnique({ where: { id: query.cityId }, select: { timezone: true } })
    : await db.city.findFirst({ orderBy: { id: "asc" }, select: { timezone: true } });
  if (query.cityId && !city) throw new DomainError("NOT_FOUND", { what: "City", id: query.cityId });
  const timeZone = city?.timezone ?? "Europe/Moscow";
  return { query, period: resolvePeriod(query, timeZone, await shiftStartHour(db), now) };
}

/** SQL text with $n parameters collected as they are added. */
export class Sql {
  readonly params: unknown[] = [];
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  /** A UTC timestamp (the columns are UTC timestamps without a zone). */
  instant(value: Date): string {
    return `(${this.param(value.toISOString())}::timestamptz AT TIME ZONE 'UTC')`;
  }
  /** The report day (YYYY-MM-DD) of a UTC timestamp column in the period: local time in the zone, less the shift start hours. */
  dayOf(column: string, period: Period): string {
    return this.label(column, period, (t) => `to_char(((${t} AT TIME ZONE 'UTC') AT TIME ZONE ${this.param(period.timeZone)}) - make_interval(hours => ${this.param(period.shiftStartHour)}::int), 'YYYY-MM-DD')`);
  }
  /** The local hour (0..23) of a UTC timestamp column in the period. */
  hourOf(column: string, period: Period): string {
    return this.label(column, period, (t) => `extract(hour FROM ((${t} AT TIME ZONE 'UTC') AT TIME ZONE ${this.param(period.timeZone)}))::int`);
  }
  /**
   * A label of local time (the day, the hour) of a column's instants inside the period, without converting each row's
   * time zone (the cost of a month of a million rows): the label is computed once per quarter hour of the period (every
   * zone's offset is a whole number of quarter hours and the shift starts on the hour, so it is constant within one), the
   * instants where it changes kept as thresholds, and each row's label found among them by width_bucket's binary search.
   */
  private label(column: string, period: Period, of: (t: string) => string): string {
    const steps = `generate_series(date_bin('15 minutes', ${this.instant(period.from)}, TIMESTAMP '2000-01-01'), ${this.instant(period.to)}, interval '15 minutes')`;
    const changes = `(SELECT t, label FROM (SELECT t, label, lag(label) OVER (ORDER BY t) AS prev FROM (SELECT t, ${of("t")} AS label FROM ${steps} t) a) b WHERE prev IS NULL OR prev <> label)`;
    return `((SELECT array_agg(label ORDER BY t) FROM ${changes} l)[width_bucket(${column}, (SELECT array_agg(t ORDER BY t) FROM ${changes} c))])`;
  }
}

/** The orders' filters (not the period) on the alias `o` of table orders. */
export function orderFilters(sql: Sql, query: ReportQuery, alias = "o"): string {
  const where: string[] = [];
  if (query.cityId) where.push(`${alias}.city_id = ${sql.param(query.cityId)}`);
  if (query.serviceId) where.push(`${alias}.service_id = ${sql.param(query.serviceId)}`);
  if (query.regionId) where.push(`${alias}.region_id = ${sql.param(query.regionId)}`);
  if (query.driverId) where.push(`${alias}.driver_id = ${sql.param(query.driverId)}`);
  if (query.source) where.push(`${alias}.source = ${sql.param(query.source)}::"OrderSource"`);
  if (query.apiKeyId) where.push(`${alias}.api_key_id = ${sql.param(query.apiKeyId)}`);
  return where.length ? where.join(" AND ") : "TRUE";
}

/** Orders created in the period and matching the filters. */
export function createdInPeriod(sql: Sql, scope: Scope, alias = "o"): string {
  return `${alias}.created_at >= ${sql.instant(scope.period.from)} AND ${alias}.created_at < ${sql.instant(scope.period.to)} AND ${orderFilters(sql, scope.query, alias)}`;
}

/** Exact money from SQL: sums come back as text and become bigint kopecks here. */
export function kopecks(value: unknown): bigint {
  if (value === null || value === undefined) return 0n;
  return BigInt(String(value));
}

export function num(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/** Seconds with one decimal, or null when nothing was measured. */
export function seconds(value: unknown): number | null {
  return value === null || value === undefined ? null : Math.round(Number(value) * 10) / 10;
}
