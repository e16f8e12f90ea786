// Which reported fixes the server takes: a fix's own time (`at`, for a
// replay after a connection loss) may not lie in the future (beyond a clock
// skew) nor be older than a replay could be.
export const CLOCK_SKEW_MS = 30_000;
export const MAX_FIX_AGE_MS = 12 * 3_600_000;

export function acceptableFixTime(at: Date, now: Date): boolean {
  const t = at.getTime();
  return Number.isFinite(t) && t <= now.getTime() + CLOCK_SKEW_MS && t >= now.getTime() - MAX_FIX_AGE_MS;
}
