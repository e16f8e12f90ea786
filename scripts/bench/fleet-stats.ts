// Percentiles and result shapes of the fleet benchmark (fleet.ts, fleet-load.ts).
export interface Latencies {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface PacedResult {
  kind: "app" | "limit";
  rate: number;
  seconds: number;
  sent: number;
  ok: number;
  bad: number;
  errors: number;
  firstBad?: string;
  /** Successful replies per second over the phase. */
  rps: number;
  latency: Latencies;
  /** How late each request left the generator after its due moment. */
  sendLag: Latencies;
  /** The generator's event loop delay (ms) during the phase. */
  loopDelay: { p50: number; p99: number; max: number };
  /** With the fleet split between instances (--two-instances): each instance's own share, in the order of its URL. */
  perInstance?: Array<{ rps: number; failed: number; latency: Latencies }>;
}

export const round1 = (x: number) => Math.round(x * 10) / 10;

export function latencies(values: number[]): Latencies {
  if (values.length === 0) return { n: 0, p50: NaN, p90: NaN, p99: NaN, max: NaN };
  const s = Float64Array.from(values).sort();
  const at = (p: number) => round1(s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!);
  return { n: s.length, p50: at(50), p90: at(90), p99: at(99), max: round1(s[s.length - 1]!) };
}

