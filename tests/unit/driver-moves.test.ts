// The consoles' live map, coalesced (server/events/driver-moves.ts): at most
// one message a second, each driver once in its latest state.
import { afterEach, describe, expect, it, vi } from "vitest";
import { publish } from "../../server/events/bus";
import { MOVES_MS, subscribeDriverMoves } from "../../server/events/driver-moves";
import { fromDriverRow, type DriverRow } from "../../shared/driver-rows";

const move = (driverId: number, lat: number, state = "FREE") =>
  publish({ type: "driver.changed", driverId, callSign: `C${driverId}`, state, lat, lon: 49, speed: 30, bearing: 90, regionId: null });

describe("subscribeDriverMoves", () => {
  afterEach(() => vi.useRealTimers());

  it("sends a lone change at once, then at most one batch a second with each driver's latest change", async () => {
    vi.useFakeTimers();
    const batches: DriverRow[][] = [];
    const off = subscribeDriverMoves((rows) => batches.push(rows));
    move(1, 55.1);
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.length).toBe(1);
    expect(fromDriverRow(batches[0]![0]!)).toEqual({ driverId: 1, callSign: "C1", state: "FREE", lat: 55.1, lon: 49, speed: 30, bearing: 90, regionId: null });

    for (let i = 0; i < 100; i++) move(1 + (i % 3), 55 + i / 1000, i === 99 ? "BUSY" : "FREE");
    await vi.advanceTimersByTimeAsync(MOVES_MS / 2);
    expect(batches.length).toBe(1);
    await vi.advanceTimersByTimeAsync(MOVES_MS / 2);
    expect(batches.length).toBe(2);
    const second = new Map(batches[1]!.map((r) => [r[0], fromDriverRow(r)]));
    expect([...second.keys()].sort()).toEqual([1, 2, 3]);
    // Driver 1 moved last at i = 99 (99 % 3 = 0): its latest position and state.
    expect(second.get(1)).toMatchObject({ lat: 55.099, state: "BUSY" });
    off();
  });

  it("hands every console the same batch, and stops listening when the last one leaves", async () => {
    vi.useFakeTimers();
    const a: number[] = [];
    const b: number[] = [];
    const offA = subscribeDriverMoves((rows) => a.push(rows.length));
    const offB = subscribeDriverMoves((rows) => b.push(rows.length));
    await vi.advanceTimersByTimeAsync(MOVES_MS);
    move(7, 55);
    move(8, 55);
    await vi.advanceTimersByTimeAsync(MOVES_MS);
    expect(a).toEqual([2]);
    expect(b).toEqual([2]);
    offA();
    offB();
    move(9, 55);
    await vi.advanceTimersByTimeAsync(MOVES_MS * 2);
    expect(a).toEqual([2]);
  });
});
