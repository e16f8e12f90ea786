// The tracking page's live feed: server-sent events with the whole view
// (tracking-view.ts) each time the order moves or its car reports a
// position, heard on the process's event bus (server/events/bus.ts, which
// carries other instances' events too). Changes that arrive while a view is
// being computed are folded into one more view. The stream ends after
// STREAM_MS (the browser's EventSource reconnects), and with `event: gone`
// when the link stops working.
import type { Db } from "../db";
import { subscribe, type LiveEvent } from "../events/bus";
import { findTrackedOrder } from "./find-tracked-order";
import { trackingView } from "./tracking-view";

const STREAM_MS = 10 * 60_000;
const KEEP_ALIVE_MS = 25_000;
/** Open streams per link in this instance: a passenger's tabs, not a flood. */
const MAX_STREAMS_PER_LINK = 4;

const open = new Map<string, number>();

export function trackingStream(db: Db, token: string) {
  return async (write: (chunk: string) => void, signal: AbortSignal): Promise<void> => {
    const count = open.get(token) ?? 0;
    if (count >= MAX_STREAMS_PER_LINK) {
      write("event: busy\ndata: {}\n\n");
      return;
    }
    open.set(token, count + 1);
    try {
      await follow(db, token, write, signal);
    } finally {
      const left = (open.get(token) ?? 1) - 1;
      if (left > 0) open.set(token, left);
      else open.delete(token);
    }
  };
}

async function follow(db: Db, token: string, write: (chunk: string) => void, signal: AbortSignal): Promise<void> {
  const until = Date.now() + STREAM_MS;
  let orderId: number | null = null;
  let driverId: number | null = null;
  let dirty = true;
  let wake: (() => void) | null = null;
  const relevant = (event: LiveEvent) =>
    (event.type === "order.changed" && event.orderId === orderId) || (event.type === "driver.changed" && driverId !== null && event.driverId === driverId);
  const stop = subscribe((event) => {
    if (!relevant(event)) return;
    dirty = true;
    wake?.();
  });
  try {
    let last = "";
    while (!signal.aborted && Date.now() < until) {
      if (dirty) {
        dirty = false;
        const order = await findTrackedOrder(db, token);
        if (!order) {
          write("event: gone\ndata: {}\n\n");
          return;
        }
        orderId = order.id;
        driverId = order.driverId;
        const data = JSON.stringify(await trackingView(db, order));
        if (data !== last) write(`event: state\ndata: ${data}\n\n`);
        last = data;
        continue;
      }
      const woke = await new Promise<boolean>((resolve) => {
        const done = (value: boolean) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", aborted);
          wake = null;
          resolve(value);
        };
        const aborted = () => done(false);
        const timer = setTimeout(() => done(false), Math.max(0, Math.min(KEEP_ALIVE_MS, until - Date.now())));
        signal.addEventListener("abort", aborted);
        wake = () => done(true);
      });
      if (!woke && !signal.aborted) write(": keep-alive\n\n");
    }
  } finally {
    stop();
  }
}
