// The simulator's entry points: a timed run for tests and benchmarks
// (simulate), and the engine itself for the long-running demo (Engine).
import { Engine, type SimulationOptions } from "./engine";
import type { Counts, Summary } from "./stats";

export { Engine, DEFAULT_OPTIONS, type SimulationOptions } from "./engine";
export type { Counts, Summary } from "./stats";

export interface RunResult {
  summary: Summary;
  /** Counts per simulated minute (created, assigned, completed, cancelled ...). */
  minutes: Counts[];
  /** Orders of the passengers still not final after the drain (uuid and state). */
  stuck: string[];
}

/**
 * Plays `minutes` simulated minutes at a steady order rate, then (with
 * drain) stops creating orders and lets the drivers finish theirs, reads
 * every unfinished order from the server and reports. Lost and stuck orders
 * must be zero.
 */
export async function simulate(options: SimulationOptions, run: { minutes: number; drainMinutes?: number; signal?: AbortSignal }): Promise<RunResult> {
  const engine = new Engine(options);
  const abort = () => engine.stop();
  run.signal?.addEventListener("abort", abort);
  try {
    await engine.setup();
    await engine.run(run.minutes);
    if (run.drainMinutes !== 0) await engine.drain(run.drainMinutes ?? 180);
    const check = await engine.finalCheck();
    const summary = engine.summary();
    return { summary: { ...summary, stuck: check.stuck.length }, minutes: engine.stats.minutes.map((m) => ({ ...m })), stuck: check.stuck };
  } finally {
    run.signal?.removeEventListener("abort", abort);
  }
}
