// How loaded this instance is, as its own requests feel it: how full its
// bounded queues are (the requests waiting for a place, server/http/
// load-shed.ts; the position reports waiting for their statement, server/
// driver-app/position-write.ts), and how late its event loop runs (for the
// metrics: the rounds' own plan holds the loop too). Work the instance
// makes for itself — a dispatch round's offers, each of which wakes a
// phone's stream and brings its answer back — is paced by it
// (server/dispatch/offer-budget.ts), so that the phones' own requests are
// not refused for work the instance chose to make (docs/performance.md,
// "The offers paced by the instance's load").
import { monitorEventLoopDelay, type ELDHistogram } from "node:perf_hooks";

/** A bounded queue: how many wait in it now, and how many it holds at most. */
export interface Backlog {
  name: string;
  waiting(): number;
  capacity: number;
}

export interface PressureReading {
  /** The event loop's delay since the last reading, its 99th percentile (ms). */
  loopDelayP99Ms: number;
  /** The fullest a registered queue was since the last reading, as a share of its capacity (0–1). */
  backlogShare: number;
  /** Which queue that was (undefined when all were empty). */
  backlogName: string | undefined;
}

/** How often the queues are looked at between readings: a queue that filled and drained within a round still counts. */
const SAMPLE_MS = 100;

class PressureMonitor {
  private readonly backlogs = new Set<Backlog>();
  private readonly loop: ELDHistogram = monitorEventLoopDelay({ resolution: 10 });
  private timer: NodeJS.Timeout | undefined;
  private fullest = 0;
  private fullestName: string | undefined;

  register(backlog: Backlog): () => void {
    this.backlogs.add(backlog);
    return () => this.backlogs.delete(backlog);
  }

  /** Starts watching (idempotent); the timer does not keep the process alive. */
  start(): void {
    if (this.timer) return;
    this.loop.enable();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS).unref();
  }

  private sample(): void {
    for (const b of this.backlogs) {
      const share = b.capacity > 0 ? b.waiting() / b.capacity : 0;
      if (share > this.fullest) {
        this.fullest = share;
        this.fullestName = b.name;
      }
    }
  }

  /** What happened since the previous reading; starts the next period. */
  read(): PressureReading {
    this.start();
    this.sample();
    // The histogram is in nanoseconds; with no sample yet (a first reading) its percentile is 0.
    const reading = { loopDelayP99Ms: this.loop.count > 0 ? this.loop.percentile(99) / 1e6 : 0, backlogShare: Math.min(1, this.fullest), backlogName: this.fullestName };
    this.loop.reset();
    this.fullest = 0;
    this.fullestName = undefined;
    return reading;
  }
}

const key = Symbol.for("taxi.pressureMonitor");

/** The process's monitor (one across Next's module copies, as the limiter's). */
export function pressureMonitor(): PressureMonitor {
  const holder = globalThis as { [key]?: PressureMonitor };
  holder[key] ??= new PressureMonitor();
  return holder[key];
}

/** Registers a bounded queue with the process's monitor; returns its removal. */
export function registerBacklog(backlog: Backlog): () => void {
  return pressureMonitor().register(backlog);
}
