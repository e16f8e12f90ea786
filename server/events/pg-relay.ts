// Live events between instances sharing one PostgreSQL: local events are
// sent with NOTIFY on one channel, and a dedicated LISTEN connection hands
// the other instances' events to the local bus. (On the embedded database
// there is one process, and the in-process bus is all there is.)
//
// Events are sent in batches (spaced-batches.ts): one NOTIFY at a time is in
// flight, at most one every MIN_GAP_MS, and the events published meanwhile
// go together in the next one. A NOTIFY is a round trip (a socket write and read here, and a
// read on every listening connection), which under load cost as much as the
// work that caused the event: an order created or an exchange notification
// delivered paid one each (docs/performance.md). A lone event still goes at
// once.
import type pg from "pg";
import { connection } from "../db";
import { listenChannel } from "../db/listen";
import { log } from "../log";
import { metrics } from "../metrics/registry";
import { deliverRemote, instanceId, setForwarder, type Envelope } from "./bus";
import { isOwnPayload, relayBatches, readRelayPayload } from "./relay-batch";
import { spacedBatches } from "./spaced-batches";

const CHANNEL = "taxi_events";
/**
 * The least time between two NOTIFYs of this instance. One in flight at a
 * time alone made them as frequent as a round trip allows: 0.27 an order
 * created at 700 orders a second, a fifth of order creation's statements.
 * 20 ms bounds them to 50 a second, each as full as the events of 20 ms
 * make it, for at most 20 ms more on the way to the other instances.
 */
const MIN_GAP_MS = 20;

/**
 * The most events that wait for a NOTIFY. A car's moves replace each other
 * while they wait (only its latest state matters to a map), so a fleet's
 * positions take at most a place a car; this bounds the rest (offers,
 * orders) when the database falls behind for minutes: memory, not events,
 * is what runs out first otherwise (docs/performance.md).
 */
export const MAX_WAITING = 50_000;
const DROP_WARN_EVERY_MS = 60_000;

export async function startPgRelay(connectionString: string, pool: pg.Pool): Promise<() => Promise<void>> {
  // The LISTEN connection reconnects after any loss (a failover, a terminated
  // backend) until the process stops: server/db/listen.ts. Events sent while
  // it was down are lost for this instance's live views, as before a restart.
  const conn = connection();
  const self = instanceId();
  await listenChannel(conn.url === connectionString ? conn : { ...conn, url: connectionString }, CHANNEL, {
    notify: (payload) => {
      if (!payload || isOwnPayload(payload, self)) return;
      try {
        for (const envelope of readRelayPayload(payload)) deliverRemote(envelope);
      } catch (error) {
        log.warn("event relay: bad payload", error);
      }
    },
    resync: () => log.info("event relay: listening again"),
  });

  // In order, one NOTIFY per payload: a listener sees them in the order sent.
  let lastDropWarning = -Infinity;
  const batches = spacedBatches<Envelope>(
    async (batch) => {
      metrics().relayEvents.inc(batch.length);
      // Not sent yet: this batch and what waits behind it; after it, what came while it went.
      metrics().relayWaiting.set(batch.length + batches.waiting());
      for (const payload of relayBatches(batch)) {
        metrics().relayNotifies.inc();
        await pool.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]).catch((error: unknown) => log.warn("event relay: notify failed", error));
      }
      metrics().relayWaiting.set(batches.waiting());
    },
    {
      gapMs: MIN_GAP_MS,
      keyOf: (envelope) => (envelope.event.type === "driver.changed" ? envelope.event.driverId : undefined),
      maxWaiting: MAX_WAITING,
      onDrop: (count) => {
        metrics().relayDropped.inc(count);
        if (Date.now() - lastDropWarning < DROP_WARN_EVERY_MS) return;
        lastDropWarning = Date.now();
        log.warn("event relay: the database is behind the live events; the oldest were dropped", { dropped: count, waiting: MAX_WAITING });
      },
    },
  );
  setForwarder((envelope) => batches.push(envelope));

  return async () => {
    setForwarder(undefined);
    await batches.drain();
    // The listening connection ends with the database connection (closeDb).
  };
}
