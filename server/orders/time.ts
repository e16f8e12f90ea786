// Times as the dispatch API reads and writes them.
//
// Read: the reference's `%Y-%m-%d %H:%M:%S` (seconds optional, `T` or a space
// between date and time) on a named clock (the city's, or UTC where the
// parameter says so), or ISO 8601 with an offset (`2030-01-15T10:00:00+03:00`,
// `...Z`), which is an exact instant whatever the parameter's clock. Every
// field is checked against the calendar (2030-02-30, 24:00 and 10:60 are
// refused), and a wall-clock time that does not exist on the named clock (a
// daylight-saving gap) is refused too: a time either means exactly what it
// says or is refused, never dropped.
// Written: `%Y-%m-%d %H:%M:%S` on the city's clock (the reference's form), and
// beside it ISO 8601 with the city's offset (`formatIso`).

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** A time parameter as read, before a clock is applied. */
export type ApiTime =
  | { kind: "instant"; at: Date }
  | { kind: "wall"; wall: WallClock }
  /** `HH:MM[:SS]` alone (creation's 1.4.4 `time`): the next such time on the clock. */
  | { kind: "clock"; hour: number; minute: number; second: number };

export const API_TIME_FORMS = "YYYY-MM-DD HH:MM[:SS] or ISO 8601 with an offset (2030-01-15T10:00:00+03:00, ...Z)";

const FULL = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validClock(hour: number, minute: number, second: number): boolean {
  return hour <= 23 && minute <= 59 && second <= 59;
}

/**
 * Reads a time parameter. `clockOnly` also admits `HH:MM[:SS]` alone.
 * Undefined: not a time (the caller refuses it with BAD_PARAMETER).
 */
export function readApiTime(text: string, options: { clockOnly?: boolean } = {}): ApiTime | undefined {
  const trimmed = text.trim();
  const m = FULL.exec(trimmed);
  if (m) {
    // Missing groups are undefined, never NaN: each is defaulted before Number().
    const num = (s: string | undefined) => Number(s ?? "0");
    const wall: WallClock = {
      year: num(m[1]),
      month: num(m[2]),
      day: num(m[3]),
      hour: num(m[4]),
      minute: num(m[5]),
      second: num(m[6]),
      millisecond: num((m[7] ?? "").padEnd(3, "0")),
    };
    if (wall.year < 1 || wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.day > daysIn(wall.year, wall.month)) return undefined;
    if (!validClock(wall.hour, wall.minute, wall.second)) return undefined;
    const utc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
    if (m[8]) return { kind: "instant", at: new Date(utc) };
    if (m[9]) {
      const hours = num(m[10]);
      const minutes = num(m[11]);
      if (hours > 18 || minutes > 59) return undefined;
      const sign = m[9] === "-" ? -1 : 1;
      return { kind: "instant", at: new Date(utc - sign * (hours * 60 + minutes) * 60_000) };
    }
    return { kind: "wall", wall };
  }
  const c = options.clockOnly ? CLOCK.exec(trimmed) : null;
  if (c) {
    const hour = Number(c[1]);
    const minute = Number(c[2]);
    const second = Number(c[3] ?? "0");
    if (!validClock(hour, minute, second)) return undefined;
    return { kind: "clock", hour, minute, second };
  }
  return undefined;
}

function parts(at: Date, timeZone: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at)) {
    if (part.type !== "literal") out[part.type] = Number(part.value);
  }
  return out;
}

const pad = (n: number | undefined, width = 2) => String(n ?? 0).padStart(width, "0");

export function formatLocal(at: Date, timeZone: string): string {
  const p = parts(at, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

function offsetMs(at: Date, timeZone: string): number {
  const p = parts(at, timeZone);
  const asUtc = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** ISO 8601 with the clock's offset: `2030-01-15T10:00:00+03:00`. */
export function formatIso(at: Date, timeZone: string): string {
  const offsetMinutes = Math.round(offsetMs(at, timeZone) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${formatLocal(at, timeZone).replace(" ", "T")}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** A wall-clock time on `timeZone`; undefined when the clock never shows it (a daylight-saving gap). */
function fromWall(wall: WallClock, timeZone: string): Date | undefined {
  const guess = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
  if (timeZone === "UTC") return new Date(guess);
  const first = guess - offsetMs(new Date(guess), timeZone);
  const at = new Date(guess - offsetMs(new Date(first), timeZone));
  const shown = parts(at, timeZone);
  const same =
    shown.year === wall.year && shown.month === wall.month && shown.day === wall.day && shown.hour === wall.hour && shown.minute === wall.minute && shown.second === wall.second;
  return same ? at : undefined;
}

/**
 * The instant a time parameter names on `timeZone` (the city's, or "UTC").
 * Undefined: a wall-clock time that does not exist there.
 */
export function resolveApiTime(time: ApiTime, timeZone: string, now = new Date()): Date | undefined {
  if (time.kind === "instant") return time.at;
  if (time.kind === "wall") return fromWall(time.wall, timeZone);
  // The next such time in the city: today, or tomorrow when it has passed.
  const today = parts(now, timeZone);
  const on = (base: Record<string, number>) =>
    fromWall({ year: base.year ?? 1970, month: base.month ?? 1, day: base.day ?? 1, hour: time.hour, minute: time.minute, second: time.second, millisecond: 0 }, timeZone);
  const at = on(today);
  if (!at || at.getTime() > now.getTime()) return at;
  return on(parts(new Date(now.getTime() + 24 * 3_600_000), timeZone));
}

/** "YYYY-MM-DD HH:MM[:SS]" (or ISO 8601 with an offset) read on `timeZone` (or "UTC"). */
export function parseLocal(text: string, timeZone: string): Date | undefined {
  const time = readApiTime(text);
  return time ? resolveApiTime(time, timeZone) : undefined;
}

/**
 * The `time` parameter of creation (1.4.4, before pre_order_time): a full
 * datetime, or only "HH:MM[:SS]", the next such wall-clock time in the city.
 */
export function parseOrderTime(text: string, timeZone: string, now = new Date()): Date | undefined {
  const time = readApiTime(text, { clockOnly: true });
  return time ? resolveApiTime(time, timeZone, now) : undefined;
}
