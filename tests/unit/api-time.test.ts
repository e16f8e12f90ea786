// Times as the dispatch API reads them (server/orders/time.ts): every form
// means exactly one instant or is refused. Before the fix "2030-01-15 10:00"
// (no seconds) read as nothing at all (NaN seconds), and 2030-02-30 rolled
// over into March.
import { describe, expect, it } from "vitest";
import { formatIso, parseLocal, parseOrderTime, readApiTime, resolveApiTime } from "@/server/orders/time";

const at = (text: string, zone: string) => {
  const time = readApiTime(text, { clockOnly: true });
  return time ? resolveApiTime(time, zone)?.toISOString() : undefined;
};

describe("reading a time parameter", () => {
  it("reads the reference's form with or without seconds on the named clock", () => {
    for (const text of ["2030-01-15 10:00:00", "2030-01-15 10:00", "2030-01-15T10:00", " 2030-01-15 10:00:00.000 "]) expect(at(text, "Europe/Moscow"), text).toBe("2030-01-15T07:00:00.000Z");
    expect(at("2030-01-15 10:00", "UTC")).toBe("2030-01-15T10:00:00.000Z");
  });

  it("reads ISO 8601 with an offset as the instant itself, whatever the clock", () => {
    for (const zone of ["UTC", "Europe/Moscow", "America/New_York"]) {
      for (const text of ["2030-01-15T10:00:00+03:00", "2030-01-15T07:00Z", "2030-01-15T02:00:00-0500", "2030-01-15T12:30:00+05:30"]) {
        expect(at(text, zone), `${text} on ${zone}`).toBe("2030-01-15T07:00:00.000Z");
      }
    }
  });

  it("refuses what the calendar or the clock does not have", () => {
    for (const text of ["2030-02-30 10:00", "2030-02-29 10:00", "2030-04-31 10:00", "2030-13-01 10:00", "2030-01-15 24:00", "2030-01-15 10:60", "2030-01-15 10:00:60", "2030-01-15T10:00+19:00", "2030-01-15T10:00+03:60", "2030-01-15", "10:00 2030-01-15", ""]) {
      expect(readApiTime(text), text).toBeUndefined();
    }
    expect(readApiTime("2028-02-29 10:00")).toBeDefined();
    expect(readApiTime("10:00")).toBeUndefined(); // a clock time alone only where the parameter allows it
    expect(readApiTime("24:00", { clockOnly: true })).toBeUndefined();
  });

  it("refuses a wall-clock time the city's clock skips, and reads one it shows twice once", () => {
    expect(parseLocal("2026-03-29 02:30", "Europe/Berlin")).toBeUndefined();
    expect(parseLocal("2026-03-29 03:30", "Europe/Berlin")?.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(parseLocal("2026-10-25 02:30", "Europe/Berlin")).toBeDefined();
  });

  it("reads HH:MM as the next such time in the city", () => {
    const now = new Date("2030-01-15T07:00:00Z"); // 10:00 in Moscow
    expect(parseOrderTime("11:00", "Europe/Moscow", now)?.toISOString()).toBe("2030-01-15T08:00:00.000Z");
    expect(parseOrderTime("09:00", "Europe/Moscow", now)?.toISOString()).toBe("2030-01-16T06:00:00.000Z");
  });

  it("writes ISO 8601 with the city's offset", () => {
    expect(formatIso(new Date("2030-01-15T07:00:00Z"), "Europe/Moscow")).toBe("2030-01-15T10:00:00+03:00");
    expect(formatIso(new Date("2030-07-15T07:00:00Z"), "America/New_York")).toBe("2030-07-15T03:00:00-04:00");
    expect(formatIso(new Date("2030-01-15T07:00:00Z"), "UTC")).toBe("2030-01-15T07:00:00+00:00");
  });
});
