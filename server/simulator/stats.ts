// What the simulator counts, per simulated minute: orders created, assigned
// (a driver took them), completed and cancelled, the passengers who did not
// come out, the drivers' refusals, calls that failed; and the orders that
// were lost (created, then unknown to the server, or their creation's
// outcome unknown) or are stuck (not in a final state after their deadline).
// Both must stay zero.

export const COUNTERS = ["created", "assigned", "completed", "cancelled", "noShow", "rejected", "foreignCompleted", "failedCalls"] as const;
export type Counter = (typeof COUNTERS)[number];
export type Counts = Record<Counter, number>;

export function zeroCounts(): Counts {
  return Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Counts;
}

export interface Summary {
  simulatedMinutes: number;
  /** The minutes during which passengers ordered (the rest: the drain). */
  loadMinutes: number;
  wallSeconds: number;
  totals: Counts;
  /** Averages per simulated minute of the load phase (everything the load caused, drain included, over its minutes). */
  perMinute: { created: number; assigned: number; completed: number; cancelled: number };
  open: number;
  lost: number;
  stuck: number;
  errors: Record<string, number>;
  /** How far the simulated clock fell behind the wanted pace, in real seconds. */
  lagSeconds: number;
}

export class Stats {
  readonly minutes: Counts[] = [];
  readonly totals: Counts = zeroCounts();
  readonly errors = new Map<string, number>();

  count(counter: Counter, minute: number, n = 1): void {
    while (this.minutes.length <= minute) this.minutes.push(zeroCounts());
    this.minutes[minute]![counter] += n;
    this.totals[counter] += n;
  }

  error(code: string, minute: number): void {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
    this.count("failedCalls", minute);
  }

  /** Sum over simulated minutes [from, to). */
  window(from: number, to: number): Counts {
    const out = zeroCounts();
    for (let m = Math.max(0, from); m < Math.min(to, this.minutes.length); m++) {
      for (const c of COUNTERS) out[c] += this.minutes[m]![c];
    }
    return out;
  }
}

export function clockText(simSeconds: number): string {
  const m = Math.floor(simSeconds / 60);
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}
