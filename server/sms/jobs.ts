// The passenger messages' work beside the server, in every instance: the
// SMPP bind opened at start (receipts come in before anything is sent), and
// every few seconds the "arriving" SMS and the orders dispatch gives up on.
import { log } from "../log";
import { db } from "../db";
import { config } from "../config";
import { smsProvider } from "./provider";
import { sendArrivingSms } from "./arriving";
import { giveUpUntakenOrders } from "../dispatch/give-up";

const TICK_MS = 5_000;

export function startSmsJobs(): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  if (config().SMS_PROVIDER !== "log") void smsProvider().then((provider) => provider.start?.());
  const tick = () => {
    if (stopped) return;
    running = (async () => {
      await giveUpUntakenOrders(db());
      await sendArrivingSms(db());
    })()
      .catch((error: unknown) => log.error("sms jobs", error))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, TICK_MS);
      });
  };
  timer = setTimeout(tick, 1000);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
    await (await smsProvider()).close?.();
  };
}
