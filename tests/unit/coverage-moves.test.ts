// The coverage rule over a fleet (core/hint.ts, coverageMoves), as the hint
// service serves it: a car sent to a gap is counted there for the cars after
// it, so two cars do not both go to fill one gap. Points on a line, one
// second of drive per unit: the cars first, then the pickups.
import { describe, expect, it } from "vitest";
import { coverageMoves, type CoverageRule } from "../../server/dispatch/core/hint";

const rule: CoverageRule = { windowMinutes: 60, minGainSeconds: 8, maxDriveSeconds: 600, capSeconds: 900 };
const line = (cars: number[], pickups: number[]) => {
  const at = [...cars, ...pickups];
  return (a: number, b: number) => Math.abs(at[a]! - at[b]!);
};

describe("the coverage rule over a fleet", () => {
  it("sends the first car to the gap and counts it there: the next car stays", () => {
    // Two cars at 0, three pickups at 400. Car 0: the pickups are 400 s from car 1 and from itself (1200 s in all);
    // at the first pickup they are 0 s away: a gain of 400 s. Car 1 then: car 0 is counted at 400, nothing to gain.
    const place = Int32Array.from([0, 1]);
    const moves = [...coverageMoves(2, 3, [0, 1], line([0, 0], [400, 400, 400]), rule, place)];
    expect(moves).toEqual([
      { car: 0, move: { pickup: 0, gainSeconds: 400, seconds: 400 } },
      { car: 1, move: null },
    ]);
    expect([...place]).toEqual([2, 1]);
  });

  it("the order decides which car goes", () => {
    const moves = [...coverageMoves(2, 3, [1, 0], line([0, 0], [400, 400, 400]), rule)];
    expect(moves.map((m) => [m.car, m.move?.pickup ?? null])).toEqual([
      [1, 0],
      [0, null],
    ]);
  });

  it("a car's drive is reckoned from where it stands, the others' from where they were sent", () => {
    // Cars at 0 and 1000; pickups at 400 (two) and 1000. Car 0 goes to 400 (gain (400 + 400) / 3 s). Car 1 stands at
    // the third pickup and is its nearest car: moving it to 400 would leave that pickup 600 s away.
    const moves = [...coverageMoves(2, 3, [0, 1], line([0, 1000], [400, 400, 1000]), rule)];
    expect(moves[0]!.move).toMatchObject({ pickup: 0, seconds: 400 });
    expect(moves[0]!.move!.gainSeconds).toBeCloseTo(800 / 3, 6);
    expect(moves[1]!.move).toBeNull();
  });
});
