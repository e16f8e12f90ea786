// The PostgreSQL pool of an instance, built to heal by itself (docs/operations.md, "Faults").
//
// A failover, a pooler's restart, an operator's pg_terminate_backend or the
// server's own idle_in_transaction_session_timeout end connections that are
// checked out. pg's pool only learns of it when the holder releases the
// client, and a holder that lost its connection mid-transaction (Prisma's
// interactive transactions, whose ROLLBACK then fails) may never release
// it: the pool filled with dead clients and every request waited forever.
// So:
//   - every checked-out client listens for its connection's end or error and
//     is then released with the error (pg destroys it; the holder's later
//     release is a no-op): no dead client stays counted;
//   - a checkout waits at most DATABASE_CONNECT_TIMEOUT_MS;
//   - each session has statement_timeout and idle_in_transaction_session_timeout
//     (long work such as migrations, the demo seed or an OSM import sets its own);
//   - a watchdog: when requests have waited for a connection, and none has been
//     handed out, for DATABASE_CONNECT_TIMEOUT_MS, the clients held longer than that are
//     reclaimed (destroyed, their sessions end, PostgreSQL rolls back their
//     work) so that the pool refills with new connections.
import pg, { type PoolClient } from "pg";
import { log } from "../log";

export interface PoolSettings {
  url: string;
  max: number;
  /** libpq options every session starts with (TimeZone...). */
  sessionOptions: string;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

export interface PoolHealth {
  /** Clients waiting for a connection while none has been handed out for the connect timeout: the pool is stuck. */
  stalled: boolean;
  /** Clients the watchdog reclaimed, all the process's life. */
  reclaimed: number;
}

export interface HealingPool {
  pool: pg.Pool;
  health: () => PoolHealth;
  /** Stops the watchdog (the pool itself is ended by its owner). */
  stop: () => void;
}

const noop = () => undefined;

/** Releases a checked-out client with an error (pg then destroys it) and makes the holder's own release a no-op. */
function discard(client: PoolClient, error: Error): void {
  const release = client.release;
  client.release = noop;
  try {
    release.call(client, error);
  } catch {
    // released meanwhile: nothing to do
  }
}

export function createHealingPool(settings: PoolSettings): HealingPool {
  const options = [
    settings.sessionOptions,
    `-c statement_timeout=${settings.statementTimeoutMs}`,
    `-c idle_in_transaction_session_timeout=${settings.idleInTransactionTimeoutMs}`,
  ].join(" ");
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.max,
    options,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // A peer that vanished without closing (a network partition) is found by TCP keep-alive.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });

  /** Checked-out clients and since when. */
  const held = new Map<PoolClient, number>();
  const watched = new WeakSet<PoolClient>();
  let lastHandedOut = Date.now();
  let reclaimed = 0;

  // An idle client's error is pg's to handle (it removes the client); without a listener it would end the process.
  pool.on("error", (error) => log.warn("database: an idle connection failed", { message: error.message }));
  pool.on("acquire", (client) => {
    lastHandedOut = Date.now();
    held.set(client, lastHandedOut);
    if (watched.has(client)) return;
    watched.add(client);
    const lost = (error?: Error) => {
      if (!held.has(client)) return; // idle: the pool's own listener deals with it
      held.delete(client);
      discard(client, error ?? new Error("database connection ended"));
    };
    client.on("error", lost);
    client.on("end", () => lost());
  });
  pool.on("release", (_error, client) => held.delete(client));
  pool.on("remove", (client) => held.delete(client));

  // Since when requests have been waiting (sampled by the watchdog): a waiter that just came is no stall.
  let waitingSince: number | undefined;
  const stalled = () => {
    if (pool.waitingCount === 0) return false;
    const now = Date.now();
    return now - Math.max(lastHandedOut, waitingSince ?? now) > settings.connectTimeoutMs;
  };
  const timer = setInterval(
    () => {
      if (pool.waitingCount === 0) waitingSince = undefined;
      else waitingSince ??= Date.now();
      if (!stalled()) return;
      const now = Date.now();
      const stale = [...held].filter(([, since]) => now - since > settings.connectTimeoutMs);
      if (!stale.length) return;
      log.warn("database: pool stuck, reclaiming connections", { reclaimed: stale.length, waiting: pool.waitingCount, total: pool.totalCount });
      for (const [client] of stale) {
        held.delete(client);
        reclaimed += 1;
        discard(client, new Error("connection reclaimed by the pool's watchdog"));
      }
    },
    Math.max(250, Math.min(1_000, settings.connectTimeoutMs / 2)),
  );
  timer.unref();

  return {
    pool,
    health: () => ({ stalled: stalled(), reclaimed }),
    stop: () => clearInterval(timer),
  };
}
