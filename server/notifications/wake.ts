// Waking this instance's outbox worker when new messages are committed, so
// they go out at once rather than at the next poll. On its own module: the
// services that write messages need it, and the worker itself calls services
// (follow-ups of a delivery), which must not import the worker back.
import { EventEmitter } from "node:events";

const wakeKey = Symbol.for("taxi.outboxWake");
type Holder = { [wakeKey]?: EventEmitter };

/** One emitter per process (the custom server and Next's bundle each load this module). */
export function wakeEmitter(): EventEmitter {
  const holder = globalThis as Holder;
  holder[wakeKey] ??= new EventEmitter();
  return holder[wakeKey];
}

/** Tells this instance's worker that new messages are waiting (after commit). */
export function wakeOutbox(): void {
  wakeEmitter().emit("wake");
}
