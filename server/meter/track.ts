// The distance of a trip along the positions the driver's phone reported.
// Pure: the positions in, the metres out. Our own code because the filters
// are the taximeter's rules (what a passenger pays for), not a general
// smoothing a library would choose for us; docs/driver-app.md, "The
// taximeter", states them:
//   1. fixes out of range, not finite, in the future or duplicated are dropped;
//   2. a fix the car could not have reached from the last kept one (faster than
//      MAX_SPEED_KMH, beyond the GPS error allowance) is a jump and dropped
//      (the first fix too, when the next two agree with each other and not with it);
//   3. distance accrues only once the car left a circle of STANDING_NOISE_M
//      around the last counted point: a standing phone's wander adds nothing;
//   4. a silence longer than GAP_SECONDS (a tunnel, a dead zone) is bridged by
//      the road distance when a `bridge` gives one that a car could have driven
//      in that time and that is not shorter than the straight line; else the
//      straight line.
import { haversineMetres, type GeoPoint } from "../geo/distance";

export interface Fix extends GeoPoint {
  /** When the fix was taken, ms since the epoch. */
  at: number;
}

export const MAX_SPEED_KMH = 200;
/** What a phone's GPS may be off by, in metres: a step within it is never a jump. */
export const GPS_ERROR_M = 25;
export const STANDING_NOISE_M = 15;
export const GAP_SECONDS = 30;
const MAX_SPEED_MS = MAX_SPEED_KMH / 3.6;

/** Road distance between the ends of a gap, or null when the roads do not know. */
export type Bridge = (from: Fix, to: Fix) => number | null;

export interface MeasuredTrack {
  metres: number;
  /** The fixes kept, in time order. */
  kept: Fix[];
  dropped: number;
  /** The gaps bridged (their metres are in `metres`). */
  gaps: Array<{ from: Fix; to: Fix; metres: number; onRoads: boolean }>;
}

export function validFix(f: Fix, now: number): boolean {
  return (
    Number.isFinite(f.lat) &&
    Number.isFinite(f.lon) &&
    Number.isFinite(f.at) &&
    Math.abs(f.lat) <= 90 &&
    Math.abs(f.lon) <= 180 &&
    !(f.lat === 0 && f.lon === 0) && // "null island": a phone's fix before it has one
    f.at <= now
  );
}

function reachable(a: Fix, b: Fix): boolean {
  const seconds = (b.at - a.at) / 1000;
  return haversineMetres(a, b) <= MAX_SPEED_MS * seconds + GPS_ERROR_M;
}

/** Steps 1 and 2: the fixes a car could have made, in time order. */
export function plausibleFixes(fixes: readonly Fix[], now: number): { kept: Fix[]; dropped: number } {
  const sorted = fixes.filter((f) => validFix(f, now)).sort((a, b) => a.at - b.at);
  const kept: Fix[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const f = sorted[i]!;
    const last = kept.at(-1);
    if (!last) {
      kept.push(f);
      continue;
    }
    if (f.at === last.at) continue; // a duplicate (a replay sent twice)
    if (reachable(last, f)) {
      kept.push(f);
      continue;
    }
    // The very first fix may be the wrong one (a cold GPS): if this one and
    // the next agree with each other, start over from here.
    const next = sorted[i + 1];
    if (kept.length === 1 && next && next.at > f.at && reachable(f, next) && !reachable(last, next)) {
      kept[0] = f;
    }
  }
  return { kept, dropped: fixes.length - kept.length };
}

/** Steps 3 and 4 over plausible fixes: the metres driven. */
export function measureTrack(fixes: readonly Fix[], now: number, bridge?: Bridge): MeasuredTrack {
  const { kept, dropped } = plausibleFixes(fixes, now);
  const gaps: MeasuredTrack["gaps"] = [];
  let metres = 0;
  let anchor = kept[0];
  for (let i = 1; i < kept.length; i++) {
    const prev = kept[i - 1]!;
    const f = kept[i]!;
    if (!anchor) break;
    const straight = haversineMetres(anchor, f);
    if (straight < STANDING_NOISE_M) continue;
    if ((f.at - prev.at) / 1000 > GAP_SECONDS) {
      const seconds = (f.at - anchor.at) / 1000;
      const road = bridge?.(anchor, f) ?? null;
      const onRoads = road !== null && road >= straight && road <= MAX_SPEED_MS * seconds + GPS_ERROR_M;
      const bridged = onRoads ? road : straight;
      gaps.push({ from: anchor, to: f, metres: bridged, onRoads });
      metres += bridged;
    } else {
      metres += straight;
    }
    anchor = f;
  }
  return { metres, kept, dropped, gaps };
}
