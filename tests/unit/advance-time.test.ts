// The advance order's typed pickup time (issue 34), read on the city's clock.
import { describe, expect, it } from "vitest";
import { parseAdvanceTime, fromWallClock } from "../../shared/orders/advance-time";

const MSK = "Europe/Moscow";
// 2026-11-25 21:10 in Moscow (UTC+3).
const NOW = Date.UTC(2026, 10, 25, 18, 10, 20);
const at = (typed: string, tz = MSK) => {
  const r = parseAdvanceTime(typed, NOW, tz);
  return "at" in r ? r.at.toISOString() : r.error;
};

describe("parseAdvanceTime", () => {
  it("reads minutes and hours from now, rounded up to the minute", () => {
    expect(at("+15")).toBe("2026-11-25T18:26:00.000Z");
    expect(at("+30")).toBe("2026-11-25T18:41:00.000Z");
    expect(at("+ 60 мин")).toBe("2026-11-25T19:11:00.000Z");
    expect(at("+2ч")).toBe("2026-11-25T20:11:00.000Z");
    expect(at("+2h")).toBe("2026-11-25T20:11:00.000Z");
  });

  it("reads a clock time today and tomorrow in the city's zone, not the browser's", () => {
    expect(at("22:30")).toBe("2026-11-25T19:30:00.000Z");
    expect(at("завтра 7:00")).toBe("2026-11-26T04:00:00.000Z");
    expect(at("Tomorrow 07:00")).toBe("2026-11-26T04:00:00.000Z");
    // Novosibirsk (UTC+7) is already on the 26th.
    expect(at("22:30", "Asia/Novosibirsk")).toBe("2026-11-26T15:30:00.000Z");
  });

  it("reads a date this year, across a month's end", () => {
    expect(at("26.11 9:15")).toBe("2026-11-26T06:15:00.000Z");
    expect(at("01.12.2026 0:05")).toBe("2026-11-30T21:05:00.000Z");
  });

  it("refuses a time in the past and what it cannot read", () => {
    expect(at("20:00")).toBe("past");
    expect(at("25.11 21:09")).toBe("past");
    expect(at("21:10")).toBe("2026-11-25T18:10:00.000Z"); // a minute's grace
    expect(at("24.11 10:00")).toBe("past");
    expect(at("25:00")).toBe("unreadable");
    expect(at("скоро")).toBe("unreadable");
    expect(at("+0")).toBe("unreadable");
    expect(at("")).toBe("empty");
  });

  it("finds the instant of a wall time across a daylight-saving change", () => {
    // Berlin: 2026-03-29 02:00 CET → 03:00 CEST; 10:00 is CEST (UTC+2).
    expect(fromWallClock(2026, 3, 29, 10, 0, "Europe/Berlin").toISOString()).toBe("2026-03-29T08:00:00.000Z");
    expect(fromWallClock(2026, 3, 28, 10, 0, "Europe/Berlin").toISOString()).toBe("2026-03-28T09:00:00.000Z");
  });
});
