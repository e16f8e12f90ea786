// Token-bucket rate limits, kept per instance in memory (with N instances
// behind a balancer a client gets up to N times the limit; set the limits
// per instance accordingly).
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** true when the caller may go on. */
  take(key: string, now = Date.now()): boolean {
    if (this.perSecond <= 0) return true;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size > 50_000) this.sweep(now);
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at > (this.burst / this.perSecond) * 1000) this.buckets.delete(key);
    }
  }
}

export interface RateLimits {
  /** Per credential: "dispatch:<api key id>", "exchange:<participant id>", "driver:<driver id>". */
  byKey: RateLimiter;
  /** Per client address, across the public APIs. */
  byAddress: RateLimiter;
}

const limitsKey = Symbol.for("taxi.rateLimits");

/**
 * The process's limits (RATE_LIMIT_PER_KEY, RATE_LIMIT_PER_ADDRESS per second,
 * bursts of twice that). Every public API takes from them and answers
 * RATE_LIMITED in its own error form.
 */
export function rateLimits(settings: { perKey: number; perAddress: number }): RateLimits {
  const holder = globalThis as { [limitsKey]?: RateLimits };
  holder[limitsKey] ??= {
    byKey: new RateLimiter(settings.perKey, settings.perKey * 2),
    byAddress: new RateLimiter(settings.perAddress, settings.perAddress * 2),
  };
  return holder[limitsKey];
}
