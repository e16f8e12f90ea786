// What a console's live stream holds until its next message. Under a fleet's
// load every offer and order change went to every console as a message of its
// own (a serialisation and a write each, per console); the stream now sends
// what gathered as one message, at most one every CONSOLE_FLUSH_MS, and in it
// each order, offer, call or balance once, in its latest state: the pages use
// an event only to refetch or patch that thing by its id, never its history.
import type { LiveEvent } from "./bus";
import type { DriverRow } from "./driver-moves";

/** A lone event goes at once; under load, one message at most every 100 ms (below what a person notices). */
export const CONSOLE_FLUSH_MS = 100;
/** A console that cannot keep up is told to reload instead of holding memory. */
export const CONSOLE_MAX_PENDING = 2_000;

/**
 * What a console receives: the bus's events, except the drivers' changes,
 * which come coalesced (server/events/driver-moves.ts: at most one batch a
 * second with every car changed since).
 */
export type ConsoleEvent = Exclude<LiveEvent, { type: "driver.changed" }> | { type: "drivers.changed"; rows: DriverRow[] } | { type: "resync" };

/**
 * An event as it goes on the wire: the cars' rows as JSON text. Every
 * console gets the same batch of rows each second, and the stream's
 * transformer would walk and write ~2,000 tuples once per console; the text
 * is written once and shared (a batch merged for one slow console is its own).
 */
export type ConsoleWireEvent = Exclude<ConsoleEvent, { type: "drivers.changed" }> | { type: "drivers.changed"; rowsJson: string };

/** One message of the console's stream: the events gathered since the last, oldest first. */
export interface ConsoleMessage {
  events: ConsoleWireEvent[];
}

const rowsText = new WeakMap<readonly DriverRow[], string>();

/** The event for the wire; a batch of rows is encoded once, whichever consoles send it. */
export function toWire(event: ConsoleEvent): ConsoleWireEvent {
  if (event.type !== "drivers.changed") return event;
  let text = rowsText.get(event.rows);
  if (text === undefined) {
    text = JSON.stringify(event.rows);
    rowsText.set(event.rows, text);
  }
  return { type: "drivers.changed", rowsJson: text };
}

/** The thing an event tells the latest state of, or null when every event counts (a new order, a driver's message). */
function subjectOf(event: ConsoleEvent): string | null {
  switch (event.type) {
    case "order.changed":
      return `order:${event.orderId}`;
    case "offer.changed":
      return `offer:${event.offerId}`;
    case "call.changed":
      return `call:${event.callId}`;
    case "balance.changed":
      return `balance:${event.account}:${event.id}`;
    case "exchange.changed":
      return `exchange:${event.exchangeOrderId}`;
    case "outbox.changed":
      return `outbox:${event.messageId}`;
    case "drivers.changed":
      return "drivers";
    default:
      return null;
  }
}

export class ConsoleBatch {
  private slots: Array<ConsoleEvent | null> = [];
  private slotOf = new Map<string, number>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds an event; a later one about the same thing takes the earlier one's place at the end. */
  push(event: ConsoleEvent): void {
    if (event.type === "resync" || this.count >= CONSOLE_MAX_PENDING) {
      // Everything before a resync is moot: the pages refetch all they show.
      this.clear();
      this.slots.push({ type: "resync" });
      this.count = 1;
      return;
    }
    const subject = subjectOf(event);
    let next = event;
    if (subject !== null) {
      const earlier = this.slotOf.get(subject);
      if (earlier !== undefined) {
        const previous = this.slots[earlier]!;
        this.slots[earlier] = null;
        this.count--;
        // The cars' batches merge: each driver's latest row (a row's first field is the driver's id).
        if (previous.type === "drivers.changed" && event.type === "drivers.changed") next = { type: "drivers.changed", rows: mergeRows(previous.rows, event.rows) };
      }
      this.slotOf.set(subject, this.slots.length);
    }
    this.slots.push(next);
    this.count++;
  }

  /** The gathered events, oldest first; the batch is empty after. */
  take(): ConsoleEvent[] {
    const events = this.slots.filter((e): e is ConsoleEvent => e !== null);
    this.clear();
    return events;
  }

  private clear(): void {
    this.slots = [];
    this.slotOf.clear();
    this.count = 0;
  }
}

function mergeRows(earlier: DriverRow[], later: DriverRow[]): DriverRow[] {
  const byDriver = new Map<number, DriverRow>();
  for (const row of earlier) byDriver.set(row[0], row);
  for (const row of later) byDriver.set(row[0], row);
  return [...byDriver.values()];
}
