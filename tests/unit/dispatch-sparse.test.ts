// The round's sparse candidates (docs/performance.md, "A fleet of ten
// thousand"): the grid finds exactly the drivers a check of every pair finds,
// and the batched assignment on each order's cheapest columns costs what the
// assignment on every column costs.
import { describe, expect, it } from "vitest";
import { candidatePool } from "@/server/dispatch/round";
import { batchedAssign } from "@/server/dispatch/core/batched";
import { costOf, isCandidate } from "@/server/dispatch/core/eligibility";
import type { DriverToDispatch, OrderToDispatch } from "@/server/dispatch/core/types";
import { munkres } from "munkres";

/** A seeded generator, so that a failure repeats. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function city(seed: number, orders: number, drivers: number) {
  const r = random(seed);
  const rules = { mode: "AUTO" as const, radiusKm: 3, fairnessWeight: 0, minBalance: 0, chainSeconds: 0 };
  const os: OrderToDispatch[] = Array.from({ length: orders }, (_, i) => ({
    id: i + 1, serviceId: 1 + (i % 2), regionId: null, lat: 55.7 + r() * 0.2, lon: 37.5 + r() * 0.3, waitingSeconds: 0, neededOptions: [], refusedBy: new Set(i % 5 === 0 ? [1, 2, 3] : []), rules,
  }));
  const ds: DriverToDispatch[] = Array.from({ length: drivers }, (_, j) => ({
    id: j + 1, lat: 55.7 + r() * 0.2, lon: 37.5 + r() * 0.3, serviceIds: j % 3 === 0 ? [1] : [1, 2], options: [], balance: j % 7 === 0 ? -1 : 100, idleSeconds: 0, queue: null, busyForSeconds: 0,
  }));
  return { os, ds };
}

describe("sparse candidates", () => {
  it("the grid's pool and pairs are those of checking every pair", () => {
    for (const seed of [1, 2, 3]) {
      const { os, ds } = city(seed, 60, 800);
      const { pool, pairs } = candidatePool(os, ds);
      let every = 0;
      const ids = new Set<number>();
      for (const o of os) for (const d of ds) if (isCandidate(o, d, 0)) { every++; ids.add(d.id); }
      expect(pairs).toBe(every);
      expect(new Set(pool.map((d) => d.id))).toEqual(ids);
      expect(pairs).toBeGreaterThan(0);
    }
  });

  it("the grid's first looks miss no driver at any latitude, those just inside the radius due east and west included", () => {
    const radiusKm = 3;
    for (const lat of [-33.9, 0, 40.4, 55.7, 69, 78.2]) {
      const { os: around, ds: random } = city(11, 20, 300);
      const os = around.map((o) => ({ ...o, lat: lat + (o.lat - 55.7), rules: { ...o.rules, radiusKm } }));
      const ds = random.map((d) => ({ ...d, lat: lat + (d.lat - 55.7) }));
      // Along the order's parallel, a hair inside and outside the radius (the parallel is not the shortest way: inside it is inside).
      for (const o of os) {
        for (const share of [0.999, 1.001]) {
          const dLon = (2 * Math.asin(Math.sin((share * radiusKm * 1000) / (2 * 6_371_000)) / Math.cos((o.lat * Math.PI) / 180)) * 180) / Math.PI;
          for (const sign of [1, -1]) ds.push({ ...ds[0]!, id: ds.length + 1, lat: o.lat, lon: o.lon + sign * dLon, serviceIds: [1, 2], balance: 100 });
        }
      }
      const { pool, pairs, candidates } = candidatePool(os, ds);
      let every = 0;
      os.forEach((o, i) => {
        const theirs = ds.filter((d) => isCandidate(o, d, 0)).map((d) => d.id);
        every += theirs.length;
        expect(new Set(candidates[i]!.map((k) => pool[k]!.id)), `order ${o.id} at ${lat}°`).toEqual(new Set(theirs));
      });
      expect(pairs).toBe(every);
      expect(every).toBeGreaterThan(os.length * 2);
    }
  });

  it("each order's candidates from the grid are exactly those of checking every driver", () => {
    const { os, ds } = city(7, 60, 800);
    const { pool, candidates } = candidatePool(os, ds);
    os.forEach((o, i) => {
      const mine = new Set(candidates[i]!.map((k) => pool[k]!.id));
      expect(mine).toEqual(new Set(ds.filter((d) => isCandidate(o, d, 0)).map((d) => d.id)));
    });
  });

  it("the batched assignment told each order's candidates (a round's sparse pairs) is as cheap as on every column", () => {
    for (const seed of [8, 9]) {
      const { os, ds } = city(seed, 40, 400);
      const { pool, candidates } = candidatePool(os, ds);
      const r = random(seed + 100);
      const times = os.map((o) => pool.map((d) => Math.round((Math.hypot(o.lat - d.lat, (o.lon - d.lon) * 0.56) * 111_000) / 8.3 * (1 + r() * 0.3))));
      // Only the candidates' times are known, as in a round (candidateArrivals).
      const known = (i: number, j: number) => (candidates[i]!.includes(j) ? times[i]![j] : undefined);
      const made = batchedAssign(os, pool, known, new Set(), undefined, undefined, (i) => candidates[i]!);
      const dense = denseAssign(os, pool, (i, j) => times[i]![j]);
      const total = (list: Array<{ orderId: number; driverId: number }>) => list.reduce((sum, a) => {
        const i = os.findIndex((o) => o.id === a.orderId);
        const j = pool.findIndex((d) => d.id === a.driverId);
        return sum + costOf(os[i]!, pool[j]!, times[i]![j]!);
      }, 0);
      expect(made.length).toBe(dense.length);
      expect(total(made)).toBeCloseTo(total(dense), 6);
    }
  });

  it("the batched assignment on each order's cheapest columns is as cheap as on all of them", () => {
    for (const seed of [4, 5, 6]) {
      const { os, ds } = city(seed, 40, 300);
      // Arrival seconds: the straight line at 30 km/h with some noise, as roads would.
      const r = random(seed + 100);
      const times = os.map((o) => ds.map((d) => Math.round((Math.hypot(o.lat - d.lat, (o.lon - d.lon) * 0.56) * 111_000) / 8.3 * (1 + r() * 0.3))));
      const arrival = (i: number, j: number) => times[i]![j];
      const made = batchedAssign(os, ds, arrival);
      // The optimum on the dense matrix, by the same algorithm on every column.
      const total = (list: Array<{ orderId: number; driverId: number }>) => list.reduce((s, a) => {
        const i = os.findIndex((o) => o.id === a.orderId);
        const j = ds.findIndex((d) => d.id === a.driverId);
        return s + costOf(os[i]!, ds[j]!, times[i]![j]!);
      }, 0);
      const dense = denseAssign(os, ds, arrival);
      expect(made.length).toBe(dense.length);
      expect(total(made)).toBeCloseTo(total(dense), 6);
    }
  });
});

/** The assignment over every column, as batchedAssign did before it went sparse. */
function denseAssign(os: OrderToDispatch[], ds: DriverToDispatch[], arrival: (i: number, j: number) => number | undefined) {
  const FORBIDDEN = 1e9;
  const rows = os.map((_, i) => i).filter((i) => ds.some((d, j) => isCandidate(os[i]!, d, arrival(i, j))));
  const matrix = rows.map((i) => ds.map((d, j) => (isCandidate(os[i]!, d, arrival(i, j)) ? costOf(os[i]!, d, arrival(i, j)!) : FORBIDDEN)));
  return munkres(matrix).flatMap(([r, c]) => (matrix[r]![c]! >= FORBIDDEN / 2 ? [] : [{ orderId: os[rows[r]!]!.id, driverId: ds[c]!.id }]));
}
