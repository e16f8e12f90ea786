// The comparison's figures. Of one day: the wait of every order (served: to
// the car at the pickup; lost: the passenger's patience; cancelled after a
// long assigned wait: to the cancellation), the wait of served orders, lost
// and cancelled shares, empty and occupied kilometres, drivers' earnings per
// hour and their spread. Over the seeds: the mean and its 95 % confidence
// interval (Student's t), and paired differences (the same day under two
// policies), which are what decides "better".
import type { DayResult } from "./world";

export interface DayFigures {
  policy: string;
  orders: number;
  served: number;
  lost: number;
  cancelled: number;
  meanWaitAll: number;
  meanWaitServed: number;
  p90WaitAll: number;
  emptyKm: number;
  occupiedKm: number;
  emptyShare: number;
  steeringKm: number;
  timeoutShare: number;
  utilisation: number;
  earningsPerHour: number;
  earningsCv: number;
  earningsGini: number;
  /** The true mean stars of the drivers who served the orders. */
  servedRating: number;
}

export type MetricName = Exclude<keyof DayFigures, "policy">;

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

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);

export function figuresOf(day: DayResult): DayFigures {
  const all = [...day.waitsAll].sort((a, b) => a - b);
  const e = day.earningsPerHour;
  const em = mean(e);
  const sd = Math.sqrt(e.reduce((a, b) => a + (b - em) ** 2, 0) / Math.max(1, e.length));
  return {
    policy: day.policy,
    orders: day.orders,
    served: day.served,
    lost: day.lost,
    cancelled: day.cancelled,
    meanWaitAll: mean(all),
    meanWaitServed: mean(day.waitsServed),
    p90WaitAll: quantile(all, 0.9),
    emptyKm: day.emptyKm,
    occupiedKm: day.occupiedKm,
    emptyShare: day.emptyKm / Math.max(1e-9, day.emptyKm + day.occupiedKm),
    steeringKm: day.steeringKm,
    timeoutShare: day.timeouts / Math.max(1, day.offers),
    utilisation: day.utilisation,
    earningsPerHour: em / 100,
    earningsCv: em > 0 ? sd / em : 0,
    earningsGini: gini(e),
    servedRating: day.servedRating,
  };
}

/** Two-sided 95 % quantiles of Student's t by degrees of freedom (1..30); 1.96 beyond. */
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

export interface Estimate {
  mean: number;
  /** Half the width of the 95 % confidence interval (0 with one seed). */
  half: number;
}

export function estimate(values: readonly number[]): Estimate {
  const n = values.length;
  const m = mean(values);
  if (n < 2) return { mean: m, half: 0 };
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1));
  return { mean: m, half: (T95[n - 2] ?? 1.96) * (sd / Math.sqrt(n)) };
}
