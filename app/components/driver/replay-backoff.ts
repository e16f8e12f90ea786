// How soon the app tries its queue again after the server could not take it
// (5xx, 429, the connection dropped mid-replay). Every phone of the fleet
// retrying every 5 s into an overloaded server is what keeps it overloaded:
// the pause doubles from 5 s up to 2 minutes, with jitter so that phones cut
// off together do not come back together, and never sooner than the
// server's Retry-After. Nothing is dropped: the queue waits, it is only sent
// less often. The `online` event and a success start over at 5 s.
export const FIRST_PAUSE_MS = 5_000;
export const MAX_PAUSE_MS = 120_000;

export class ReplayBackoff {
  private failures = 0;
  private nextAt = 0;

  constructor(private readonly random: () => number = Math.random) {}

  /** Whether a replay may start now. */
  ready(now: number): boolean {
    return now >= this.nextAt;
  }

  /** The replay was interrupted: the next try after the doubled pause (half to all of it), at least `retryAfterSeconds`. */
  failed(now: number, retryAfterSeconds?: number): number {
    this.failures += 1;
    const ceiling = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.failures - 1));
    const pause = Math.max(ceiling * (0.5 + 0.5 * this.random()), (retryAfterSeconds ?? 0) * 1_000);
    this.nextAt = now + Math.min(pause, MAX_PAUSE_MS);
    return this.nextAt;
  }

  /** The queue went through (or the connection is back): the next failure starts at the first pause. */
  reset(): void {
    this.failures = 0;
    this.nextAt = 0;
  }
}
