// When a failed delivery is tried again, and when it is given up. Webhook
// senders retry for days (Stripe: 3 days) because receivers go down for
// hours, not seconds: exponential backoff from 0.5 s, doubling up to a cap
// (OUTBOX_MAX_BACKOFF_SECONDS, an hour), with full jitter on the upper half
// so that many messages failed together do not come back together; given up
// once the message is older than the horizon (OUTBOX_RETRY_HOURS, 3 days).
// Pure: the worker passes the settings and the dice.

export interface RetryPolicy {
  /** First delay. */
  baseMs: number;
  /** Longest delay between two attempts. */
  maxDelayMs: number;
  /** A message older than this is given up after a failed attempt. */
  horizonMs: number;
}

export function retryPolicy(settings: { maxBackoffSeconds: number; retryHours: number }): RetryPolicy {
  return { baseMs: 500, maxDelayMs: settings.maxBackoffSeconds * 1000, horizonMs: settings.retryHours * 3_600_000 };
}

/** The delay before the next attempt after `attempts` attempts (1 = the first failed), `random` in [0, 1). */
export function retryDelayMs(policy: RetryPolicy, attempts: number, random: number): number {
  const exponent = Math.min(Math.max(0, attempts - 1), 40);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** exponent);
  // Half fixed, half random: never sooner than half the step, spread over the rest.
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/**
 * What follows a failed attempt of a message `ageMs` old: the delay of the
 * next one, or null to give up (past the horizon, or the next attempt would be).
 */
export function nextAttemptDelayMs(policy: RetryPolicy, attempts: number, ageMs: number, random: number): number | null {
  const delay = retryDelayMs(policy, attempts, random);
  if (ageMs >= policy.horizonMs) return null;
  // The last attempt lands on the horizon rather than beyond it.
  return Math.min(delay, Math.max(0, policy.horizonMs - ageMs));
}
