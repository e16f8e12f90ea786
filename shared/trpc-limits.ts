// Limits of the console's tRPC endpoint, shared by the server and the
// browser's client (which must never send more than the server accepts).

/** Calls in one batched request; the client splits larger batches. */
export const TRPC_MAX_BATCH_SIZE = 25;

/** Live-update streams one operator may hold open at once (tabs, windows). */
export const MAX_LIVE_STREAMS_PER_USER = 8;
