// The taximeter (server/meter/) on recorded tracks worked out by hand. The
// tracks run along the meridian 37.6° E, where a step of d metres north is a
// change of latitude of d / 111 195.08 degrees (the Earth's mean radius
// 6 371 008.8 m × π / 180), so each leg's length is known exactly.
import { describe, expect, it } from "vitest";
import { measureTrack, plausibleFixes, type Fix } from "@/server/meter/track";
import { meteredFare, type MeteredRate } from "@/server/meter/fare";

const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;
const T0 = Date.UTC(2026, 10, 25, 10, 0, 0);
const NOW = T0 + 3_600_000;
/** A fix `north` metres north and `east` metres east of the start, `s` seconds after T0. */
function fix(north: number, s: number, east = 0): Fix {
  const lat = 55.75 + north / METRES_PER_DEGREE;
  return { lat, lon: 37.6 + east / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180)), at: T0 + s * 1000 };
}
/** Straight north at `metresPerStep` every `seconds`, `steps` steps, from `north0`/`s0`. */
function drive(steps: number, metresPerStep: number, seconds: number, north0 = 0, s0 = 0): Fix[] {
  return Array.from({ length: steps + 1 }, (_, i) => fix(north0 + i * metresPerStep, s0 + i * seconds));
}

describe("distance along the track", () => {
  it("a clean drive: 10 steps of 100 m every 10 s (36 km/h) is 1 000 m", () => {
    expect(measureTrack(drive(10, 100, 10), NOW).metres).toBeCloseTo(1000, 3);
  });

  it("standing noise: two minutes at a red light wandering up to 6 m adds nothing", () => {
    const wander = [3, -4, 6, -2, 5, -6, 1, 4, -3, 2, -5, 0].map((d, i) => fix(500 + d, 50 + i * 10, d / 2));
    // 500 m in 50 s, then the wander (12 fixes, 50..160 s), then 300 m more north by 200 s
    const track = [...drive(5, 100, 10), ...wander, fix(650, 180), fix(800, 200)];
    expect(measureTrack(track, NOW).metres).toBeCloseTo(800, 3);
    // Without the filter the wander alone would count 12 hops of several metres each:
    let raw = 0;
    for (let i = 1; i < wander.length; i++) raw += Math.hypot(wander[i]!.lat - wander[i - 1]!.lat, 0) * METRES_PER_DEGREE;
    expect(raw).toBeGreaterThan(40);
  });

  it("a GPS jump of 2 km within 4 s is dropped, and the drive after it counts normally", () => {
    const track = [fix(0, 0), fix(50, 4), fix(100, 8), fix(2100, 12, 1500) /* the jump */, fix(150, 12.5), fix(200, 16)];
    const measured = measureTrack(track, NOW);
    expect(measured.metres).toBeCloseTo(200, 3);
    expect(measured.dropped).toBe(1);
  });

  it("a wrong first fix (a cold GPS 3 km away) is replaced by the two that agree", () => {
    const track = [fix(3000, 0), fix(0, 2), fix(40, 6), fix(80, 10)];
    const { kept } = plausibleFixes(track, NOW);
    expect(kept).toHaveLength(3);
    expect(measureTrack(track, NOW).metres).toBeCloseTo(80, 3);
  });

  it("fixes out of range, not numbers, at null island, in the future and duplicates are dropped", () => {
    const track = [
      fix(0, 0),
      { lat: 91, lon: 37.6, at: T0 + 1000 },
      { lat: Number.NaN, lon: 37.6, at: T0 + 2000 },
      { lat: 0, lon: 0, at: T0 + 3000 },
      fix(100, 10),
      fix(100, 10), // the same fix replayed twice
      fix(5000, (NOW - T0) / 1000 + 60), // a minute in the future
    ];
    const measured = measureTrack(track, NOW);
    expect(measured.metres).toBeCloseTo(100, 3);
    expect(measured.dropped).toBe(5);
  });

  it("fixes arriving out of order are measured in time order", () => {
    const track = drive(4, 100, 10);
    expect(measureTrack([track[2]!, track[0]!, track[4]!, track[1]!, track[3]!], NOW).metres).toBeCloseTo(400, 3);
  });
});

describe("a tunnel: three minutes without fixes", () => {
  // 500 m in 50 s, silence for 180 s, out 2 000 m further north (40 km/h on average), then 200 m more.
  const track = [...drive(5, 100, 10), ...drive(2, 100, 10, 2500, 230)];

  it("is bridged by the straight line when the roads do not know", () => {
    const measured = measureTrack(track, NOW);
    expect(measured.metres).toBeCloseTo(500 + 2000 + 200, 3);
    expect(measured.gaps).toHaveLength(1);
    expect(measured.gaps[0]!.onRoads).toBe(false);
  });

  it("is bridged by the road distance when the roads give a plausible one (2 400 m)", () => {
    const measured = measureTrack(track, NOW, () => 2400);
    expect(measured.metres).toBeCloseTo(500 + 2400 + 200, 3);
    expect(measured.gaps[0]!.onRoads).toBe(true);
  });

  it("ignores a road distance no car could drive in the time (20 km in 3 min) or shorter than the straight line", () => {
    expect(measureTrack(track, NOW, () => 20_000).metres).toBeCloseTo(2700, 3);
    expect(measureTrack(track, NOW, () => 1500).metres).toBeCloseTo(2700, 3);
  });

  it("a 'tunnel' the car could not have crossed (30 km in 3 min) is a jump: everything after it is dropped", () => {
    const far = [...drive(5, 100, 10), fix(30_500, 230), fix(30_600, 240)];
    expect(measureTrack(far, NOW).metres).toBeCloseTo(500, 3);
  });
});

describe("the metered fare", () => {
  // 50 ₽ boarding, 20 ₽/km after the first 2 km, 5 ₽/min, 5 free waiting minutes then 10 ₽/min, minimum 150 ₽, to 1 ₽
  const rate: MeteredRate = { pickUp: 5000, kmCost: 2000, kmStart: 2, minuteCost: 500, freeWaitTime: 5, waitCost: 1000, minFare: 15000, roundTo: 100 };

  it("7.5 km in 18 min after 8 min waiting: 50 + 5.5×20 + 18×5 + 3×10 = 280 ₽", () => {
    const fare = meteredFare(rate, { distanceMetres: 7500, tripSeconds: 18 * 60, waitingSeconds: 8 * 60 }, 0);
    expect(fare).toEqual({ boarding: 5000, distance: 11000, time: 9000, waiting: 3000, extras: 0, minimumAdded: 0, rounding: 0, total: 28000 });
  });

  it("waiting within the free minutes is free; the minimum fare tops up a short trip", () => {
    const fare = meteredFare(rate, { distanceMetres: 1000, tripSeconds: 4 * 60, waitingSeconds: 4 * 60 }, 0);
    // 50 + 0 (within the first 2 km) + 20 = 70 ₽, topped up to 150 ₽
    expect(fare).toMatchObject({ distance: 0, time: 2000, waiting: 0, minimumAdded: 8000, total: 15000 });
  });

  it("extras are added after the minimum, then the total is rounded up to the rate's step", () => {
    const fare = meteredFare({ ...rate, roundTo: 1000 }, { distanceMetres: 7512, tripSeconds: 18 * 60 + 7, waitingSeconds: 0 }, 10000);
    // distance 5.512 km × 2000 = 11024, time 18.1167 min × 500 = 9058.3 -> 9058; 5000+11024+9058+10000 = 35082 -> 36000
    expect(fare).toMatchObject({ distance: 11024, time: 9058, extras: 10000, rounding: 918, total: 36000 });
  });
});
