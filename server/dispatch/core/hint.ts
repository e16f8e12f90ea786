// Idle drivers steered toward demand (issue 30): a free driver gets a
// suggested region — the one with the most recent demand per free car, when
// it beats the driver's own region clearly. A hint, never an order. Measured
// in the comparison only (its drivers follow a hint with a probability): it
// lengthened the wait at every load, so it is not kept — the server serves no
// hint and the driver app shows none (docs/dispatch.md, "batched+steer").
// Pure: only the comparison calls it.

export interface RegionLoad {
  regionId: number;
  /** Orders picked up in the region recently (the comparison counts the last half hour). */
  demand: number;
  /** Free drivers standing in the region now. */
  freeDrivers: number;
}

/** How much better (demand per free car) another region must be to be suggested. */
export const HINT_MARGIN = 1.5;

/** Demand per free car, the driver asking counted in the region they would join. */
function pressure(r: RegionLoad, joining: boolean): number {
  return r.demand / (r.freeDrivers + (joining ? 1 : 0) + 1);
}

/** The region to suggest to a free driver in `currentRegionId` (null: stay). */
export function suggestRegion(loads: readonly RegionLoad[], currentRegionId: number | null): RegionLoad | null {
  const here = loads.find((r) => r.regionId === currentRegionId);
  // Staying: the driver is already counted among the region's free cars.
  const stay = here ? here.demand / (here.freeDrivers + 1) : 0;
  let best: RegionLoad | null = null;
  let bestScore = 0;
  for (const r of loads) {
    if (r.regionId === currentRegionId || r.demand <= 0) continue;
    const score = pressure(r, true);
    if (score > bestScore || (score === bestScore && best !== null && r.regionId < best.regionId)) {
      best = r;
      bestScore = score;
    }
  }
  if (!best || bestScore <= stay * HINT_MARGIN) return null;
  return best;
}
