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
