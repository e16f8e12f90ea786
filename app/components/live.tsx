"use client";
// One live connection per console tab (tRPC subscription over SSE). Pages
// register handlers with useLiveEvents; the sidebar shows the connection.
// Every (re)connection refetches what the connection's absence may have left
// stale: after a reconnect every query; on the first connection the queries
// that failed (a view loaded while the server was unreachable).
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useTRPC } from "./trpc";
import { toSignInExpired } from "./leave";
import type { ConsoleEvent } from "@/server/trpc/routers/live";
import { fromDriverRow, type DriverChange, type DriverRow } from "@/shared/driver-rows";

export type LiveStatus = "connecting" | "live" | "offline";
/** What pages see: the drivers' coalesced changes (one message a second) handed over one driver at a time. */
export type PageEvent = Exclude<ConsoleEvent, { type: "drivers.changed" }> | ({ type: "driver.changed" } & DriverChange);
type Handler = (event: PageEvent) => void;

interface Live {
  status: LiveStatus;
  add: (handler: Handler) => () => void;
}

const Context = createContext<Live | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const handlers = useRef(new Set<Handler>());
  const connections = useRef(0);
  const [add] = useState(() => (handler: Handler) => {
    handlers.current.add(handler);
    return () => {
      handlers.current.delete(handler);
    };
  });
  const sub = useSubscription(
    // eslint-disable-next-line react-hooks/refs -- the callbacks run on subscription events, never during render
    trpc.live.events.subscriptionOptions(undefined, {
      // A message is what gathered since the last (server/events/console-batch.ts): each event in turn.
      onData: (message) => {
        for (const event of message.events) {
          if (event.type === "drivers.changed") {
            // The rows come as JSON text, encoded once on the server for every console (server/events/console-batch.ts).
            for (const row of JSON.parse(event.rowsJson) as DriverRow[]) {
              const change: PageEvent = { type: "driver.changed", ...fromDriverRow(row) };
              for (const h of handlers.current) h(change);
            }
            continue;
          }
          for (const h of handlers.current) h(event);
        }
      },
      onStarted: () => {
        // After a reconnect events may have been missed: pages refetch.
        connections.current += 1;
        if (connections.current > 1) {
          for (const h of handlers.current) h({ type: "resync" });
          void queryClient.invalidateQueries();
        } else {
          void queryClient.invalidateQueries({ predicate: (query) => query.state.status === "error" });
        }
      },
      onError: (error) => {
        const code = (error.data as { code?: string } | undefined)?.code;
        if (code === "UNAUTHORIZED") toSignInExpired();
      },
    }),
  );
  const status: LiveStatus = sub.status === "pending" ? "live" : sub.status === "error" ? "offline" : "connecting";
  return <Context.Provider value={{ status, add }}>{children}</Context.Provider>;
}

export function useLiveStatus(): LiveStatus {
  return useContext(Context)?.status ?? "offline";
}

/** Calls `handler` for every live event while the component is mounted. */
export function useLiveEvents(handler: Handler): void {
  const ctx = useContext(Context);
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => ctx?.add((event) => ref.current(event)), [ctx]);
}
