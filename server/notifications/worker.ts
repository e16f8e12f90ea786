// Delivers the outbox. Every instance runs one worker; they share the work
// through the database: a message is claimed with FOR UPDATE SKIP LOCKED and
// leased (its next attempt moved LEASE_SECONDS ahead), delivered outside any
// transaction, then marked. A crash leaves the lease to expire and another
// attempt follows: delivery is at least once, and receivers deduplicate by
// the delivery id. Messages sharing an ordering key go one at a time, in order.
// Deliveries run with a concurrency per receiver (startOutboxWorker): no slow
// receiver holds back another's messages.
import { db } from "../db";
import { sqlExecute, sqlQuery } from "../db/sql";
import { writeBatcher } from "../db/write-batcher";
import { log } from "../log";
import { publish } from "../events/bus";
import { deliver, type DeliveryResult } from "./senders";
import { wakeEmitter, wakeOutbox } from "./wake";
import { afterClientSms } from "../orders/client-notified";
import { recordDelivery } from "../metrics/http";
import { config } from "../config";
import { nextAttemptDelayMs, retryPolicy, type RetryPolicy } from "./schedule";

export { wakeOutbox } from "./wake";
export { retryDelayMs, nextAttemptDelayMs } from "./schedule";

const LEASE_SECONDS = 30;
/** What runOutboxOnce claims (tests that drive the outbox by hand). */
const BATCH = 20;
/** How far ahead of the claim the candidates are read (bounds the claim's scan). */
const CANDIDATES = 500;

function policy(): RetryPolicy {
  const cfg = config();
  return retryPolicy({ maxBackoffSeconds: cfg.OUTBOX_MAX_BACKOFF_SECONDS, retryHours: cfg.OUTBOX_RETRY_HOURS });
}

interface ClaimedRow {
  id: number;
  delivery_id: string;
  channel: string;
  topic: string;
  target: string;
  /** The receiver a delivery occupies: the URL's origin (scheme://host:port), or the channel for other targets. */
  origin: string;
  payload: unknown;
  attempts: number;
  /** Seconds since the message was written, at its claim. */
  age: number;
}

/** The receiver of a message, in SQL (the same expression decides the claim and what the worker counts). */
const ORIGIN_SQL = `CASE WHEN o.target ~ '^[a-zA-Z][a-zA-Z0-9+.-]*://' THEN lower(substring(o.target from '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*')) ELSE o.channel END`;

/**
 * Claims up to `limit` due messages, at most `perTarget` minus what is
 * already `busy` for each receiver: a receiver with all its slots taken gets
 * nothing more, and its messages wait without holding back anyone else's.
 * The candidates are read without locks, then claimed with FOR UPDATE SKIP
 * LOCKED (re-checked on the latest row: a message another instance claimed
 * meanwhile has its lease and is skipped), so no message is delivered twice.
 */
async function claim(limit: number, perTarget: number, busy: ReadonlyMap<string, number>): Promise<ClaimedRow[]> {
  return sqlQuery<ClaimedRow>(
    db(),
    `WITH candidate AS (
       SELECT c.id, c.origin FROM (
         SELECT o.id, ${ORIGIN_SQL} AS origin FROM outbox_message o
          WHERE o.status = 'PENDING' AND o.next_attempt_at <= now()
            -- receivers with every slot taken are left out of the scan, so a
            -- backlog of theirs never fills the candidates
            AND ${ORIGIN_SQL} <> ALL($5::text[])
            AND NOT EXISTS (SELECT 1 FROM outbox_message e
                             WHERE e.ordering_key = o.ordering_key AND e.id < o.id AND e.status = 'PENDING')
          ORDER BY o.id
          LIMIT ${CANDIDATES}) c
       ), ranked AS (
         SELECT c.id, c.origin, row_number() OVER (PARTITION BY c.origin ORDER BY c.id) AS n FROM candidate c
       ), allowed AS (
         SELECT r.id, r.origin FROM ranked r
           LEFT JOIN unnest($1::text[], $2::int[]) AS b(origin, used) ON b.origin = r.origin
          WHERE r.n + coalesce(b.used, 0) <= $3
          ORDER BY r.id
          LIMIT $4
       ), locked AS (
         SELECT m.id FROM outbox_message m
          WHERE m.id IN (SELECT id FROM allowed) AND m.status = 'PENDING' AND m.next_attempt_at <= now()
          FOR UPDATE SKIP LOCKED
       )
     UPDATE outbox_message m
        SET next_attempt_at = now() + interval '${LEASE_SECONDS} seconds', attempts = m.attempts + 1
       FROM allowed a
      WHERE m.id IN (SELECT id FROM locked) AND a.id = m.id
      RETURNING m.id, m.delivery_id, m.channel, m.topic, m.target, a.origin, m.payload, m.attempts,
                EXTRACT(EPOCH FROM now() - m.created_at)::float8 AS age`,
    [[...busy.keys()], [...busy.values()], perTarget, limit, [...busy].filter(([, used]) => used >= perTarget).map(([origin]) => origin)],
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
  // Final: no more attempts, and the order's later messages go on (the
  // claim waits only for earlier PENDING messages of the same key).
  let delayMs: number | null = null;
  if (result.ok) status = "DELIVERED";
  else if (!result.retriable) status = "FAILED";
  else {
    delayMs = nextAttemptDelayMs(policy(), row.attempts, Number(row.age) * 1000 + durationMs, Math.random());
    status = delayMs === null ? "FAILED" : "PENDING";
  }
  await recorder.add({
    id: row.id,
    httpStatus: result.httpStatus ?? null,
    error: result.ok ? null : result.error.slice(0, 1000),
    durationMs: Math.round(durationMs),
    status,
    backoffMs: delayMs ?? 0,
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
  const rows = await claim(BATCH, BATCH, new Map());
  await Promise.all(rows.map((row) => deliverOne(row)));
  return rows.length;
}

/**
 * The worker: up to OUTBOX_CONCURRENCY deliveries in flight, at most
 * OUTBOX_PER_TARGET to one receiver. Each delivery that ends frees its slot
 * and the next due message is claimed at once (no batch waits for its
 * slowest member), so a receiver that answers in 30 s ties up only its own
 * slots and every other receiver's callbacks go out on time.
 */
export function startOutboxWorker(pollMs: number): () => Promise<void> {
  const { OUTBOX_CONCURRENCY: total, OUTBOX_PER_TARGET: perTarget } = config();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let claiming: Promise<void> | null = null;
  let again = false;
  const inFlight = new Set<Promise<void>>();
  const busy = new Map<string, number>();

  const start = (row: ClaimedRow) => {
    busy.set(row.origin, (busy.get(row.origin) ?? 0) + 1);
    const delivery = deliverOne(row)
      .catch((error: unknown) => log.error("outbox delivery", error))
      .finally(() => {
        const left = (busy.get(row.origin) ?? 1) - 1;
        if (left > 0) busy.set(row.origin, left);
        else busy.delete(row.origin);
        inFlight.delete(delivery);
        pump();
      });
    inFlight.add(delivery);
  };

  // One claim at a time in this process; a request to pump during a claim runs another after it.
  function pump(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    const free = total - inFlight.size;
    if (free <= 0) return;
    again = false;
    claiming = claim(free, perTarget, busy)
      .then((rows) => {
        for (const row of rows) start(row);
        // A full claim may have left more due messages behind.
        if (rows.length === free) again = true;
      })
      .catch((error: unknown) => log.error("outbox worker", error))
      .finally(() => {
        claiming = null;
        if (again && !stopped) setImmediate(pump);
      });
  }

  const poll = () => {
    pump();
    if (!stopped) timer = setTimeout(poll, pollMs);
  };
  const onWake = () => pump();
  wakeEmitter().on("wake", onWake);
  timer = setTimeout(poll, 0);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    wakeEmitter().off("wake", onWake);
    await claiming;
    await Promise.all([...inFlight]);
  };
}

/** Puts a failed or pending message back to be delivered now (console: retry by hand). */
export async function retryOutboxMessage(id: number): Promise<void> {
  await sqlExecute(
    db(),
    `UPDATE outbox_message SET status = 'PENDING', next_attempt_at = now(), attempts = LEAST(attempts, 5) WHERE id = $1 AND status <> 'DELIVERED'`,
    [id],
  );
  wakeOutbox();
}
