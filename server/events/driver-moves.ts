// The consoles' live map, coalesced: a fleet of 10,000 cars reports 2,000
// positions a second, more than a person can follow or a browser should
// redraw, and one message each to every console would cost the server a
// serialisation per position per console. One listener on the bus keeps the
// latest change of each driver (this instance's and, by the relay, the
// others'); once every MOVES_MS the cars changed since go to every console's
// stream as one message, in a compact form (tuples, not objects).
import { subscribe } from "./bus";
import { toDriverRow, type DriverRow } from "../../shared/driver-rows";

export type { DriverRow };

/** One message a second: what a person watching a map can follow. */
export const MOVES_MS = 1_000;

type Listener = (rows: DriverRow[]) => void;

interface Coalescer {
  listeners: Set<Listener>;
  pending: Map<number, DriverRow>;
  timer?: ReturnType<typeof setTimeout>;
  lastFlush: number;
  off?: () => void;
}

const key = Symbol.for("taxi.driverMoves");
type Holder = { [key]?: Coalescer };

function coalescer(): Coalescer {
  const holder = globalThis as Holder;
  return (holder[key] ??= { listeners: new Set(), pending: new Map(), lastFlush: 0 });
}

function flush(c: Coalescer): void {
  c.timer = undefined;
  if (c.pending.size === 0) return;
  c.lastFlush = Date.now();
  const rows = [...c.pending.values()];
  c.pending = new Map();
  for (const l of [...c.listeners]) l(rows);
}

/**
 * Listens to the drivers' changes, at most one batch every MOVES_MS: each
 * driver once, in its latest state. The bus is listened to only while some
 * console listens.
 */
export function subscribeDriverMoves(listener: Listener): () => void {
  const c = coalescer();
  c.listeners.add(listener);
  c.off ??= subscribe((event) => {
    if (event.type !== "driver.changed") return;
    c.pending.set(event.driverId, toDriverRow(event));
    if (!c.timer) {
      // After a quiet second the change goes at once (a dispatcher sees a lone car move without delay); under load, once a second.
      c.timer = setTimeout(() => flush(c), Math.max(0, c.lastFlush + MOVES_MS - Date.now()));
      c.timer.unref?.();
    }
  });
  return () => {
    c.listeners.delete(listener);
    if (c.listeners.size > 0) return;
    c.off?.();
    c.off = undefined;
    if (c.timer) clearTimeout(c.timer);
    c.timer = undefined;
    c.pending.clear();
  };
}
