// The offer stream (GET /driver-app/v1/offer/stream, server-sent events).
// EventSource cannot send the Authorization header the interface wants, so
// the stream is read with fetch and parsed by eventsource-parser (the parser
// the `eventsource` package itself uses). It reconnects after the server's
// five minutes, after a lost connection (with a growing pause), and stops
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

export function openOfferStream(key: string, handlers: OfferStreamHandlers): () => void {
  const stop = new AbortController();
  let pause = 1000;
  const run = async () => {
    while (!stop.signal.aborted) {
      let refused = false;
      try {
        const res = await fetch(`${API_BASE}/offer/stream`, { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" }, signal: stop.signal, cache: "no-store" });
        if (res.status === 401) {
          handlers.onUnauthorized();
          return;
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        handlers.onConnected?.(true);
        pause = 1000;
        const parser = createParser({
          onEvent: (event) => {
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
          parser.feed(value);
        }
        if (refused) {
          handlers.onUnauthorized();
          return;
        }
      } catch {
        if (stop.signal.aborted) return;
        handlers.onConnected?.(false);
        pause = Math.min(pause * 2, 15_000);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  void run();
  return () => stop.abort();
}
