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

// Per-driver listeners (a driver's offer stream or long poll): one listener
// on the bus hands each event about a driver to that driver's listeners only.
// With 10,000 open offer streams, a listener each on the bus ran 10,000
// callbacks for every event — 2,000 position events a second made that 20
// million calls a second (docs/performance.md, "A fleet of ten thousand").
const driverKey = Symbol.for("taxi.eventBus.drivers");
type DriverHolder = { [driverKey]?: Map<number, Set<(event: LiveEvent) => void>> };

/** The driver an event concerns for that driver's own streams, if any (a move on the map is not one). */
function driverOf(event: LiveEvent): number | undefined {
  if (event.type === "offer.changed" || event.type === "driver.accessRevoked" || event.type === "driver.message") return event.driverId;
  return undefined;
}

/** Listens to the events about one driver: offers, access changes, messages. */
export function subscribeDriver(driverId: number, listener: (event: LiveEvent) => void): () => void {
  const holder = globalThis as DriverHolder;
  let byDriver = holder[driverKey];
  if (!byDriver) {
    const map = new Map<number, Set<(event: LiveEvent) => void>>();
    byDriver = map;
    holder[driverKey] = map;
    subscribe((event) => {
      const id = driverOf(event);
      if (id === undefined) return;
      const set = map.get(id);
      if (set) for (const l of [...set]) l(event);
    });
  }
  const set = byDriver.get(driverId) ?? new Set();
  set.add(listener);
  byDriver.set(driverId, set);
  return () => {
    set.delete(listener);
    if (set.size === 0 && byDriver.get(driverId) === set) byDriver.delete(driverId);
  };
}
