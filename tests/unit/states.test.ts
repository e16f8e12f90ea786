import { describe, expect, it } from "vitest";
import { ALL_STATES, DONE_STATES, NOT_DONE_STATES, canMove, canMoveOnExchange, codeOf, isDone, nextStates, stateOfCode } from "@/server/orders/states";

describe("the order state machine", () => {
  it("has the reference's codes and groups", () => {
    expect(codeOf("NOT_REGISTERED")).toBe(0);
    expect(codeOf("FREE")).toBe(9);
    expect(codeOf("DONE_SUCCESSFUL")).toBe(100);
    expect(codeOf("DONE_OPERATOR_REJECTED")).toBe(95);
    expect(codeOf("ON_MODERATION")).toBe(80);
    expect(DONE_STATES.every((s) => codeOf(s) >= 90)).toBe(true);
    expect(NOT_DONE_STATES.every((s) => codeOf(s) <= 89)).toBe(true);
    expect(stateOfCode(95)).toBe("DONE_CANCELLED");
    expect(stateOfCode(42)).toBeUndefined();
  });

  it("follows the move table", () => {
    expect(canMove("NOT_REGISTERED", "SENT_TO_DRIVER")).toBe(true);
    expect(canMove("SENT_TO_DRIVER", "CONFIRMED")).toBe(true);
    expect(canMove("CONFIRMED", "SENT_TO_DRIVER")).toBe(false);
    expect(canMove("AWAITING_CLIENT", "IN_PROCESS")).toBe(true);
    expect(canMove("IN_PROCESS", "AWAITING_PAYMENT")).toBe(true);
    expect(canMove("FREE", "FREE_LONG")).toBe(true);
    expect(canMove("FREE", "BOUND")).toBe(true);
    expect(canMove("PREORDER_FREE", "PREORDER_ATTACHED")).toBe(true);
    expect(canMove("ON_MODERATION", "FREE")).toBe(true);
    expect(canMove("ON_MODERATION", "SENT_TO_DRIVER")).toBe(true);
  });

  it("lets every NOT_DONE state end, completed only after a trip, and no DONE state move", () => {
    for (const from of NOT_DONE_STATES) for (const to of DONE_STATES) if (to !== "DONE_SUCCESSFUL") expect(canMove(from, to)).toBe(true);
    // completed means a driver carried the passenger; the exchange's reports keep the reference's "any NOT_DONE"
    expect(NOT_DONE_STATES.filter((from) => canMove(from, "DONE_SUCCESSFUL"))).toEqual(["IN_PROCESS", "AWAITING_PAYMENT", "AWAITING_COMPLETION"]);
    for (const from of NOT_DONE_STATES) expect(canMoveOnExchange(from, "DONE_SUCCESSFUL")).toBe(true);
    for (const from of DONE_STATES) expect(nextStates(from)).toEqual([]);
  });

  it("has no row into the states the reference leaves without one", () => {
    for (const to of ["NO_REPLY", "CANCELLED_BY_CLIENT", "REJECTED_BY_DRIVER", "AWAITING_COMPLETION", "NOT_REGISTERED"] as const) {
      expect(ALL_STATES.filter((from) => canMove(from, to))).toEqual([]);
    }
    expect(isDone("AWAITING_COMPLETION")).toBe(false);
  });
});

import { RateLimiter } from "@/server/http/rate-limit";

describe("rate limiter", () => {
  it("lets a burst through, then refuses until tokens refill", () => {
    const limiter = new RateLimiter(10, 20);
    const now = 1_000_000;
    let passed = 0;
    for (let i = 0; i < 30; i++) if (limiter.take("k", now)) passed++;
    expect(passed).toBe(20);
    expect(limiter.take("k", now)).toBe(false);
    expect(limiter.take("k", now + 200)).toBe(true); // 2 tokens back after 0.2 s
    expect(limiter.take("other", now)).toBe(true);
  });
});
