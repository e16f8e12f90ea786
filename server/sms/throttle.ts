// At most `perSecond` submissions a second, evenly spaced: each take() waits
// for the next free slot (aggregators refuse a bind that sends faster than
// its contract, with ESME_RTHROTTLED).
export class Throttle {
  private next = 0;
  private readonly gapMs: number;

  constructor(perSecond: number) {
    this.gapMs = 1000 / perSecond;
  }

  async take(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + this.gapMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}
