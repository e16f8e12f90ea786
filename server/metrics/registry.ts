// The process's Prometheus metrics (prom-client): one registry and one set of
// metric objects per process. On globalThis because the custom server and
// Next's bundle (the console's tRPC) each load their own copy of this module
// in the same process; both must count into the same series.
// docs/metrics.md lists every series and what it means.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { registerProcessCounts } from "./process-counts";

/** Latency buckets in seconds: 1 ms to 10 s, dense where the APIs' goals are (5–100 ms). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Delivery lag buckets in seconds: 10 ms to an hour (the outbox retries for about an hour). */
const LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 900, 3600];

function create() {
  const registry = new Registry();
  // Event loop delay (nodejs_eventloop_lag_*), heap and RSS, GC: prom-client's defaults; the open files and
  // active resources counted apart, at most every 10 s and off the loop (process-counts.ts).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  registerProcessCounts(registry);
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: "taxi_requests_total",
      help: "Requests by interface (dispatch, exchange, participant, driver_app, console, next), operation and outcome",
      labelNames: ["interface", "operation", "outcome"] as const,
      registers,
    }),
    duration: new Histogram({
      name: "taxi_request_duration_seconds",
      help: "Time from the request to its reply, by interface and operation",
      labelNames: ["interface", "operation"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    errors: new Counter({
      name: "taxi_request_errors_total",
      help: "Requests answered with an error, by interface, operation and the protocol's error code",
      labelNames: ["interface", "operation", "code"] as const,
      registers,
    }),
    deliveries: new Counter({
      name: "taxi_outbox_deliveries_total",
      help: "Outbox delivery attempts by channel (callback, sms, exchange, exchange-call) and result (delivered, retry, failed)",
      labelNames: ["channel", "result"] as const,
      registers,
    }),
    deliveryLag: new Histogram({
      name: "taxi_outbox_delivery_lag_seconds",
      help: "From a message's creation to its delivery, by channel (exchange: the exchange's notifications to participants)",
      labelNames: ["channel"] as const,
      buckets: LAG_BUCKETS,
      registers,
    }),
    deliveryDuration: new Histogram({
      name: "taxi_outbox_delivery_duration_seconds",
      help: "One delivery attempt (the receiver's reply time), by channel",
      labelNames: ["channel"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    dbStatements: new Counter({
      name: "taxi_db_statements_total",
      help: "Statements this instance sent to PostgreSQL on its pool, each one round trip (Prisma's and the raw driver's alike; the embedded PGlite is not counted)",
      registers,
    }),
    relayEvents: new Counter({
      name: "taxi_event_relay_events_total",
      help: "Live events this instance sent to the other instances through PostgreSQL (server/events/pg-relay.ts)",
      registers,
    }),
    relayDropped: new Counter({
      name: "taxi_event_relay_dropped_total",
      help: "Live events the relay dropped unsent because more than its bound waited (the database slower than the events; a car's moves replace each other and are not counted here)",
      registers,
    }),
    relayWaiting: new Gauge({
      name: "taxi_event_relay_waiting",
      help: "Live events the relay has not sent yet (the batch going out and those waiting behind it), as its last batch started or ended",
      registers,
    }),
    relayNotifies: new Counter({
      name: "taxi_event_relay_notifies_total",
      help: "NOTIFY statements those events went in (several events to one, up to 8,000 bytes); each also counts in taxi_db_statements_total",
      registers,
    }),
    signIns: new Counter({
      name: "taxi_sign_in_attempts_total",
      help: "Console sign-in attempts by result: accepted and rejected had their password checked (scrypt); throttled were refused by the brake before it",
      labelNames: ["result"] as const,
      registers,
    }),
    dispatchRound: new Histogram({
      name: "taxi_dispatch_round_seconds",
      help: "One round of automatic dispatch in this instance (server/dispatch/job.ts): the sweep, the reads, the arrival times, the plan and the offers",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    dispatchRoundLast: new Gauge({
      name: "taxi_dispatch_round_last",
      help: "The last round of automatic dispatch: seconds it took, free orders and free drivers it considered, pairs whose arrival time was computed, offers made",
      labelNames: ["figure"] as const,
      registers,
    }),
    gauge: (name: string, help: string, labelNames: string[], collect: (g: Gauge) => void | Promise<void>) =>
      new Gauge({ name, help, labelNames, registers, collect(this: Gauge) { return collect(this); } }),
  };
}

export type Metrics = ReturnType<typeof create>;

const key = Symbol.for("taxi.metrics");
type Holder = { [key]?: Metrics };

export function metrics(): Metrics {
  const holder = globalThis as Holder;
  holder[key] ??= create();
  return holder[key];
}
