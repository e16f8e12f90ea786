// The offers a round may make while the instance is loaded. Every offer is
// more work for the instance than its own statements: it wakes the driver's
// stream (a read of the offer and its order), and its answer comes back as a
// request (a refusal or an acceptance in a transaction), and a refused order
// is offered again at the next round. When the phones refuse much of what
// they are offered (the benchmark's worst case: all of it), faster rounds
// mean more of that work a second, and on two shared cores it took the
// place of the positions: reports refused by the thousand a minute (docs/
// performance.md, "The answers set-wise"). So the rounds take their pace
// from the instance's load (server/runtime/pressure.ts): additive increase,
// multiplicative decrease, as TCP paces a sender by the losses it sees.
//   - loaded (the event loop late, or a bounded queue a quarter full): the
//     next round may make half the offers the last one could, never fewer
//     than `min`, so dispatch never stops;
//   - not loaded: `step` more each round, and no bound at all once a round
//     made every offer it planned within the bound.
// Under a bound the offers go to the orders offered least often first, then
// to the longest waiting: a new order's first offer does not wait behind an
// order ten drivers have refused (round.ts).
import type { PressureReading } from "../runtime/pressure";

export interface BudgetRule {
  /** The event loop's p99 delay (ms) over which the instance counts as loaded. */
  loopDelayMs: number;
  /** The share of a bounded queue's capacity over which it counts as loaded. */
  backlogShare: number;
  /** The fewest offers a round may make however loaded. */
  min: number;
  /** How many more offers each round may make than the last, once the load has passed. */
  step: number;
}

/**
 * The loop's delay: a round's synchronous parts give the loop a turn every
 * 8 ms (loop-turn.ts), so a p99 over 100 ms is work queued behind the loop,
 * not the round. A quarter of the positions' queue is about a quarter of a
 * second of a 10,000-car fleet's reports waiting.
 */
export const BUDGET_RULE: BudgetRule = { loopDelayMs: 100, backlogShare: 0.25, min: 16, step: 16 };

export interface Budget {
  /** Offers the next round may make; undefined: no bound. */
  limit: number | undefined;
  /** Why the instance counted as loaded (for the log and the metrics); undefined when it did not. */
  loadedBy: string | undefined;
}

/** What bounds a round: the reading since the last round, and how many offers that round planned and made. */
export function nextBudget(limit: number | undefined, reading: PressureReading, last: { planned: number; made: number }, rule: BudgetRule = BUDGET_RULE): Budget {
  const loadedBy =
    reading.loopDelayP99Ms > rule.loopDelayMs
      ? `the event loop ${Math.round(reading.loopDelayP99Ms)} ms late`
      : reading.backlogShare > rule.backlogShare
        ? `${Math.round(reading.backlogShare * 100)}% of the ${reading.backlogName ?? "queue"}'s places taken`
        : undefined;
  if (loadedBy !== undefined) {
    // Half of what the last round could make: its bound, or, unbounded, what it made (at least twice the floor, so the first halving bites).
    const from = limit ?? Math.max(last.made, 2 * rule.min);
    return { limit: Math.max(rule.min, Math.floor(from / 2)), loadedBy };
  }
  // The bound did not hold the last round back: it is lifted.
  if (limit === undefined || last.planned <= limit) return { limit: undefined, loadedBy };
  return { limit: limit + rule.step, loadedBy };
}

/** The order a bound takes the planned offers in: the orders offered least often first, then the longest waiting, then by id. */
export function byOfferPriority<T extends { attempts: number; createdAt: number; orderId: number }>(planned: readonly T[]): T[] {
  return [...planned].sort((a, b) => a.attempts - b.attempts || a.createdAt - b.createdAt || a.orderId - b.orderId);
}
