// The local hour of a moment in a city's time zone: which rate is in force,
// how fast the roads are. Asked on every estimate and order, and
// Intl.DateTimeFormat.format costs microseconds each time (1.6% of the
// server's CPU for estimates under load, docs/performance.md), so each zone
// remembers the hour of the last minute it was asked about. Time zones'
// offsets today are whole minutes, so one minute has one local hour.
interface Zone {
  format: Intl.DateTimeFormat;
  /** Minutes since the epoch of the last answer, and that answer. */
  minute: number;
  hour: number;
}

const zones = new Map<string, Zone>();
/** Cities' zones are few; a bound against a caller passing arbitrary names. */
const MAX_ZONES = 1_000;

/** The hour (0..23) of `at` in a time zone (an IANA name; an unknown one throws RangeError). */
export function localHour(at: Date, timeZone: string): number {
  const minute = Math.floor(at.getTime() / 60_000);
  let zone = zones.get(timeZone);
  if (!zone) {
    zone = { format: new Intl.DateTimeFormat("en-GB", { hour: "numeric", hourCycle: "h23", timeZone }), minute: Number.NaN, hour: 0 };
    if (zones.size < MAX_ZONES) zones.set(timeZone, zone);
  }
  if (zone.minute !== minute) {
    zone.hour = Number(zone.format.format(at)) % 24;
    zone.minute = minute;
  }
  return zone.hour;
}
