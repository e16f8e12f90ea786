// Sweeps expired Idempotency-Keys now and then (reads ignore them anyway;
// this only keeps the table small). Every instance runs it; deleting twice is
// harmless.
import { db } from "../db";
import { log } from "../log";
import { deleteExpiredKeys } from "./store";

const SWEEP_MS = 10 * 60_000;

export function startIdempotencyCleanup(): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = (async () => {
      // In slices, so that a large backlog never holds one long statement.
      while ((await deleteExpiredKeys(db())) === 1000) { /* next slice */ }
    })().catch((error: unknown) => log.warn("idempotency keys: cleanup failed", { error: error instanceof Error ? error.message : String(error) }));
  };
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
