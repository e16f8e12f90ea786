// The exchange's periodic work in every instance (server/background.ts):
//   every EXCHANGE_JOB_INTERVAL_MS
//     - our participant: keep the session (log in; after 401s log in again
//       and give pending calls the new token), sell due orders (the rule),
//       settle takes left unanswered (participant/recover-takes.ts),
//       re-read the linked orders after a new session (participant/resync.ts),
//       report our drivers on bought orders (participant/report-drivers.ts);
//     - both sides: settle refused deliveries: a notification or call that the
//       other side answered with a final 4xx (400, 403, 404, 405, 406, 409,
//       410, 413, 461-469) is marked FAILED instead of being retried for an
//       hour, so the ones after it in the same order go out; a refused call
//       of ours is noted on the order's link;
//     - forget the tokens of delivered calls;
//   every EXCHANGE_CHECK_SECONDS: check the participants' servers (sync.ts).
import { config } from "../config";
import { db } from "../db";
import { rawQuery, sqlExecute } from "../db/sql";
import { log } from "../log";
import { publish } from "../events/bus";
import { wakeOutbox } from "../notifications/wake";
import { keepSession, participantSettings } from "./participant/client";
import { sellDueOrders } from "./participant/sell";
import { recoverTakes } from "./participant/recover-takes";
import { reportDrivers } from "./participant/report-drivers";
import { resyncAfterNewSession } from "./participant/resync";
import { checkServers } from "./sync";

const FINAL_REFUSALS = "^HTTP (400|403|404|405|406|409|410|413|46[0-9])$";

/** Marks finally refused exchange deliveries FAILED; returns how many. */
export async function settleRefusedDeliveries(): Promise<number> {
  const query = rawQuery(db());
  const rows = await query<{ id: number; channel: string; topic: string; ordering_key: string; last_error: string | null }>(
    `UPDATE outbox_message SET status = 'FAILED'
      WHERE status = 'PENDING' AND channel IN ('exchange', 'exchange-call') AND last_error ~ $1
      RETURNING id, channel, topic, ordering_key, last_error`,
    [FINAL_REFUSALS],
  );
  for (const row of rows) {
    publish({ type: "outbox.changed", messageId: row.id, status: "FAILED" });
    const local = /^exchange-call:order:(\d+)$/.exec(row.ordering_key);
    if (row.channel === "exchange-call" && local?.[1]) {
      const orderId = Number(local[1]);
      await query(
        `UPDATE exchange_link SET note = $2, updated_at = now(),
                phase = CASE WHEN $3 = 'order' AND phase = 'SELLING' THEN 'REFUSED' ELSE phase END
          WHERE order_id = $1`,
        [orderId, `the exchange refused ${row.topic}: ${row.last_error ?? ""}`.slice(0, 500), row.topic],
      );
    }
  }
  if (rows.length > 0) {
    log.warn("exchange deliveries refused by the receiver", { count: rows.length });
    wakeOutbox();
  }
  return rows.length;
}

/** Delivered (or failed) calls of ours do not keep the session token. */
export async function forgetDeliveredTokens(): Promise<void> {
  await sqlExecute(
    db(),
    `UPDATE outbox_message SET payload = payload #- '{meta,token}'
      WHERE channel = 'exchange-call' AND status <> 'PENDING' AND created_at > now() - interval '2 days'
        AND (payload->'meta'->>'token') IS NOT NULL`,
  );
}

async function turn(state: { lastCheck: number }): Promise<void> {
  const cfg = config();
  if (participantSettings()) {
    const patched = await keepSession(db());
    if (patched > 0) wakeOutbox();
    if (cfg.EXCHANGE_SELL_AFTER_MINUTES > 0) await sellDueOrders(db());
    await recoverTakes(db());
    await resyncAfterNewSession(db()).catch((error: unknown) =>
      log.warn("exchange: orders could not be re-read after a new session", { error: error instanceof Error ? error.message : String(error) }),
    );
    await reportDrivers(db());
  }
  await settleRefusedDeliveries();
  await forgetDeliveredTokens();
  if (cfg.EXCHANGE_CHECK_SECONDS > 0 && Date.now() - state.lastCheck >= cfg.EXCHANGE_CHECK_SECONDS * 1000) {
    state.lastCheck = Date.now();
    await checkServers(db());
  }
}

export function startExchangeJobs(): () => Promise<void> {
  const interval = config().EXCHANGE_JOB_INTERVAL_MS;
  const state = { lastCheck: 0 };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = turn(state)
      .catch((error: unknown) => log.error("exchange jobs", error))
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
