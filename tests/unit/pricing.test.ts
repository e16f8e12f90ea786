import { describe, expect, it } from "vitest";
import { computeFare } from "@/server/pricing/fare";
import { rateAppliesAt, type RateRow } from "@/server/pricing/rates";
import { localHour } from "@/server/geo/local-hour";
import { issuePriceToken, verifyPriceToken } from "@/server/pricing/token";
import { formatLocal, parseLocal } from "@/server/orders/time";

process.env.APP_SECRET ??= "unit-test-secret-unit-test-secret-0123456";

const rate: RateRow = {
  id: 1, cityId: 1, serviceId: 1, queueId: null, name: "day", isBasic: true, kind: "FIXED",
  pickUp: 9900, minFare: 19900, kmCost: 2200, kmStart: 2, minuteCost: 800,
  standCost: 1000, freeStandTime: 3, waitCost: 900, freeWaitTime: 5, roundTo: 1000, startHour: 6, endHour: 22,
};

describe("fare", () => {
  it("charges pick-up, paid kilometres and minutes, rounded up to the rate's step", () => {
    const fare = computeFare({ rate, distanceMetres: 10_000, routeSeconds: 1200, extras: [], markupPercent: 0, bonusAvailable: 0, bonusMaxPercent: 30, useBonuses: false });
    // 99 + 8 km * 22 + 20 min * 8 = 99 + 176 + 160 = 435 roubles -> 440
    expect(fare.trip).toBe(43_500);
    expect(fare.total).toBe(44_000);
  });

  it("keeps the minimum fare, adds extras, demand markup and takes bonuses within the cap", () => {
    const short = computeFare({ rate, distanceMetres: 500, routeSeconds: 60, extras: [], markupPercent: 0, bonusAvailable: 0, bonusMaxPercent: 30, useBonuses: false });
    expect(short.trip).toBe(19_900);
    const full = computeFare({ rate, distanceMetres: 10_000, routeSeconds: 1200, extras: [{ id: 1, price: 15_000, count: 2 }], markupPercent: 20, bonusAvailable: 10_000, bonusMaxPercent: 30, useBonuses: true });
    expect(full.loadMarkup).toBe(8_700);
    expect(full.extras).toBe(30_000);
    const beforeBonus = 43_500 + 8_700 + 30_000; // 822 roubles -> 830
    expect(full.bonusUsed).toBe(Math.floor((83_000 * 0.3) / 100));
    expect(full.total).toBe(83_000 - full.bonusUsed * 100);
    expect(beforeBonus).toBeLessThanOrEqual(83_000);
  });
});

describe("rates in force", () => {
  it("handles day, night (over midnight) and all-day rates", () => {
    expect(rateAppliesAt({ startHour: 6, endHour: 22 }, 12)).toBe(true);
    expect(rateAppliesAt({ startHour: 6, endHour: 22 }, 22)).toBe(false);
    expect(rateAppliesAt({ startHour: 22, endHour: 6 }, 23)).toBe(true);
    expect(rateAppliesAt({ startHour: 22, endHour: 6 }, 3)).toBe(true);
    expect(rateAppliesAt({ startHour: 22, endHour: 6 }, 12)).toBe(false);
    expect(rateAppliesAt({ startHour: null, endHour: null }, 5)).toBe(true);
    expect(localHour(new Date("2026-01-01T20:30:00Z"), "Europe/Moscow")).toBe(23);
  });

  it("gives the local hour at every minute's edge, in zones with half- and quarter-hour offsets and across summer time", () => {
    const at = (iso: string, zone: string) => localHour(new Date(iso), zone);
    // Kathmandu is UTC+5:45: 18:14:59Z is 23:59:59 there, 18:15Z is midnight.
    expect(at("2026-01-01T18:14:59.999Z", "Asia/Kathmandu")).toBe(23);
    expect(at("2026-01-01T18:15:00.000Z", "Asia/Kathmandu")).toBe(0);
    expect(at("2026-01-01T18:14:30.000Z", "Asia/Kathmandu")).toBe(23);
    // Adelaide is UTC+10:30 in January (summer time).
    expect(at("2026-01-01T13:29:00Z", "Australia/Adelaide")).toBe(23);
    expect(at("2026-01-01T13:30:00Z", "Australia/Adelaide")).toBe(0);
    // Berlin leaves summer time at 01:00Z on 25 October 2026: 02:59 CEST, then 02:00 CET.
    expect(at("2026-10-25T00:59:59Z", "Europe/Berlin")).toBe(2);
    expect(at("2026-10-25T01:00:00Z", "Europe/Berlin")).toBe(2);
    expect(at("2026-10-25T02:00:00Z", "Europe/Berlin")).toBe(3);
    // Asked again for an earlier minute: the answer is that minute's, not the last one's.
    expect(at("2026-01-01T18:14:59Z", "Asia/Kathmandu")).toBe(23);
    expect(() => localHour(new Date(), "Not/AZone")).toThrow(RangeError);
  });
});

describe("price token", () => {
  const claims = {
    amount: 44_000, distance: 10_000, routeTime: 1200, cityId: 1, serviceId: 1, queueId: null, rateId: 1, regionId: 2,
    phone: "79161234567", customerId: null, points: [{ street: "ул. Ленина", house: "2", lat: 55.7, lon: 37.6 }],
    extras: [], preOrderTime: null, bonusUsed: 0, markupPercent: 0,
  };

  it("verifies what it signed", () => {
    const token = issuePriceToken(claims, 600);
    expect(verifyPriceToken(token).amount).toBe(44_000);
  });

  it("refuses an expired, altered or foreign token", () => {
    const token = issuePriceToken(claims, 60, Date.now() - 120_000);
    expect(() => verifyPriceToken(token)).toThrow(expect.objectContaining({ code: "TOKEN_EXPIRED" }));
    const good = issuePriceToken(claims, 600);
    const [body, sig] = good.split(".");
    const altered = `${Buffer.from(Buffer.from(body!, "base64url").toString().replace("44000", "1")).toString("base64url")}.${sig}`;
    expect(() => verifyPriceToken(altered)).toThrow(expect.objectContaining({ code: "TOKEN_INVALID" }));
    expect(() => verifyPriceToken(`${body}.AAAA`)).toThrow(expect.objectContaining({ code: "TOKEN_INVALID" }));
    expect(() => verifyPriceToken("garbage")).toThrow(expect.objectContaining({ code: "TOKEN_INVALID" }));
  });
});

describe("times", () => {
  it("reads and writes wall-clock times of a time zone", () => {
    const at = parseLocal("2026-03-01 10:15:00", "Europe/Moscow")!;
    expect(at.toISOString()).toBe("2026-03-01T07:15:00.000Z");
    expect(formatLocal(at, "Europe/Moscow")).toBe("2026-03-01 10:15:00");
    expect(parseLocal("2026-03-01 10:15:00", "UTC")!.toISOString()).toBe("2026-03-01T10:15:00.000Z");
    expect(parseLocal("yesterday", "UTC")).toBeUndefined();
  });
});
