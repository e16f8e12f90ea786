// The console sign-in's brute-force brake, per account and per client
// address: at most MAX_ATTEMPTS_PER_ACCOUNT attempts on one email, and
// MAX_ATTEMPTS_PER_ADDRESS from one address, are checked within WINDOW_MS;
// further attempts are refused without checking the password until the
// window passes.
//
// An attempt is reserved before the password is hashed, by one atomic
// statement in the database (INSERT ... ON CONFLICT DO UPDATE ... RETURNING):
// a burst of guesses sent at once is counted one by one, so only the first
// MAX_ATTEMPTS_PER_ACCOUNT reach scrypt and a right password later in the
// burst is refused like the rest. The database decides, so the counts hold
// across instances. A successful sign-in gives its reservations back (the
// account's count is cleared; the address keeps its failures).
import type { DbOrTx } from "../db";
import { sqlExecute, sqlQuery } from "../db/sql";

export const WINDOW_MS = 10 * 60_000;
export const MAX_ATTEMPTS_PER_ACCOUNT = 8;
export const MAX_ATTEMPTS_PER_ADDRESS = 30;
/** Expired windows are swept at most this often per process. */
const SWEEP_MS = 60_000;

const accountKey = (email: string) => `account:${email}`;
const addressKey = (address: string) => `address:${address}`;

/** Both counters move in one statement; a window older than WINDOW_MS starts again at this attempt. */
const RESERVE = `
  INSERT INTO sign_in_attempt (key, attempts, window_start) VALUES ($1, 1, now()), ($2, 1, now())
  ON CONFLICT (key) DO UPDATE SET
    attempts = CASE WHEN sign_in_attempt.window_start < now() - $3::int * interval '1 millisecond' THEN 1 ELSE sign_in_attempt.attempts + 1 END,
    window_start = CASE WHEN sign_in_attempt.window_start < now() - $3::int * interval '1 millisecond' THEN now() ELSE sign_in_attempt.window_start END
  RETURNING key, attempts`;

export interface Reservation {
  /** Whether the password may be checked at all. */
  allowed: boolean;
  /** The account's attempts in its window, this one included. */
  accountAttempts: number;
  /** Whether this refusal is the first of its window (the one to write to the audit log). */
  firstRefusal: boolean;
}

let lastSweep = 0;

/** Reserves one attempt for this account from this address, before any slow work. */
export async function reserveSignInAttempt(db: DbOrTx, email: string, address: string): Promise<Reservation> {
  if (Date.now() - lastSweep > SWEEP_MS) {
    lastSweep = Date.now();
    await sqlExecute(db, `DELETE FROM sign_in_attempt WHERE window_start < now() - $1::int * interval '1 millisecond'`, [WINDOW_MS]);
  }
  const rows = await sqlQuery<{ key: string; attempts: number }>(db, RESERVE, [accountKey(email), addressKey(address), WINDOW_MS]);
  const account = rows.find((r) => r.key === accountKey(email))?.attempts ?? 1;
  const from = rows.find((r) => r.key === addressKey(address))?.attempts ?? 1;
  const allowed = account <= MAX_ATTEMPTS_PER_ACCOUNT && from <= MAX_ATTEMPTS_PER_ADDRESS;
  // Exactly one attempt sees each counter pass its limit: that one is audited.
  const firstRefusal = !allowed && (account === MAX_ATTEMPTS_PER_ACCOUNT + 1 || from === MAX_ATTEMPTS_PER_ADDRESS + 1);
  return { allowed, accountAttempts: account, firstRefusal };
}

/** A successful sign-in clears its account's count and gives the address its attempt back (one good password does not buy more guesses elsewhere). */
export async function releaseSignInAttempt(db: DbOrTx, email: string, address: string): Promise<void> {
  await sqlExecute(db, `DELETE FROM sign_in_attempt WHERE key = $1`, [accountKey(email)]);
  await sqlExecute(db, `UPDATE sign_in_attempt SET attempts = GREATEST(attempts - 1, 0) WHERE key = $1`, [addressKey(address)]);
}
