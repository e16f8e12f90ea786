// The console's driver picker asks before giving an order to a driver
// automatic dispatch passes over (away, a stale position, a silent app), on
// cases worked out by hand (app/components/board/liveness-gate.ts).
import { describe, expect, it } from "vitest";
import { gateStep, isRisky, livenessReasons } from "../../app/components/board/liveness-gate";

const words = { away: "Away", stalePosition: "Stale position", silentApp: "App silent" };
const fine = { away: false, stalePosition: false, silentApp: false };
const silent = { away: false, stalePosition: true, silentApp: true };

describe("the picker's liveness gate", () => {
  it("names the reasons in the console's words, none for a live driver or an unknown one", () => {
    expect(livenessReasons(silent, words)).toEqual(["Stale position", "App silent"]);
    expect(livenessReasons({ ...fine, away: true }, words)).toEqual(["Away"]);
    expect(livenessReasons(fine, words)).toEqual([]);
    expect(livenessReasons(undefined, words)).toEqual([]);
    expect(isRisky(silent)).toBe(true);
    expect(isRisky(fine)).toBe(false);
    expect(isRisky(undefined)).toBe(false);
  });

  it("gives at once to a live driver", () => {
    expect(gateStep(null, { id: 5, dispatch: fine })).toEqual({ pass: true, armed: null });
    expect(gateStep(null, { id: 5 })).toEqual({ pass: true, armed: null });
    expect(gateStep(null, null)).toEqual({ pass: true, armed: null });
  });

  it("asks first for a silent driver and gives on the second submit", () => {
    const first = gateStep(null, { id: 7, dispatch: silent });
    expect(first).toEqual({ pass: false, armed: 7 });
    expect(gateStep(first.armed, { id: 7, dispatch: silent })).toEqual({ pass: true, armed: 7 });
  });

  it("asks again when another silent driver is chosen after the question", () => {
    expect(gateStep(7, { id: 8, dispatch: { ...fine, away: true } })).toEqual({ pass: false, armed: 8 });
  });
});
