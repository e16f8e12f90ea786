// The reports' periods (server/reports/period.ts): shift days in a city's
// time zone from the company's shift start, weeks and months, ranges of at
// most a year, daylight-saving changes; and the exports' cell rules
// (server/reports/export.ts, tables.ts): formula escaping and exact roubles.
import { describe, expect, it } from "vitest";
import { resolvePeriod, shiftDayOf } from "@/server/reports/period";
import { escapeFormula } from "@/server/reports/export";
import { roubles } from "@/server/reports/tables";
import { parseExportParams } from "@/server/reports/query";
import { isDomainError } from "@/server/errors";

function reason(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return isDomainError(error) ? error.details.reasonKey : error;
  }
  return undefined;
}

describe("periods", () => {
  it("a shift runs from the shift start to the next day's, in the city's zone", () => {
    const p = resolvePeriod({ period: "shift", date: "2026-11-20" }, "Europe/Moscow", 8);
    expect(p.from.toISOString()).toBe("2026-11-20T05:00:00.000Z");
    expect(p.to.toISOString()).toBe("2026-11-21T05:00:00.000Z");
    expect(p.days).toEqual(["2026-11-20"]);
    const day = resolvePeriod({ period: "day", date: "2026-11-20" }, "Asia/Yekaterinburg", 8);
    expect(day.from.toISOString()).toBe("2026-11-19T19:00:00.000Z");
  });

  it("the current shift day: before the shift start it is still yesterday's", () => {
    expect(shiftDayOf(new Date("2026-11-25T04:59:00Z"), "Europe/Moscow", 8)).toBe("2026-11-24");
    expect(shiftDayOf(new Date("2026-11-25T05:00:00Z"), "Europe/Moscow", 8)).toBe("2026-11-25");
    const now = resolvePeriod({ period: "shift" }, "Europe/Moscow", 8, new Date("2026-11-25T03:00:00Z"));
    expect(now.firstDay).toBe("2026-11-24");
  });

  it("weeks start on Monday, months on the 1st; a range is inclusive", () => {
    const week = resolvePeriod({ period: "week", date: "2026-11-25" }, "Europe/Moscow", 8);
    expect(week.days[0]).toBe("2026-11-23");
    expect(week.days).toHaveLength(7);
    const month = resolvePeriod({ period: "month", date: "2026-02-14" }, "Europe/Moscow", 8);
    expect(month.days).toHaveLength(28);
    expect(month.to.toISOString()).toBe("2026-03-01T05:00:00.000Z");
    const range = resolvePeriod({ period: "range", from: "2026-01-01", to: "2026-12-31" }, "Europe/Moscow", 8);
    expect(range.days).toHaveLength(365);
  });

  it("across a daylight-saving change the shift keeps its local hour", () => {
    const p = resolvePeriod({ period: "range", from: "2026-03-28", to: "2026-03-29" }, "Europe/Berlin", 8);
    expect(p.from.toISOString()).toBe("2026-03-28T07:00:00.000Z");
    expect(p.to.toISOString()).toBe("2026-03-30T06:00:00.000Z");
  });

  it("refuses a range over a year, a reversed one, a malformed or impossible date", () => {
    expect(reason(() => resolvePeriod({ period: "range", from: "2025-01-01", to: "2026-01-02" }, "UTC", 8))).toBe("reportPeriodTooLong");
    expect(reason(() => resolvePeriod({ period: "range", from: "2026-02-01", to: "2026-01-01" }, "UTC", 8))).toBe("reportRangeReversed");
    expect(reason(() => resolvePeriod({ period: "day", date: "2026-02-30" }, "UTC", 8))).toBe("reportDateInvalid");
    expect(reason(() => resolvePeriod({ period: "day", date: "25.11.2026" }, "UTC", 8))).toBe("reportDateInvalid");
  });
});

describe("export parameters and cells", () => {
  it("reads known filters, names an unknown one, refuses a repeated or malformed one", () => {
    expect(parseExportParams(new URLSearchParams("period=week&cityId=1&source=API&locale=en"))).toEqual({ period: "week", cityId: 1, source: "API" });
    expect(reason(() => parseExportParams(new URLSearchParams("period=week&colour=red")))).toBe("reportUnknownFilter");
    expect(reason(() => parseExportParams(new URLSearchParams("period=week&cityId=1&cityId=2")))).toBe("reportBadFilter");
    expect(reason(() => parseExportParams(new URLSearchParams("period=week&cityId=1e3")))).toBe("reportBadFilter");
    expect(reason(() => parseExportParams(new URLSearchParams("period=forever")))).toBe("reportBadFilter");
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    for (const text of ["=1+1", "+7916", "-2", "@SUM(A1)", "\t=x", "\r=x"]) expect(escapeFormula(text)).toBe(`'${text}`);
    for (const text of ["Ленина", "1+1", "", "a=b"]) expect(escapeFormula(text)).toBe(text);
  });

  it("writes kopecks as exact roubles", () => {
    expect(roubles(0n)).toBe("0.00");
    expect(roubles(5n)).toBe("0.05");
    expect(roubles(123456n)).toBe("1234.56");
    expect(roubles(-1205n)).toBe("-12.05");
    expect(roubles(9_007_199_254_740_993n)).toBe("90071992547409.93");
  });
});
