import { describe, expect, it } from "vitest";
import { ExchangeError } from "@/server/errors";
import { escapeBackslashes, escapeLike, MAX_TEXT, translateDriverCriteria } from "@/server/exchange/waterline";

function refusal(criteria: unknown): { code: string; parameter: unknown } {
  try {
    translateDriverCriteria(criteria);
  } catch (error) {
    if (error instanceof ExchangeError) return { code: error.code, parameter: error.details.parameter };
    throw error;
  }
  throw new Error("not refused");
}

describe("the Waterline driver filter", () => {
  it("escapes LIKE's metacharacters in text operands, one pass", () => {
    expect(escapeLike("a_b%c\\d")).toBe("a\\_b\\%c\\\\d");
    expect(escapeLike("plain")).toBe("plain");
    expect(escapeBackslashes("%a\\_%")).toBe("%a\\\\_%");
  });

  it("equality and in ignore case; equality's operand is escaped", () => {
    expect(translateDriverCriteria({ brand: "K_a" }).where).toEqual({ brand: { equals: "K\\_a", mode: "insensitive" } });
    expect(translateDriverCriteria({ brand: ["Kia", "Lada"] }).where).toEqual({ brand: { in: ["Kia", "Lada"], mode: "insensitive" } });
    expect(translateDriverCriteria({ carClass: 2 }).where).toEqual({ carClass: { equals: 2 } });
  });

  it("knows the word modifiers beside the symbols", () => {
    const words = translateDriverCriteria({ where: { carClass: { greaterThan: 1, lessThanOrEqual: 3 } } }).where;
    const symbols = translateDriverCriteria({ where: { carClass: { ">": 1, "<=": 3 } } }).where;
    expect(words).toEqual(symbols);
    expect(words).toEqual({ AND: [{ carClass: { gt: 1 } }, { carClass: { lte: 3 } }] });
    expect(translateDriverCriteria({ carClass: { lessThan: 2, greaterThanOrEqual: 0 } }).where).toEqual({ AND: [{ carClass: { lt: 2 } }, { carClass: { gte: 0 } }] });
  });

  it("like keeps its wildcards anywhere; contains and friends match the text literally", () => {
    expect(translateDriverCriteria({ name: { like: "%an_a%v%" } }).where).toEqual({ name: { equals: "%an_a%v%", mode: "insensitive" } });
    expect(translateDriverCriteria({ name: { contains: "50%" } }).where).toEqual({ name: { contains: "50\\%", mode: "insensitive" } });
    expect(translateDriverCriteria({ name: { startsWith: "a_" } }).where).toEqual({ name: { startsWith: "a\\_", mode: "insensitive" } });
  });

  it("null: no driver field is empty", () => {
    expect(translateDriverCriteria({ brand: null }).where).toEqual({ id: { in: [] } });
    expect(translateDriverCriteria({ brand: { "!": null } }).where).toEqual({});
    expect(translateDriverCriteria({ brand: { in: [null, "Kia"] } }).where).toEqual({ brand: { in: ["Kia"], mode: "insensitive" } });
    expect(translateDriverCriteria({ brand: { nin: [null] } }).where).toEqual({});
  });

  it("refuses what it does not know, naming it, and overlong text", () => {
    expect(refusal({ colour: "red" })).toEqual({ code: "BAD_REQUEST", parameter: "where.colour" });
    expect(refusal({ brand: { near: 1 } })).toEqual({ code: "BAD_REQUEST", parameter: "where.brand.near" });
    expect(refusal({ carClass: { like: "1%" } })).toEqual({ code: "BAD_REQUEST", parameter: "where.carClass.like" });
    expect(refusal({ brand: "x".repeat(MAX_TEXT + 1) })).toEqual({ code: "BAD_REQUEST", parameter: "where.brand" });
    expect(refusal({ carClass: "one" })).toEqual({ code: "BAD_PARAMETER", parameter: "where.carClass" });
  });

  it("stays fast on hostile patterns (no backtracking)", () => {
    const started = performance.now();
    for (let i = 0; i < 200; i++) translateDriverCriteria({ where: { name: { like: `${"%".repeat(MAX_TEXT - 1)}a` } }, sort: `${" ".repeat(150)}name` });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("fares in kopecks", () => {
  it("exactly, from the number's decimal form, half up", async () => {
    const { fareKopecks } = await import("@/server/exchange/attributes");
    expect(fareKopecks(123.45)).toBe(12345);
    expect(fareKopecks(1.005)).toBe(101);
    expect(fareKopecks(0.29)).toBe(29);
    expect(fareKopecks(250.5)).toBe(25050);
    expect(fareKopecks(1e-7)).toBe(0);
    expect(fareKopecks(1e21)).toBe(1e23);
    expect(fareKopecks(undefined)).toBe(0);
  });
});
