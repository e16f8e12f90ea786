import { describe, expect, it } from "vitest";
import { formatKopecks, formatKopecksExact, kopecksToInput, parseRoubles } from "../../shared/money";

describe("shared money: the one parser and formatter", () => {
  it("reads amounts as operators type them", () => {
    expect(parseRoubles("1 500")).toBe(150000);
    expect(parseRoubles("1500,5")).toBe(150050);
    expect(parseRoubles("1 234 567,89 ₽")).toBe(123456789);
    expect(parseRoubles("-20.05")).toBeNull();
    expect(parseRoubles("-20.05", { signed: true })).toBe(-2005);
    expect(parseRoubles("1.234")).toBeNull();
    expect(parseRoubles("")).toBeNull();
    expect(parseRoubles("abc")).toBeNull();
  });

  it("writes back what it reads", () => {
    for (const k of [0, 5, 150000, 150050, 123456789]) {
      expect(parseRoubles(kopecksToInput(k, "ru"))).toBe(k);
      expect(parseRoubles(kopecksToInput(k, "en"))).toBe(k);
    }
  });

  it("formats exactly, whole roubles bare when asked", () => {
    expect(formatKopecksExact(9007199254740993n, "en")).toContain("90,071,992,547,409.93");
    expect(formatKopecks(150000, "en", { wholeRoublesBare: true })).toBe("₽1,500");
    expect(formatKopecks(150050, "en", { wholeRoublesBare: true })).toBe("₽1,500.5");
    expect(formatKopecks(null, "ru")).toBe("—");
  });
});
