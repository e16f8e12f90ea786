// The advance order's pickup time as a dispatcher types it (issue 34): "+30"
// (minutes from now), "+2ч"/"+2h", "22:30" (today), "завтра 7:00" /
// "tomorrow 7:00", "26.11 9:15" (this year), always in the city's time zone,
// whatever the browser's. Pure, for the phone-order form and its tests.
//
// Our own code rather than a date library: the forms are a handful of
// patterns, and the time zone arithmetic needs only Intl (in every browser
// and in Node), which a library would wrap the same way.

export type AdvanceTime = { at: Date } | { error: "unreadable" | "past" | "empty" };

/** The city's wall clock (year, month 1..12, day, hour, minute) at an instant. */
export function wallClock(ms: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number } {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" }).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { y: n("year"), mo: n("month"), d: n("day"), h: n("hour"), mi: n("minute") };
}

/** The instant the city's clock shows this wall time (the offset rechecked once for a daylight-saving change). */
export function fromWallClock(y: number, mo: number, d: number, h: number, mi: number, timeZone: string): Date {
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  const offsetAt = (ms: number) => {
    const w = wallClock(ms, timeZone);
    return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi) - Math.floor(ms / 60_000) * 60_000;
  };
  let at = asUtc - offsetAt(asUtc);
  at = asUtc - offsetAt(at);
  return new Date(at);
}

const TOMORROW = /^(завтра|tomorrow|зав|tmr)\s+/i;
const AFTER = /^(послезавтра|after tomorrow)\s+/i;

/** Reads what was typed; `now` is the instant to measure from (the caller's clock). */
export function parseAdvanceTime(typed: string, now: number, timeZone: string): AdvanceTime {
  const text = typed.trim().toLowerCase().replace(/\s+/g, " ");
  if (!text) return { error: "empty" };
  const relative = /^\+ ?(\d{1,4}) ?(мин|м|min|m|ч|h)?$/.exec(text);
  if (relative) {
    const amount = Number(relative[1]);
    const hours = relative[2] === "ч" || relative[2] === "h";
    const at = new Date(Math.ceil((now + amount * (hours ? 3_600_000 : 60_000)) / 60_000) * 60_000);
    return amount > 0 && amount <= (hours ? 24 * 30 : 60 * 24 * 30) ? { at } : { error: "unreadable" };
  }
  let rest = text;
  let addDays = 0;
  if (AFTER.test(rest)) {
    addDays = 2;
    rest = rest.replace(AFTER, "");
  } else if (TOMORROW.test(rest)) {
    addDays = 1;
    rest = rest.replace(TOMORROW, "");
  }
  const today = wallClock(now, timeZone);
  let day = { y: today.y, mo: today.mo, d: today.d };
  const dated = /^(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))? (.+)$/.exec(rest);
  if (dated && addDays === 0) {
    day = { y: dated[3] ? Number(dated[3]) : today.y, mo: Number(dated[2]), d: Number(dated[1]) };
    rest = dated[4]!;
  }
  const clock = /^(\d{1,2})(?:[:.](\d{2}))?$/.exec(rest);
  if (!clock) return { error: "unreadable" };
  const h = Number(clock[1]);
  const mi = Number(clock[2] ?? "0");
  if (h > 23 || mi > 59 || day.mo < 1 || day.mo > 12 || day.d < 1 || day.d > 31) return { error: "unreadable" };
  // Days are added on the calendar (a UTC date does the month ends), then read on the city's clock.
  const shifted = new Date(Date.UTC(day.y, day.mo - 1, day.d + addDays));
  if (shifted.getUTCDate() !== day.d + addDays && addDays === 0) return { error: "unreadable" };
  const at = fromWallClock(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate(), h, mi, timeZone);
  // A minute's grace: "22:30" typed at 22:30 is now, not the past.
  if (at.getTime() < now - 60_000) return { error: "past" };
  return { at };
}
