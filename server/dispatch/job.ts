// Automatic dispatch beside the HTTP server, in every instance
// (server/background.ts): every DISPATCH_TICK_MS one round of offers
// (round.ts), the FREE_LONG alerts (alerts.ts) and the advance orders
// (advance.ts). Rounds of one instance never overlap; rounds of several
// instances may, and the database decides between them (offer.ts).
import { config } from "../config";
import { db } from "../db";
import { log } from "../log";
import { metrics } from "../metrics/registry";
import { raiseFreeLong } from "./alerts";
import { advanceRound } from "./advance";
import { dispatchRound, newRoundState, ROUND_PHASES } from "./round";

export function startDispatchJob(): () => Promise<void> {
  const interval = config().DISPATCH_TICK_MS;
  const state = newRoundState();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const turn = async () => {
    const t0 = performance.now();
    const report = await dispatchRound(db(), state);
    const seconds = (performance.now() - t0) / 1000;
    const m = metrics();
    m.dispatchRound.observe(seconds);
    m.dispatchRoundLast.set({ figure: "seconds" }, seconds);
    m.dispatchRoundLast.set({ figure: "orders" }, report.orders);
    m.dispatchRoundLast.set({ figure: "drivers" }, report.drivers);
    m.dispatchRoundLast.set({ figure: "pairs" }, report.pairs);
    m.dispatchRoundLast.set({ figure: "offers" }, report.offers);
    m.dispatchRoundLast.set({ figure: "plan_seconds" }, report.planSeconds);
    for (const name of ROUND_PHASES) m.dispatchRoundLast.set({ figure: `${name}_seconds` }, report.phases[name]);
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
