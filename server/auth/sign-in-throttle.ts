// The console sign-in's brute-force brake, per account and per client
// address: past MAX_FAILURES_PER_ACCOUNT failed attempts on one email, or
// MAX_FAILURES_PER_ADDRESS from one address, within WINDOW_MS, further
// attempts are refused without checking the password until the window
// passes. The counts live in bounded LRU stores (lru-cache) whose entries
// expire with the window: memory stays bounded, and filling the store with
// other emails cannot reset the lock on a target (a busy entry is the most
// recently used; wiping it needs more failures than the per-address limit
// lets any one address make). Counts are per instance (docs/operations.md).
import { LRUCache } from "lru-cache";

export const WINDOW_MS = 10 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 8;
export const MAX_FAILURES_PER_ADDRESS = 30;
const MAX_ENTRIES = 100_000;

interface Counter {
  failures: number;
  /** Whether the audit log was already told this key is throttled in this window. */
  throttleAudited: boolean;
}

const storesKey = Symbol.for("taxi.signInThrottle");
type Holder = { [storesKey]?: { accounts: LRUCache<string, Counter>; addresses: LRUCache<string, Counter> } };

function stores() {
  const holder = globalThis as Holder;
  // ttl from the first failure: the window does not slide with each attempt.
  holder[storesKey] ??= {
    accounts: new LRUCache<string, Counter>({ max: MAX_ENTRIES, ttl: WINDOW_MS, updateAgeOnGet: false }),
    addresses: new LRUCache<string, Counter>({ max: MAX_ENTRIES, ttl: WINDOW_MS, updateAgeOnGet: false }),
  };
  return holder[storesKey];
}

export interface ThrottleState {
  throttled: boolean;
  /** Whether this refusal is the first of its window (the one to write to the audit log). */
  firstRefusal: boolean;
}

/** Whether an attempt for this account from this address may be checked at all. */
export function checkSignInThrottle(email: string, address: string): ThrottleState {
  const { accounts, addresses } = stores();
  const account = accounts.get(email);
  const from = addresses.get(address);
  const throttled = (account?.failures ?? 0) >= MAX_FAILURES_PER_ACCOUNT || (from?.failures ?? 0) >= MAX_FAILURES_PER_ADDRESS;
  if (!throttled) return { throttled, firstRefusal: false };
  const counter = (account?.failures ?? 0) >= MAX_FAILURES_PER_ACCOUNT ? account! : from!;
  const firstRefusal = !counter.throttleAudited;
  counter.throttleAudited = true;
  return { throttled, firstRefusal };
}

/** Counts a failure; returns how many failures the account has in its window. */
export function recordSignInFailure(email: string, address: string): number {
  const { accounts, addresses } = stores();
  for (const [store, key] of [[accounts, email], [addresses, address]] as const) {
    const counter = store.get(key);
    if (counter) counter.failures += 1;
    else store.set(key, { failures: 1, throttleAudited: false });
  }
  return accounts.get(email)?.failures ?? 1;
}

/** A successful sign-in clears its account's count (not its address's: one good password does not buy more guesses elsewhere). */
export function clearSignInFailures(email: string): void {
  stores().accounts.delete(email);
}
