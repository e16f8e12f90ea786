// The comparison's figures of one day: the wait for a car (creation to the
// car at the pickup) of served orders, the share assigned within 60 s, lost
// orders, driver utilisation, and fairness as the spread of the drivers'
// earnings (Gini coefficient and coefficient of variation).
import type { DayResult } from "./world";

export interface DayFigures {
  strategy: string;
  orders: number;
  served: number;
  lost: number;
  meanWaitSeconds: number;
  p90WaitSeconds: number;
  assignedWithin60Share: number;
  utilisation: number;
  earningsGini: number;
  earningsCv: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function gini(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  const sum = v.reduce((a, b) => a + b, 0);
  if (n === 0 || sum === 0) return 0;
  let weighted = 0;
  v.forEach((x, i) => (weighted += (i + 1) * x));
  return (2 * weighted) / (n * sum) - (n + 1) / n;
}

function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function figuresOf(day: DayResult): DayFigures {
  const waits = [...day.waits].sort((a, b) => a - b);
  const mean = waits.reduce((a, b) => a + b, 0) / Math.max(1, waits.length);
  const e = day.earnings;
  const em = e.reduce((a, b) => a + b, 0) / Math.max(1, e.length);
  const sd = Math.sqrt(e.reduce((a, b) => a + (b - em) ** 2, 0) / Math.max(1, e.length));
  return {
    strategy: day.strategy,
    orders: day.orders,
    served: day.served,
    lost: day.lost,
    meanWaitSeconds: Math.round(mean),
    p90WaitSeconds: Math.round(quantile(waits, 0.9)),
    assignedWithin60Share: round(day.assignedWithin60 / Math.max(1, day.orders)),
    utilisation: round(day.utilisation),
    earningsGini: round(gini(e)),
    earningsCv: round(em > 0 ? sd / em : 0),
  };
}
