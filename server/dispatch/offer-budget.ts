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
//   - loaded (a bounded queue of the phones' requests a quarter full): the
//     next round may make half the offers the last one could, never fewer
//     than `min`, so dispatch never stops;
//   - not loaded: `step` more each round, and no bound at all once a round
//     made every offer it planned within the bound.
// Under a bound the offers go to the orders offered least often first, then
// to the longest waiting: a new order's first offer does not wait behind an
// order ten drivers have refused (round.ts).
import type { PressureReading } from "../runtime/pressure";

export interface BudgetRule {
  /** The share of a bounded queue's capacity over which it counts as loaded. */
  backlogShare: number;
  /** The fewest offers a round may make however loaded. */
  min: number;
  /** How many more offers each round may make than the last, once the load has passed. */
  step: number;
}

/**
 * A quarter of the positions' queue is about a quarter of a second of a
 * 10,000-car fleet's reports waiting. The event loop's delay is not part of
 * the rule, only of the metrics: the round's own plan holds the loop for
 * 80–130 ms at a time (its candidate pool and its assignment), so a late
 * loop bounded the offers in a full run with the phones served (56 rounds of
 * 87 at the floor: docs/performance.md, "The offers paced by the instance's
 * load"), while fewer offers did not make the loop any less late.
 */
export const BUDGET_RULE: BudgetRule = { backlogShare: 0.25, min: 16, step: 16 };

export interface Budget {
  /** Offers the next round may make; undefined: no bound. */
  limit: number | undefined;
  /** Why the instance counted as loaded (for the log and the metrics); undefined when it did not. */
  loadedBy: string | undefined;
}

/** What bounds a round: the reading since the last round, and how many offers that round planned and made. */
export function nextBudget(limit: number | undefined, reading: PressureReading, last: { planned: number; made: number }, rule: BudgetRule = BUDGET_RULE): Budget {
  const loadedBy = reading.backlogShare > rule.backlogShare ? `${Math.round(reading.backlogShare * 100)}% of the ${reading.backlogName ?? "queue"}'s places taken` : undefined;
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
