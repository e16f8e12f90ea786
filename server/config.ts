// Configuration from the environment, validated once with zod. A bad setting
// stops the process with a message that names it (see loadConfig).
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { isSupportedCountry } from "libphonenumber-js/min";
import { smsSettings } from "./sms/settings";
import { PRODUCTION_DEFAULT } from "./dispatch/core/defaults";

const yesNo = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

/** "10.0.0.1, 10.1.0.0/16, ::1": addresses and CIDR ranges, comma-separated. */
const addressList = z
  .string()
  .default("")
  .refine(
    (text) => text.split(",").map((s) => s.trim()).filter(Boolean).every((entry) => ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry)),
    "must be IP addresses or CIDR ranges, comma-separated",
  );

export const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Public base URL of this instance, used in links and by next-auth. */
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** How long a request waits for a pooled PostgreSQL connection (and a new connection to open), ms (server/db/pool.ts). */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  /** PostgreSQL's statement_timeout of the pool's sessions, ms (migrations, the seed and OSM imports lift it). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  /** PostgreSQL's idle_in_transaction_session_timeout of the pool's sessions, ms: an abandoned transaction's connection is closed. */
  DATABASE_IDLE_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  /** The V8 heap's growth past its live data after a full collection, in percent (server/runtime/heap.ts); 0: V8's adaptive default. */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(400).default(20),
  DATA_DIR: z.string().default("./data"),
  /** Signs price tokens and console sessions; generated into DATA_DIR when unset. */
  APP_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  LANGUAGE: z.enum(["ru", "en"]).default("ru"),
  /** The country of phone numbers written without a country code (ISO 3166 alpha-2). */
  DEFAULT_COUNTRY: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .refine((s) => isSupportedCountry(s), "must be a country code such as RU, UZ, BY, KZ")
    .default("RU"),

  SEED_API_KEY: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  SEED_ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
  SEED_ADMIN_PASSWORD: optionalString.pipe(z.string().min(8, "must be at least 8 characters").optional()),
  SEED_DEMO: yesNo.default(true),

  /**
   * How long an estimate's price holds. 30 minutes: a chat user reads the
   * price, picks a payment, types a comment, answers a call, and confirms on
   * the same screen; a token that expired meanwhile makes the bot start over.
   * Demand moves slower than that on the prices it changes (at most
   * DEMAND_MAX_PERCENT).
   */
  PRICE_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(1800),
  ROAD_FACTOR: z.coerce.number().min(1).max(3).default(1.3),
  AVERAGE_SPEED_KMH: z.coerce.number().min(5).max(120).default(30),
  /** A point farther than this from every road is off the network: its route is the straight line times ROAD_FACTOR. */
  ROUTE_SNAP_METRES: z.coerce.number().min(1).max(5_000).default(300),
  /** Share of an order's price that bonuses may pay, in percent. */
  BONUS_MAX_PERCENT: z.coerce.number().int().min(0).max(100).default(30),
  /** Bonuses earned on a completed order, in percent of its price. */
  BONUS_ACCRUAL_PERCENT: z.coerce.number().int().min(0).max(100).default(5),
  /** Demand: markup percent per free order in excess of free drivers in a region. */
  DEMAND_STEP_PERCENT: z.coerce.number().int().min(0).max(100).default(10),
  DEMAND_MAX_PERCENT: z.coerce.number().int().min(0).max(500).default(50),

  /** Exchange commission in basis points (100 = 1%) on each buy and each sell. */
  EXCHANGE_COMMISSION_BP: z.coerce.number().int().min(0).max(10_000).default(500),
  EXCHANGE_SLAVES: z.string().default(""),
  EXCHANGE_TRUSTED: z.string().default(""),
  /** Our dispatch server as a participant: the exchange it trades on. */
  EXCHANGE_URL: optionalString.pipe(z.url().optional()),
  /** With no EXCHANGE_URL: this instance is the demo's exchange too, and we trade on it. */
  DEMO_EXCHANGE: yesNo.default(true),
  EXCHANGE_CLIENT_KEY: optionalString,
  /** Sell an order that nobody took within this many minutes (0: never). */
  EXCHANGE_SELL_AFTER_MINUTES: z.coerce.number().int().min(0).default(0),
  /** A take of ours unanswered for this long is settled by asking the exchange (more than a call's 10 s timeout). */
  EXCHANGE_TAKE_CHECK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** How often the exchange jobs run (session keeper, sell rule, refused deliveries). */
  EXCHANGE_JOB_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
  /**
   * Whether this instance runs automatic dispatch's rounds (server/dispatch/job.ts). Off on the instances that
   * serve the phones of a large fleet, so that rounds and their offers do not share those event loops; at least
   * one instance on the database must keep it on (the offers reach the others' streams through the event relay).
   */
  DISPATCH_ROUNDS: yesNo.default(true),
  /** How often automatic dispatch runs (server/dispatch/job.ts): offers, timeouts, escalation, queues. */
  DISPATCH_TICK_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** A driver whose last position is older than this is not offered orders (0: no limit). */
  DISPATCH_POSITION_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
  /** A driver whose app made no call and held no offer stream for this long is not offered orders (0: no limit). */
  DISPATCH_APP_SILENT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(90),
  /** After this many offers in a row let time out the driver is set away until acting again (0: never). */
  DISPATCH_AWAY_AFTER_TIMEOUTS: z.coerce.number().int().min(0).max(100).default(3),
  /** A free driver idle less than this gets no region hint (server/dispatch/hint-service.ts; the comparison's 3 minutes). */
  DISPATCH_HINT_MIN_IDLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(180),
  /** A city's region hints are computed at most this often (server/dispatch/hint-service.ts; 0: on every call, for tests). */
  DISPATCH_HINT_REFRESH_SECONDS: z.coerce.number().int().min(0).max(3_600).default(30),
  /** No region hints while an order of the city has waited this long without a car (the coverage rule's guard, COVERAGE_RULE.backlogSeconds; 0: no guard). */
  DISPATCH_HINT_BACKLOG_SECONDS: z.coerce.number().int().min(0).max(3_600).default(20),
  /** Under scarcity (more free orders than free cars in a round) the radius is capped at this many km and chains are off (0: never); server/dispatch/core/scarcity.ts. */
  DISPATCH_SCARCE_RADIUS_KM: z.coerce.number().min(0).max(100).default(PRODUCTION_DEFAULT.scarceRadiusKm),
  /** A round's offer transactions made at once on PostgreSQL (at most a third of the pool; 1 on the embedded database): server/dispatch/offer-batch.ts. 1: measured best for the positions on a shared 2-core machine. */
  DISPATCH_OFFER_LANES: z.coerce.number().int().min(1).max(16).default(1),
  /** Under deep scarcity (free orders at least four times the free cars) the cap is this instead (0: no deeper cap). */
  DISPATCH_DEEP_SCARCE_RADIUS_KM: z.coerce.number().min(0).max(100).default(PRODUCTION_DEFAULT.deepScarceRadiusKm),
  /** Our drivers executing exchange orders are reported (POST /driver/update) at most this often each. */
  EXCHANGE_DRIVER_REPORT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(10),
  /** The exchange checks participants' servers (GET /, /services, POST /drivers) this often (0: never). */
  EXCHANGE_CHECK_SECONDS: z.coerce.number().int().min(0).default(300),
  /** Enables /participant/control (automation of sell/take/move) for holders of this key. */
  EXCHANGE_CONTROL_KEY: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  /** meta.vendor in the exchange's and the participant endpoints' replies. */
  EXCHANGE_VENDOR: z.string().min(1).default("taxi-dispatch"),

  /** Requests per second per API key and per client address (0: no limit); bursts of twice that. */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(0).default(500),
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(1000),
  /** Requests per minute per client address to the console's sign-in routes, /api/auth/* (0: no limit); bursts of as many (server/http/auth-limit.ts). */
  AUTH_RATE_PER_ADDRESS: z.coerce.number().int().min(0).default(120),
  /** Load balancers / reverse proxies (addresses or CIDR, comma-separated) whose X-Forwarded-For names the client (docs/operations.md). */
  TRUSTED_PROXIES: z.string().default(""),
  /** Open connections per listener; more wait in the kernel's queue or are refused (server/http/tls.ts). */
  MAX_CONNECTIONS: z.coerce.number().int().min(16).max(1_000_000).default(4096),
  /** SIGTERM: how long requests in flight may take to finish before the process closes them and exits (docs/operations.md, "Faults"). */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(600).default(20),
  /** Requests served at once (the protocols, tRPC, pages); more wait in a queue (server/http/load-shed.ts). 0: no limit. */
  MAX_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).default(64),
  /** Requests that may wait for a place; more are refused at once in their protocol's form ("busy"). */
  MAX_REQUESTS_QUEUED: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /** How long a request may wait for a place before it is refused, ms. */
  MAX_QUEUE_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
  /** HSTS on plain HTTP too: behind a TLS-terminating proxy that forwards plain HTTP (docs/operations.md). */
  HSTS: yesNo.default(false),

  /**
   * Outgoing calls (status callbacks, the exchange's notifications, our
   * participant client): addresses or CIDR ranges allowed although they are
   * loopback, private, link-local or otherwise not public (server/http/outgoing.ts).
   */
  OUTGOING_ALLOW: addressList,
  /** Addresses or CIDR ranges refused although they are public. */
  OUTGOING_DENY: addressList,
  /** Largest reply body an outgoing call reads, in bytes. */
  OUTGOING_MAX_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),

  /** TLS (docs/panel.md): PEM files of the server's certificate (with its chain) and private key; both or neither. */
  TLS_CERT: optionalString,
  TLS_KEY: optionalString,
  /** PEM file holding the designated root authority of participants' panel certificates (default: the root in the database). */
  TLS_CLIENT_CA: optionalString,
  /** Generate a development TLS set into DATA_DIR/tls (and the authorities in the database when there are none). */
  TLS_DEV: yesNo.default(false),
  /** The participants' control panel's HTTPS port (the one that asks for client certificates); default PORT + 1. */
  PANEL_PORT: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),

  /** Prometheus metrics (docs/metrics.md): a listener of their own on this port (0: any free port); unset: none. */
  METRICS_PORT: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  /** Where the metrics listener binds: loopback by default, so only the host (or a sidecar) scrapes it. */
  METRICS_HOST: z.string().default("127.0.0.1"),
  /** A bearer token: GET /metrics on the main listener with it (and the metrics listener asks for it too); unset: the main listener has no /metrics. */
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),

  MAP_TILE_URL: z.string().default(""),
  /** Passenger tracking links (/t/<token>, docs/tracking.md): hours a link keeps working after its order is final (0: it stops at once). */
  TRACKING_LINK_HOURS: z.coerce.number().min(0).max(24 * 30).default(3),
  /** Hours after a trip is done within which the passenger may rate it through the link. */
  RATING_WINDOW_HOURS: z.coerce.number().min(0).max(24 * 30).default(24),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  /** Deliveries in flight at once per instance, and at most this many to one receiver (origin): a slow receiver holds back only its own. */
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  OUTBOX_PER_TARGET: z.coerce.number().int().min(1).max(100).default(8),
  /** How long a delivery (status callback, exchange notification, SMS) that keeps failing is retried (exponential backoff with jitter, at most OUTBOX_MAX_BACKOFF_SECONDS apart) before it is given up. */
  OUTBOX_RETRY_HOURS: z.coerce.number().min(0.01).max(24 * 30).default(72),
  OUTBOX_MAX_BACKOFF_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** How long an Idempotency-Key's reply is kept (a retry within it gets the first reply). */
  IDEMPOTENCY_KEY_HOURS: z.coerce.number().min(1).max(24 * 30).default(24),
  /** Run the driver and passenger simulator beside the server (the demo; set 0 in production). */
  SIMULATE: yesNo.default(true),
  /** Simulated drivers: the first this many drivers of the city by call sign. */
  SIMULATE_DRIVERS: z.coerce.number().int().min(1).max(5_000).default(40),
  /** Passenger orders per simulated minute (a steady rate). */
  SIMULATE_ORDERS_PER_MINUTE: z.coerce.number().min(0).max(10_000).default(2),
  /** Simulated seconds per real second. */
  SIMULATE_SPEEDUP: z.coerce.number().min(0.1).max(1_000).default(1),
  /** The same seed plays the same day. */
  SIMULATE_SEED: z.coerce.number().int().min(0).max(4_294_967_295).default(1),
  /** The share of region hints (GET /driver-app/v1/hint) a simulated driver follows, driving toward the target while free (0: none). */
  SIMULATE_HINT_FOLLOW: z.coerce.number().min(0).max(1).default(0.6),
  /** Radius in km around the city's centre where simulated drivers and passengers live. */
  SIMULATE_CITY_KM: z.coerce.number().min(0.5).max(200).default(8),
  /** Orders the simulated second exchange participant sells per simulated minute (0: no such participant); it plays only on this server's own exchange (the demo exchange). */
  SIMULATE_EXCHANGE_ORDERS_PER_MINUTE: z.coerce.number().min(0).max(1_000).default(0.2),
  /** The service's commission on a completed order, debited from the driver's balance (percent of the fare). */
  DRIVER_COMMISSION_PERCENT: z.coerce.number().min(0).max(100).default(15),
  /** The office PBX over the Asterisk Manager Interface (docs/console.md, "The phone"): ami://USER:SECRET@HOST:5038; unset: no AMI. */
  AMI_URL: optionalString.pipe(
    z
      .string()
      .regex(/^ami:\/\/[^:@/\s]+:[^@/\s]+@[^/\s]+$/, "must be ami://USER:SECRET@HOST:5038")
      .optional(),
  ),
  /** How often the AMI session is pinged (Action: Ping); an unanswered ping reconnects. */
  AMI_PING_SECONDS: z.coerce.number().min(0.2).max(3_600).default(20),
  /** The longest wait between reconnection attempts to the PBX (doubling from 0.25 s, jittered). */
  AMI_RECONNECT_MAX_SECONDS: z.coerce.number().min(0.2).max(3_600).default(30),
  /** Click-to-call's Originate: the channel that rings the dispatcher first, {extension} replaced by theirs. */
  AMI_ORIGINATE_CHANNEL: z.string().trim().min(1).max(200).default("Local/{extension}@from-internal"),
  /** Click-to-call's Originate: the dialplan context that then dials the number (FreePBX's is from-internal). */
  AMI_ORIGINATE_CONTEXT: z.string().trim().min(1).max(80).default("from-internal"),
  /** Cloud PBXs' incoming-call webhooks (POST /pbx/<name>/call): name=secret pairs, comma-separated; each secret at least 16 characters. */
  PBX_WEBHOOK_SECRETS: z
    .string()
    .default("")
    .refine(
      (text) => text.split(",").map((s) => s.trim()).filter(Boolean).every((pair) => /^[a-z0-9_-]{1,40}=\S{16,}$/i.test(pair)),
      "must be name=secret pairs, comma-separated (names: letters, digits, - and _; secrets: at least 16 characters)",
    ),
  /** A webhook whose timestamp is further than this from our clock is refused (a replay or a wrong clock). */
  PBX_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(5).max(3_600).default(300),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** The passengers' SMS: provider, SMPP and HTTP settings (docs/sms.md). */
  ...smsSettings,
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Bad configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

const cacheKey = Symbol.for("taxi.config");
type Holder = { [cacheKey]?: Config };

/** The validated configuration of this process (read once). */
export function config(): Config {
  const holder = globalThis as Holder;
  holder[cacheKey] ??= parseConfig(process.env);
  return holder[cacheKey];
}
