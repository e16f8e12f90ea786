// Report periods in the company's terms: a shift day starts at the hour the
// company sets (reports.shiftStartHour, default 8) in the city's time zone and
// lasts until the same hour the next day. A "shift" is one shift day; a "day"
// is the calendar day (00:00–24:00 local); a week starts on Monday's shift
// start, a month on the 1st's; a range runs from the shift start of `from` to
// the shift end of `to` (inclusive), at most a year.
// Time zones through Intl (the runtime's ICU data), no date library: the one
// conversion needed is a local wall-clock time to an instant.
import { ReportError } from "./errors";

export type PeriodKind = "shift" | "day" | "week" | "month" | "range";

export interface PeriodInput {
  period: PeriodKind;
  /** The shift day (YYYY-MM-DD) for shift/day/week/month; default: the current shift day. */
  date?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface Period {
  kind: PeriodKind;
  /** Inclusive start, exclusive end (instants). */
  from: Date;
  to: Date;
  /** The local date the period starts on (YYYY-MM-DD). */
  firstDay: string;
  /** Local dates covered (for per-day tables): each a shift day, or a calendar day for "day". */
  days: string[];
  timeZone: string;
  shiftStartHour: number;
}

/** At most a year: 366 shift days (a leap year). */
export const MAX_DAYS = 366;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A valid calendar date, or a ReportError naming the field. */
export function parseDay(value: string, field: string): { y: number; m: number; d: number } {
  const match = DATE.exec(value);
  if (!match) throw new ReportError("reportDateInvalid", { field, value });
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d || y < 2000 || y > 2100) {
    throw new ReportError("reportDateInvalid", { field, value });
  }
  return { y, m, d };
}

function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant of a local wall-clock time in a zone (a time skipped by a DST jump moves forward). */
export function localToInstant(y: number, m: number, d: number, hour: number, timeZone: string): Date {
  const guess = Date.UTC(y, m - 1, d, hour);
  let instant = new Date(guess - offsetMinutes(new Date(guess), timeZone) * 60_000);
  // Once more with the offset at the found instant (correct across a change of offset).
  instant = new Date(guess - offsetMinutes(instant, timeZone) * 60_000);
  return instant;
}

/** The local date (YYYY-MM-DD) and hour of an instant. */
export function localParts(instant: Date, timeZone: string): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit" }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return { day: `${get("year")}-${get("month")}-${get("day")}`, hour: Number(get("hour")) };
}

function addDays(day: { y: number; m: number; d: number }, n: number): { y: number; m: number; d: number } {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

function iso(day: { y: number; m: number; d: number }): string {
  return `${String(day.y).padStart(4, "0")}-${String(day.m).padStart(2, "0")}-${String(day.d).padStart(2, "0")}`;
}

/** The shift day an instant belongs to (before the shift start hour: the day before). */
export function shiftDayOf(instant: Date, timeZone: string, shiftStartHour: number): string {
  const { day, hour } = localParts(instant, timeZone);
  if (hour >= shiftStartHour) return day;
  return iso(addDays(parseDay(day, "date"), -1));
}

export function resolvePeriod(input: PeriodInput, timeZone: string, shiftStartHour: number, now = new Date()): Period {
  const base = input.date ? parseDay(input.date, "date") : parseDay(shiftDayOf(now, timeZone, shiftStartHour), "date");
  let first: { y: number; m: number; d: number };
  let count: number;
  let startHour = shiftStartHour;
  switch (input.period) {
    case "shift":
      first = base;
      count = 1;
      break;
    case "day":
      first = base;
      count = 1;
      startHour = 0;
      break;
    case "week": {
      const weekday = (new Date(Date.UTC(base.y, base.m - 1, base.d)).getUTCDay() + 6) % 7; // Monday 0
      first = addDays(base, -weekday);
      count = 7;
      break;
    }
    case "month": {
      first = { y: base.y, m: base.m, d: 1 };
      count = new Date(Date.UTC(base.y, base.m, 0)).getUTCDate();
      break;
    }
    case "range": {
      if (!input.from) throw new ReportError("reportDateInvalid", { field: "from", value: "" });
      if (!input.to) throw new ReportError("reportDateInvalid", { field: "to", value: "" });
      first = parseDay(input.from, "from");
      const last = parseDay(input.to, "to");
      count = Math.round((Date.UTC(last.y, last.m - 1, last.d) - Date.UTC(first.y, first.m - 1, first.d)) / 86_400_000) + 1;
      if (count < 1) throw new ReportError("reportRangeReversed", { from: input.from, to: input.to });
      if (count > MAX_DAYS) throw new ReportError("reportPeriodTooLong", { days: count, max: MAX_DAYS });
      break;
    }
  }
  const end = addDays(first, count);
  const days = Array.from({ length: count }, (_, i) => iso(addDays(first, i)));
  return {
    kind: input.period,
    from: localToInstant(first.y, first.m, first.d, startHour, timeZone),
    to: localToInstant(end.y, end.m, end.d, startHour, timeZone),
    firstDay: iso(first),
    days,
    timeZone,
    shiftStartHour: startHour,
  };
}
