// Live events for the consoles (order board, map). In one process an
// EventEmitter; when several instances share PostgreSQL, every event is also
// sent with NOTIFY and events of the other instances arrive by LISTEN
// (server/events/pg-relay.ts), so a change made anywhere reaches every console.
import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";

export type LiveEvent =
  | { type: "order.changed"; orderId: number; uuid: string; state: string; statusCode: number; driverId: number | null; regionId: number | null }
  | { type: "order.created"; orderId: number; uuid: string; state: string; statusCode: number; regionId: number | null }
  | { type: "driver.changed"; driverId: number; callSign: string; state: string; lat: number | null; lon: number | null; speed: number; bearing: number; regionId: number | null }
  | { type: "balance.changed"; account: "driver" | "customer" | "exchange"; id: number; balance: string }
  | { type: "exchange.changed"; exchangeOrderId: number; state: string }
  | { type: "outbox.changed"; messageId: number; status: string }
  | { type: "offer.changed"; offerId: number; orderId: number; driverId: number; state: string; kind: string; deadline: string }
  // A phone call for the consoles' pop-up (server/pbx/calls.ts): userIds null goes to every dispatcher, else to those only.
  | { type: "call.changed"; callId: number; state: "RINGING" | "ANSWERED" | "MISSED" | "ENDED"; phone: string; callerName: string; extension: string; userIds: number[] | null; handled: boolean }
  // Access withdrawn: open streams of that user (console) or driver (driver app) end at once, on every instance.
  | { type: "user.sessionsRevoked"; userId: number }
  | { type: "driver.accessRevoked"; driverId: number }
  // A message between dispatch and a driver (server/messages/): the driver's offer stream, the consoles' unread count.
  | { type: "driver.message"; driverId: number; messageId: number; sender: "DISPATCHER" | "DRIVER" };

export interface Envelope {
  /** The instance that published it, so a relay does not echo its own. */
  origin: string;
  event: LiveEvent;
  at: number;
}

interface Bus {
  emitter: EventEmitter;
  instanceId: string;
  /** Set by the PostgreSQL relay: forwards local events to the other instances. */
  forward?: (envelope: Envelope) => void;
}

const key = Symbol.for("taxi.eventBus");
type Holder = { [key]?: Bus };

function bus(): Bus {
  const holder = globalThis as Holder;
  if (!holder[key]) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    holder[key] = { emitter, instanceId: randomUUID() };
  }
  return holder[key];
}

export function instanceId(): string {
  return bus().instanceId;
}

/** Publishes an event (after the transaction that caused it committed). */
export function publish(event: LiveEvent): void {
  const b = bus();
  const envelope: Envelope = { origin: b.instanceId, event, at: Date.now() };
  b.emitter.emit("event", envelope);
  b.forward?.(envelope);
}

/** Delivers an event that came from another instance. */
export function deliverRemote(envelope: Envelope): void {
  if (envelope.origin === bus().instanceId) return;
  bus().emitter.emit("event", envelope);
}

export function setForwarder(forward: ((envelope: Envelope) => void) | undefined): void {
  bus().forward = forward;
}

export function subscribe(listener: (event: LiveEvent) => void): () => void {
  const handler = (envelope: Envelope) => listener(envelope.event);
  bus().emitter.on("event", handler);
  return () => bus().emitter.off("event", handler);
}
