// Live events for the console over SSE (httpSubscriptionLink): the event bus
// of server/events/bus.ts, filtered by what the operator's roles may see.
// A stream ends at once when the operator's sessions are revoked (sign-out,
// a password reset, a role change, disabling: server/auth/session-epoch.ts
// publishes user.sessionsRevoked on every instance), and the operator is
// re-checked every RECHECK_MS besides. What gathers while a message is out
// goes as the next one (server/events/console-batch.ts).
import { TRPCError } from "@trpc/server";
import { createTRPCRouter, protectedProcedure } from "../init";
import { subscribe, type LiveEvent } from "../../events/bus";
import { subscribeDriverMoves } from "../../events/driver-moves";
import { CONSOLE_FLUSH_MS, ConsoleBatch, toWire, type ConsoleMessage } from "../../events/console-batch";
import { hasAnyRole, resolveConsoleUser, type ConsoleUser } from "../../console/session";
import { serverMessages } from "../../../shared/i18n/console";
import { MAX_LIVE_STREAMS_PER_USER } from "../../../shared/trpc-limits";
import type { UserRole } from "../../generated/prisma/enums";

const RECHECK_MS = 30_000;

const ROLES_OF: Record<LiveEvent["type"], UserRole[]> = {
  "order.created": ["DISPATCHER", "MANAGER"],
  "order.changed": ["DISPATCHER", "MANAGER"],
  "driver.changed": ["DISPATCHER", "MANAGER"],
  "balance.changed": ["ACCOUNTANT"],
  "exchange.changed": ["EXCHANGE_OPERATOR"],
  "outbox.changed": ["ADMIN"],
  "offer.changed": ["DISPATCHER", "MANAGER"],
  "driver.message": ["DISPATCHER"],
  "call.changed": ["DISPATCHER"],
  // Not for display: they end streams (below, and server/driver-app/offers.ts).
  "user.sessionsRevoked": [],
  "driver.accessRevoked": [],
};

// The console's LiveProvider hands each message's events to its pages, the cars' rows as driver.changed events again.
export type { ConsoleEvent, ConsoleMessage, ConsoleWireEvent } from "../../events/console-batch";

export function visibleTo(user: Pick<ConsoleUser, "roles" | "id">, event: LiveEvent): boolean {
  // A call whose extension has an owner pops up on that dispatcher's console only.
  if (event.type === "call.changed" && event.userIds !== null && !event.userIds.includes(user.id)) return false;
  return hasAnyRole(user, ROLES_OF[event.type]);
}

// Open streams per operator in this instance: each holds a connection and a queue.
const streamsKey = Symbol.for("taxi.liveStreams");
type Holder = { [streamsKey]?: Map<number, number> };
function openStreams(): Map<number, number> {
  const holder = globalThis as Holder;
  holder[streamsKey] ??= new Map();
  return holder[streamsKey];
}

export const liveRouter = createTRPCRouter({
  events: protectedProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<ConsoleMessage> {
    let user = ctx.user;
    const streams = openStreams();
    const open = streams.get(user.id) ?? 0;
    if (open >= MAX_LIVE_STREAMS_PER_USER) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: `At most ${MAX_LIVE_STREAMS_PER_USER} live streams per operator` });
    streams.set(user.id, open + 1);
    const userId = user.id;
    const batch = new ConsoleBatch();
    let wake: (() => void) | undefined;
    let revoked = false;
    const enqueue: ConsoleBatch["push"] = (event) => {
      batch.push(event);
      wake?.();
    };
    const offBus = subscribe((event) => {
      if (event.type === "user.sessionsRevoked" && event.userId === userId) {
        revoked = true;
        wake?.();
        return;
      }
      if (event.type === "driver.changed" || !visibleTo(user, event)) return;
      enqueue(event);
    });
    const offMoves = subscribeDriverMoves((rows) => {
      if (hasAnyRole(user, ROLES_OF["driver.changed"])) enqueue({ type: "drivers.changed", rows });
    });
    const off = () => {
      offBus();
      offMoves();
    };
    const onAbort = () => wake?.();
    signal?.addEventListener("abort", onAbort);
    let lastCheck = Date.now();
    let lastSent = 0;
    const pause = (ms: number, wakeable: boolean) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        if (wakeable) wake = done;
      });
    try {
      while (!signal?.aborted) {
        if (batch.size > 0 && !revoked) {
          // A lone event goes at once; what comes within CONSOLE_FLUSH_MS of the last message waits to go with it.
          const wait = lastSent + CONSOLE_FLUSH_MS - Date.now();
          if (wait > 0) await pause(wait, false);
          if (signal?.aborted) break;
          lastSent = Date.now();
          yield { events: batch.take().map(toWire) };
        } else if (!revoked) await pause(RECHECK_MS - (Date.now() - lastCheck), true);
        if (revoked || Date.now() - lastCheck >= RECHECK_MS) {
          lastCheck = Date.now();
          revoked = false;
          const fresh = await resolveConsoleUser(ctx.db, ctx.claims);
          if (!fresh) throw new TRPCError({ code: "UNAUTHORIZED", message: serverMessages[ctx.locale].signInAgain });
          user = fresh;
        }
      }
    } finally {
      const left = (streams.get(userId) ?? 1) - 1;
      if (left > 0) streams.set(userId, left);
      else streams.delete(userId);
      off();
      signal?.removeEventListener("abort", onAbort);
    }
  }),
});
