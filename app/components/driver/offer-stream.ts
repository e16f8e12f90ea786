// The offer stream (GET /driver-app/v1/offer/stream, server-sent events).
// EventSource cannot send the Authorization header the interface wants, so
// the stream is read with fetch and parsed by eventsource-parser (the parser
// the `eventsource` package itself uses). It reconnects after the server's
// five minutes, after a lost connection (with a growing pause), at once
// when the phone's connection comes back (the browser's "online" event: the
// old stream may hang on the old network for minutes without an error), and
// after 40 s of silence (the server writes every 15 s), each time asking for
// dispatch's messages after the last one it had (`after_message`); it stops
// for good on a refused key.
import { createParser } from "eventsource-parser";
import { API_BASE, type DriverMessage, type Offer } from "./api";

export interface OfferStreamHandlers {
  onOffer: (offer: Offer | null) => void;
  onMessage?: (message: DriverMessage) => void;
  onUnauthorized: () => void;
  /** The stream is open (true) or broken and retrying (false). */
  onConnected?: (connected: boolean) => void;
}

/** The server writes at least a comment every 15 s: a stream silent this long is dead (a phone that changed networks). */
const SILENT_MS = 40_000;

/**
 * `cursor` holds the stream's message cursor (each event's `id:`) across connections and across calls (the app
 * keeps it in a ref): a new connection asks for the messages after it, so none written in between is missed.
 */
export function openOfferStream(key: string, handlers: OfferStreamHandlers, cursor: { current: number | undefined } = { current: undefined }): () => void {
  const stop = new AbortController();
  let pause = 1000;
  // The connection now open (each its own, ended by the stop too), and how to end the pause between two.
  let connection: AbortController | undefined;
  let endPause: (() => void) | undefined;
  // The phone's connection is back: whatever stream was open went over the old network (its TCP connection may hang
  // for minutes without an error), so a new one is opened at once, and a pause waiting to retry ends.
  const onOnline = () => {
    connection?.abort();
    endPause?.();
  };
  window.addEventListener("online", onOnline);
  stop.signal.addEventListener("abort", () => {
    window.removeEventListener("online", onOnline);
    connection?.abort();
    endPause?.();
  });
  const run = async () => {
    while (!stop.signal.aborted) {
      let refused = false;
      let atOnce = false;
      const current = new AbortController();
      connection = current;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const heard = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => current.abort(), SILENT_MS);
      };
      try {
        heard();
        const after = cursor.current === undefined ? "" : `?after_message=${cursor.current}`;
        const res = await fetch(`${API_BASE}/offer/stream${after}`, { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" }, signal: current.signal, cache: "no-store" });
        if (res.status === 401) {
          handlers.onUnauthorized();
          return;
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        handlers.onConnected?.(true);
        pause = 1000;
        const parser = createParser({
          onEvent: (event) => {
            if (event.id !== undefined && /^\d+$/.test(event.id)) cursor.current = Number(event.id);
            let data: unknown;
            try {
              data = JSON.parse(event.data);
            } catch {
              return;
            }
            if (event.event === "offer") handlers.onOffer((data as { offer: Offer | null }).offer);
            else if (event.event === "message") {
              const message = (data as { message?: DriverMessage }).message;
              if (message) handlers.onMessage?.(message);
            } else if (event.event === "error" && (data as { error?: { code?: string } }).error?.code === "UNAUTHORIZED") refused = true;
          },
        });
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          heard();
          parser.feed(value);
        }
        if (refused) {
          handlers.onUnauthorized();
          return;
        }
      } catch {
        if (stop.signal.aborted) return;
        // Ended by the "online" event (or the watchdog while online): straight to a new connection; else a growing pause.
        if (current.signal.aborted && navigator.onLine) atOnce = true;
        else {
          handlers.onConnected?.(false);
          pause = Math.min(pause * 2, 15_000);
        }
      } finally {
        clearTimeout(watchdog);
      }
      if (atOnce) continue;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          endPause = undefined;
          resolve();
        };
        const timer = setTimeout(done, pause);
        endPause = done;
      });
    }
  };
  void run();
  return () => stop.abort();
}
