// An order's age and its colour (shared/orders/age.ts), the rule the board's
// column and the server's count of orders that need a person both run.
import { describe, expect, it } from "vitest";
import { ageOf, formatAge, limitsValid, type AgeKind, type AgeLimit } from "@/shared/orders/age";

const limits = new Map<AgeKind, AgeLimit>([
  ["MODERATION", { kind: "MODERATION", amberSeconds: 60, redSeconds: 180 }],
  ["FREE", { kind: "FREE", amberSeconds: 180, redSeconds: 420 }],
  ["ACCEPTED", { kind: "ACCEPTED", amberSeconds: 300, redSeconds: 600 }],
  ["ADVANCE", { kind: "ADVANCE", amberSeconds: 1800, redSeconds: 900 }],
]);
const now = Date.parse("2026-11-25T22:00:00Z");
const ago = (s: number) => new Date(now - s * 1000);

describe("an order's age", () => {
  it("counts a moderation wait in its state: 29 minutes is red, 30 seconds is fine", () => {
    expect(ageOf({ state: "ON_MODERATION", createdAt: ago(1740), stateAt: ago(1740), preOrderTime: null }, limits, now)).toEqual({ kind: "MODERATION", seconds: 1740, level: "red" });
    expect(ageOf({ state: "ON_MODERATION", createdAt: ago(30), stateAt: ago(30), preOrderTime: null }, limits, now).level).toBe("ok");
  });

  it("counts an order waiting for a car from its creation, not from its last move back to free", () => {
    const age = ageOf({ state: "FREE", createdAt: ago(400), stateAt: ago(10), preOrderTime: null }, limits, now);
    expect(age).toEqual({ kind: "FREE", seconds: 400, level: "amber" });
  });

  it("counts an accepted order in its state", () => {
    expect(ageOf({ state: "CONFIRMED", createdAt: ago(5000), stateAt: ago(700), preOrderTime: null }, limits, now)).toMatchObject({ seconds: 700, level: "red" });
  });

  it("counts down an unconfirmed advance order to its pickup", () => {
    const at = (s: number) => ({ state: "PREORDER_FREE", createdAt: ago(86_400), stateAt: ago(86_400), preOrderTime: new Date(now + s * 1000) });
    expect(ageOf(at(3600), limits, now).level).toBe("ok");
    expect(ageOf(at(1200), limits, now).level).toBe("amber");
    expect(ageOf(at(600), limits, now)).toEqual({ kind: "ADVANCE", seconds: 600, level: "red" });
  });

  it("does not colour states nobody watches, nor anything without limits", () => {
    expect(ageOf({ state: "IN_PROCESS", createdAt: ago(9999), stateAt: ago(9999), preOrderTime: null }, limits, now).level).toBe("ok");
    expect(ageOf({ state: "FREE", createdAt: ago(9999), stateAt: ago(9999), preOrderTime: null }, undefined, now).level).toBe("ok");
  });

  it("reads as minutes and seconds", () => {
    expect(formatAge(0)).toBe("0:00");
    expect(formatAge(1740)).toBe("29:00");
    expect(formatAge(3723)).toBe("1:02:03");
    expect(formatAge(-65)).toBe("−1:05");
  });

  it("takes limits with amber before red (an advance order's amber further from the pickup)", () => {
    expect(limitsValid("FREE", 60, 120)).toBe(true);
    expect(limitsValid("FREE", 120, 60)).toBe(false);
    expect(limitsValid("ADVANCE", 1800, 900)).toBe(true);
    expect(limitsValid("ADVANCE", 900, 1800)).toBe(false);
  });
});
