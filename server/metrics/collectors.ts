// Gauges read when Prometheus scrapes: the outbox's depth and oldest pending
// message (from the database, shared by every instance), the database pool,
// the console's open live streams, and the sizes of the process's caches.
import { connection, db } from "../db";
import { sqlQuery } from "../db/sql";
import { log } from "../log";
import { metrics } from "./registry";

const OUTBOX_QUERY = `
  SELECT channel, count(*)::int AS pending, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest,
         count(*) FILTER (WHERE attempts > 0)::int AS retrying
    FROM outbox_message WHERE status = 'PENDING' GROUP BY channel`;

/** The outbox read at most this often, however many scrapers ask (it counts rows). */
const OUTBOX_TTL_MS = 5_000;

interface OutboxRow { channel: string; pending: number; oldest: number; retrying: number }

let outboxRead: { at: number; rows: Promise<OutboxRow[]> } | undefined;

function outboxRows(): Promise<OutboxRow[]> {
  if (!outboxRead || Date.now() - outboxRead.at > OUTBOX_TTL_MS) {
    const rows = sqlQuery<OutboxRow>(db(), OUTBOX_QUERY).catch((error: unknown) => {
        log.warn("metrics: outbox query failed", error);
        return [];
      });
    outboxRead = { at: Date.now(), rows };
  }
  return outboxRead.rows;
}

/** Process-wide sizes of caches that other modules register (server/metrics/caches.ts). */
const cacheKey = Symbol.for("taxi.metrics.caches");
type CacheHolder = { [cacheKey]?: Map<string, () => number> };
export function cacheSizes(): Map<string, () => number> {
  const holder = globalThis as CacheHolder;
  holder[cacheKey] ??= new Map();
  return holder[cacheKey];
}

/** The live streams open in this process (server/trpc/routers/live.ts keeps them per operator on globalThis). */
function liveStreamsOpen(): number {
  const map = (globalThis as { [k: symbol]: unknown })[Symbol.for("taxi.liveStreams")];
  if (!(map instanceof Map)) return 0;
  let n = 0;
  for (const v of map.values()) n += typeof v === "number" ? v : 0;
  return n;
}

/** The process's bounded caches, by the globalThis key each module keeps it under, with their bounds (docs/metrics.md). */
const CACHES: Record<string, string> = {
  api_keys: "taxi.apiKeyCache",
  driver_app_keys: "taxi.driverAppKeyCache",
  exchange_dns: "taxi.exchangeDnsCache",
  demand: "taxi.demandCache",
  driver_reports: "taxi.exchangeDriverReports",
};

function sizeOf(value: unknown): number | undefined {
  if (value instanceof Map || value instanceof Set) return value.size;
  return undefined;
}

const doneKey = Symbol.for("taxi.metrics.collectors");

/** Registers the gauges once per process. */
export function registerCollectors(): void {
  const holder = globalThis as { [doneKey]?: boolean };
  if (holder[doneKey]) return;
  holder[doneKey] = true;
  const m = metrics();
  // Three gauges from one query: each collect awaits the same (cached) read.
  const CHANNELS = ["callback", "sms", "exchange", "exchange-call"];
  const fromOutbox = (name: string, help: string, field: "pending" | "oldest" | "retrying") =>
    m.gauge(name, help, ["channel"], async (g) => {
      const rows = await outboxRows();
      g.reset();
      for (const channel of CHANNELS) g.set({ channel }, 0);
      for (const r of rows) g.set({ channel: r.channel }, r[field]);
    });
  fromOutbox("taxi_outbox_pending", "Messages waiting in the outbox, by channel (shared by all instances)", "pending");
  fromOutbox("taxi_outbox_oldest_pending_seconds", "Age of the oldest message waiting in the outbox, by channel", "oldest");
  fromOutbox("taxi_outbox_retrying", "Waiting messages that failed at least once, by channel", "retrying");
  m.gauge("taxi_db_pool_connections", "Database connections of this instance by state (PGlite: one in-process connection)", ["state"], (g) => {
    const conn = connection();
    if (conn.pool) {
      g.set({ state: "total" }, conn.pool.totalCount);
      g.set({ state: "idle" }, conn.pool.idleCount);
      g.set({ state: "waiting" }, conn.pool.waitingCount);
      g.set({ state: "max" }, conn.pool.options.max ?? 10);
    } else {
      g.set({ state: "total" }, 1);
      g.set({ state: "max" }, 1);
    }
  });
  m.gauge("taxi_live_streams_open", "The console's live event streams open in this instance", [], (g) => g.set(liveStreamsOpen()));
  m.gauge("taxi_cache_entries", "Entries held by each bounded in-process cache", ["cache"], (g) => {
    for (const [name, size] of cacheSizes()) g.set({ cache: name }, size());
    const holder = globalThis as { [k: symbol]: unknown };
    for (const [name, key] of Object.entries(CACHES)) {
      const size = sizeOf(holder[Symbol.for(key)]);
      if (size !== undefined) g.set({ cache: name }, size);
    }
  });
}
