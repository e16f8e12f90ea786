// Running a creating request under its Idempotency-Key: a key already used
// answers its stored reply (the same parameters) or is refused (different
// ones); otherwise the work runs and writes the key with its effect. Two
// requests with one key at once are decided by the database: the second's
// insert of the key waits on the unique key until the first commits, fails,
// and then finds the first's reply to answer. Nothing is decided in memory.
import type { DbOrTx } from "../db";
import { DomainError, isDomainError, isUniqueViolation } from "../errors";
import { findStoredReply, type IdempotencyScope, type StoredReply } from "./store";

export interface IdempotentOutcome<T> {
  /** The reply body: the work's, or the stored one of the first request. */
  reply: T | unknown;
  replayed: boolean;
}

function replayOf(stored: StoredReply, scope: IdempotencyScope): IdempotentOutcome<never> {
  if (stored.fingerprint !== scope.fingerprint || stored.operation !== scope.operation) {
    throw new DomainError("IDEMPOTENCY_KEY_REUSED", { key: scope.key });
  }
  return { reply: stored.replyBody, replayed: true };
}

export async function withIdempotencyKey<T>(db: DbOrTx, scope: IdempotencyScope, work: () => Promise<T>): Promise<IdempotentOutcome<T>> {
  const before = await findStoredReply(db, scope);
  if (before) return replayOf(before, scope);
  try {
    return { reply: await work(), replayed: false };
  } catch (error) {
    // The key's unique violation (or the token's, which the order service
    // reports as TOKEN_USED) after a concurrent twin committed: answer its reply.
    if (isUniqueViolation(error) || (isDomainError(error) && error.code === "TOKEN_USED")) {
      const after = await findStoredReply(db, scope);
      if (after) return replayOf(after, scope);
    }
    throw error;
  }
}
