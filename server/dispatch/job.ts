// Automatic dispatch beside the HTTP server, in every instance
// (server/background.ts): every DISPATCH_TICK_MS one round of offers
// (round.ts), the FREE_LONG alerts (alerts.ts) and the advance orders
// (advance.ts). Rounds of one instance never overlap; rounds of several
// instances may, and the database decides between them (offer.ts).
import { config } from "../config";
import { db } from "../db";
import { log } from "../log";
import { raiseFreeLong } from "./alerts";
import { advanceRound } from "./advance";
import { dispatchRound, newRoundState } from "./round";

export function startDispatchJob(): () => Promise<void> {
  const interval = config().DISPATCH_TICK_MS;
  const state = newRoundState();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const turn = async () => {
    await dispatchRound(db(), state);
    await raiseFreeLong(db());
    await advanceRound(db());
  };
  const tick = () => {
    if (stopped) return;
    running = turn()
      .catch((error: unknown) => log.error("dispatch round", error))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, interval);
      });
  };
  timer = setTimeout(tick, Math.min(interval, 500));
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
