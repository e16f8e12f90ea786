// Stored replies of requests that carried an Idempotency-Key, per API key.
// The row is written with the request's work, in its statement or its
// transaction (orders/insert-order.ts's statement; writeIdempotentReply in a
// payment's transaction), so a key never exists without its effect or the
// effect without its key. Rows older than IDEMPOTENCY_KEY_HOURS are expired:
// ignored and deleted when read, and swept by the cleanup job.
import { config } from "../config";
import type { DbOrTx } from "../db";
import { sqlExecute, sqlQuery } from "../db/sql";

export interface IdempotencyScope {
  apiKeyId: number;
  key: string;
  /** e.g. "POST order" */
  operation: string;
  fingerprint: string;
}

/** What a creating operation's work writes beside its effect. */
export interface IdempotentWrite<Created = { uuid: string; state: string }> extends IdempotencyScope {
  replyStatus: number;
  /** The reply body, built from what the work creates (a new order's uuid and state, a payment's balance after). */
  replyBody: (created: Created) => unknown;
}

export interface StoredReply {
  operation: string;
  fingerprint: string;
  replyStatus: number;
  replyBody: unknown;
}

const hours = () => config().IDEMPOTENCY_KEY_HOURS;

/** The stored reply of a key still kept, if any (an expired one is deleted on the way). */
export async function findStoredReply(db: DbOrTx, scope: Pick<IdempotencyScope, "apiKeyId" | "key">): Promise<StoredReply | null> {
  const [row] = await sqlQuery<{ operation: string; fingerprint: string; reply_status: number; reply_body: string; expired: boolean }>(
    db,
    `SELECT operation, fingerprint, reply_status, reply_body, created_at < now() AT TIME ZONE 'UTC' - $3 * interval '1 hour' AS expired
       FROM idempotency_key WHERE api_key_id = $1 AND key = $2`,
    [scope.apiKeyId, scope.key, hours()],
  );
  if (!row) return null;
  if (row.expired) {
    // Only if still expired: a retry racing with us may have just written it anew.
    await sqlExecute(db, `DELETE FROM idempotency_key WHERE api_key_id = $1 AND key = $2 AND created_at < now() AT TIME ZONE 'UTC' - $3 * interval '1 hour'`, [scope.apiKeyId, scope.key, hours()]);
    return null;
  }
  // Stored as the JSON text that was sent; parsed back, it serialises to the same bytes (key order kept).
  return { operation: row.operation, fingerprint: row.fingerprint, replyStatus: row.reply_status, replyBody: JSON.parse(row.reply_body) as unknown };
}

/**
 * Writes the key and its reply beside the work's effect: in the work's own
 * transaction (`db` is that transaction), so both commit or neither. A key
 * already written by a concurrent twin makes this insert wait on the primary
 * key and then fail with a unique violation, which rolls the work back and
 * which withIdempotencyKey (./replay.ts) answers with the twin's reply.
 */
export async function writeIdempotentReply<Created>(db: DbOrTx, write: IdempotentWrite<Created> | undefined, created: Created): Promise<void> {
  // No key on the request: nothing to keep.
  if (!write) return;
  await sqlExecute(
    db,
    `INSERT INTO idempotency_key (api_key_id, key, operation, fingerprint, reply_status, reply_body, created_at)
     VALUES ($1::int, $2::text, $3::text, $4::text, $5::int, $6::text, now() AT TIME ZONE 'UTC')`,
    [write.apiKeyId, write.key, write.operation, write.fingerprint, write.replyStatus, JSON.stringify(write.replyBody(created))],
  );
}

/** Deletes up to `limit` expired keys; returns how many. */
export async function deleteExpiredKeys(db: DbOrTx, limit = 1000): Promise<number> {
  const rows = await sqlQuery<{ n: number }>(
    db,
    `WITH gone AS (
       DELETE FROM idempotency_key WHERE (api_key_id, key) IN (
         SELECT api_key_id, key FROM idempotency_key
          WHERE created_at < now() AT TIME ZONE 'UTC' - $1 * interval '1 hour' LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [hours(), limit],
  );
  return rows[0]?.n ?? 0;
}
