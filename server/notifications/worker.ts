// Delivers the outbox. Every instance runs one worker; they share the work
// through the database: a message is claimed with FOR UPDATE SKIP LOCKED and
// leased (its next attempt moved LEASE_SECONDS ahead), delivered outside any
// transaction, then marked. A crash leaves the lease to expire and another
// attempt follows: delivery is at least once, and receivers deduplicate by
// the delivery id. Messages sharing an ordering key go one at a time, in order.
import { db } from "../db";
import { sqlExecute, sqlQuery } from "../db/sql";
import { writeBatcher } from "../db/write-batcher";
import { log } from "../log";
import { publish } from "../events/bus";
import { deliver, type DeliveryResult } from "./senders";
import { wakeEmitter, wakeOutbox } from "./wake";
import { afterClientSms } from "../orders/client-notified";
import { recordDelivery } from "../metrics/http";

export { wakeOutbox } from "./wake";

const LEASE_SECONDS = 30;
const BATCH = 20;
export const MAX_ATTEMPTS = 60;

export function backoffMs(attempts: number): number {
  // 0.5 s, 1 s, 2 s ... capped at 60 s, with a little jitter.
  const base = Math.min(60_000, 500 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.85 + Math.random() * 0.3));
}

interface ClaimedRow {
  id: number;
  delivery_id: string;
  channel: string;
  topic: string;
  target: string;
  payload: unknown;
  attempts: number;
  /** Seconds since the message was written, at its claim. */
  age: number;
}

async function claim(): Promise<ClaimedRow[]> {
  return sqlQuery<ClaimedRow>(
    db(),
    `UPDATE outbox_message m
        SET next_attempt_at = now() + interval '${LEASE_SECONDS} seconds', attempts = m.attempts + 1
      WHERE m.id IN (
        SELECT o.id FROM outbox_message o
         WHERE o.status = 'PENDING' AND o.next_attempt_at <= now()
           AND NOT EXISTS (SELECT 1 FROM outbox_message e
                            WHERE e.ordering_key = o.ordering_key AND e.id < o.id AND e.status = 'PENDING')
         ORDER BY o.id
         LIMIT ${BATCH}
         FOR UPDATE SKIP LOCKED)
      RETURNING m.id, m.delivery_id, m.channel, m.topic, m.target, m.payload, m.attempts,
                EXTRACT(EPOCH FROM now() - m.created_at)::float8 AS age`,
  );
}

interface DeliveryRecord {
  id: number;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  status: "DELIVERED" | "FAILED" | "PENDING";
  backoffMs: number;
}

/**
 * The attempts and the messages' new states, for every delivery that ended
 * at about the same time, in one statement (server/db/write-batcher.ts): a
 * batch of deliveries finishes together, and a round trip each was a third
 * of an exchange registration's cost (docs/performance.md).
 */
const recorder = writeBatcher<DeliveryRecord>(async (records) => {
  await sqlExecute(
    db(),
    `WITH r AS (
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::text[], $6::int[])
                  AS r(id, http_status, error, duration_ms, status, backoff_ms)
     ), attempt AS (
       INSERT INTO delivery_attempt (message_id, at, http_status, error, duration_ms)
       SELECT id, now(), http_status, error, duration_ms FROM r
     )
     UPDATE outbox_message m
        SET status = r.status::"OutboxStatus",
            delivered_at = CASE WHEN r.status = 'DELIVERED' THEN now() ELSE m.delivered_at END,
            last_error = r.error,
            next_attempt_at = CASE WHEN r.status = 'PENDING' THEN now() + r.backoff_ms * interval '1 millisecond' ELSE m.next_attempt_at END
       FROM r
      WHERE m.id = r.id`,
    [
      records.map((r) => r.id),
      records.map((r) => r.httpStatus),
      records.map((r) => r.error),
      records.map((r) => r.durationMs),
      records.map((r) => r.status),
      records.map((r) => r.backoffMs),
    ],
  );
});

async function record(row: ClaimedRow, result: DeliveryResult, durationMs: number): Promise<void> {
  let status: DeliveryRecord["status"];
  if (result.ok) status = "DELIVERED";
  // Final: no more attempts, and the order's later messages go on (the
  // claim waits only for earlier PENDING messages of the same key).
  else if (!result.retriable || row.attempts >= MAX_ATTEMPTS) status = "FAILED";
  else status = "PENDING";
  await recorder.add({
    id: row.id,
    httpStatus: result.httpStatus ?? null,
    error: result.ok ? null : result.error.slice(0, 1000),
    durationMs: Math.round(durationMs),
    status,
    backoffMs: status === "PENDING" ? backoffMs(row.attempts) : 0,
  });
  publish({ type: "outbox.changed", messageId: row.id, status });
  recordDelivery(row.channel, status === "DELIVERED" ? "delivered" : status === "FAILED" ? "failed" : "retry", Number(row.age) + durationMs / 1000, durationMs / 1000);
}

/**
 * What a delivered message causes here, before it is marked delivered (a
 * crash in between delivers it again and finds the follow-up done): an SMS
 * that told the passenger of the car moves the order to 10 or 11.
 */
async function followUp(row: ClaimedRow): Promise<void> {
  if (row.channel === "sms") await afterClientSms(db(), row.payload);
}

async function deliverOne(row: ClaimedRow): Promise<void> {
  const started = Date.now();
  let result: DeliveryResult;
  try {
    result = await deliver({ deliveryId: row.delivery_id, channel: row.channel, topic: row.topic, target: row.target, payload: row.payload });
  } catch (error) {
    result = { ok: false, retriable: true, error: error instanceof Error ? error.message : String(error) };
  }
  if (result.ok) {
    // A follow-up that failed (the database away) is tried again with the
    // message: the passenger may get the SMS twice, the order is not left in 2.
    try {
      await followUp(row);
    } catch (error) {
      result = { ok: false, retriable: true, error: `delivered, follow-up failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  await record(row, result, Date.now() - started);
}

/** One pass: claims due messages and delivers them. Returns how many. */
export async function runOutboxOnce(): Promise<number> {
  const rows = await claim();
  await Promise.all(rows.map((row) => deliverOne(row)));
  return rows.length;
}

export function startOutboxWorker(pollMs: number): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let again = false;

  const tick = () => {
    if (stopped) return;
    clearTimeout(timer);
    running = running
      .then(async () => {
        do {
          again = false;
          const count = await runOutboxOnce();
          if (count === BATCH) again = true;
        } while (again && !stopped);
      })
      .catch((error: unknown) => log.error("outbox worker", error))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  const onWake = () => {
    // Coalesce: run soon, once.
    clearTimeout(timer);
    timer = setTimeout(tick, 0);
  };
  wakeEmitter().on("wake", onWake);
  timer = setTimeout(tick, 0);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    wakeEmitter().off("wake", onWake);
    await running;
  };
}

/** Puts a failed or pending message back to be delivered now (console: retry by hand). */
export async function retryOutboxMessage(id: number): Promise<void> {
  await sqlExecute(
    db(),
    `UPDATE outbox_message SET status = 'PENDING', next_attempt_at = now(), attempts = LEAST(attempts, ${MAX_ATTEMPTS - 10}) WHERE id = $1 AND status <> 'DELIVERED'`,
    [id],
  );
  wakeOutbox();
}
