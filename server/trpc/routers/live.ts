// Live events for the console over SSE (httpSubscriptionLink): the event bus
// of server/events/bus.ts, filtered by what the operator's roles may see.
// A stream ends at once when the operator's sessions are revoked (sign-out,
// a password reset, a role change, disabling: server/auth/session-epoch.ts
// publishes user.sessionsRevoked on every instance), and the operator is
// re-checked every RECHECK_MS besides.
import { TRPCError } from "@trpc/server";
import { createTRPCRouter, protectedProcedure } from "../init";
import { subscribe, type LiveEvent } from "../../events/bus";
import { subscribeDriverMoves, type DriverRow } from "../../events/driver-moves";
import { hasAnyRole, resolveConsoleUser, type ConsoleUser } from "../../console/session";
import { serverMessages } from "../../../shared/i18n/console";
import { MAX_LIVE_STREAMS_PER_USER } from "../../../shared/trpc-limits";
import type { UserRole } from "../../generated/prisma/enums";

const RECHECK_MS = 30_000;
/** A console that cannot keep up is told to reload instead of holding memory. */
const MAX_QUEUE = 2_000;

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

/**
 * What a console receives: the bus's events, except the drivers' changes,
 * which come coalesced (server/events/driver-moves.ts: at most one message a
 * second with every car changed since); the console's LiveProvider hands
 * them to its pages as driver.changed events again.
 */
export type ConsoleEvent = Exclude<LiveEvent, { type: "driver.changed" }> | { type: "drivers.changed"; rows: DriverRow[] } | { type: "resync" };

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
  events: protectedProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<ConsoleEvent> {
    let user = ctx.user;
    const streams = openStreams();
    const open = streams.get(user.id) ?? 0;
    if (open >= MAX_LIVE_STREAMS_PER_USER) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: `At most ${MAX_LIVE_STREAMS_PER_USER} live streams per operator` });
    streams.set(user.id, open + 1);
    const userId = user.id;
    const queue: ConsoleEvent[] = [];
    let wake: (() => void) | undefined;
    let revoked = false;
    const enqueue = (event: ConsoleEvent) => {
      if (queue.length >= MAX_QUEUE) {
        queue.length = 0;
        queue.push({ type: "resync" });
      } else queue.push(event);
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
    try {
      while (!signal?.aborted) {
        while (queue.length) yield queue.shift()!;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, revoked ? 0 : RECHECK_MS);
        });
        clearTimeout(timer);
        wake = undefined;
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
