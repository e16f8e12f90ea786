// Work that runs beside the HTTP server in every instance: the outbox
// delivery worker and the periodic jobs. Returns a function that stops it.
import { config } from "./config";
import { startOutboxWorker } from "./notifications/worker";
import { startExchangeJobs } from "./exchange/jobs";
import { startDispatchJob } from "./dispatch/job";
import { startIdempotencyCleanup } from "./idempotency/cleanup";
import { startSmsJobs } from "./sms/jobs";
import { startPbx } from "./pbx/pbx";

export function startBackgroundWork(): () => Promise<void> {
  const stops: Array<() => Promise<void>> = [];
  stops.push(startOutboxWorker(config().OUTBOX_POLL_MS));
  stops.push(startExchangeJobs());
  // Off where another instance runs the rounds (DISPATCH_ROUNDS, docs/configuration.md).
  if (config().DISPATCH_ROUNDS) stops.push(startDispatchJob());
  stops.push(startIdempotencyCleanup());
  stops.push(startSmsJobs());
  stops.push(startPbx());
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
