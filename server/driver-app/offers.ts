// Offers pushed to the driver: the live offer addressed to the driver now
// (polling), and a wait for the next one (a long poll and the event stream
// both listen to the event bus, which carries offers between instances).
// A stream or a long poll outlives the check of the key that opened it, so
// the key is checked again on every wake-up, and a change of the driver's
// access (a new key, a revoked key, the driver disabled: keys.ts announces
// it on every instance) wakes them at once: a key that no longer holds ends
// the stream (`event: error`, UNAUTHORIZED) or fails the long poll.
import { config } from "../config";
import type { Db } from "../db";
import { AuthError } from "../errors";
import { subscribeDriver, type LiveEvent } from "../events/bus";
import { errorMessage } from "../i18n/errors";
import type { DriverIdentity } from "./keys";
import { noteAppSeen } from "../dispatch/liveness";
import { readDriverOrder, type DriverOrderView } from "./order-view";
import { newFromDispatch } from "../messages/driver-thread";
import { sqlQuery } from "../db/sql";
import { newestDispatchMessageSql, watchStream } from "./stream-sweep";

export interface OfferView {
  offer_id: number;
  kind: "LIVE" | "CHAIN" | "ADVANCE";
  attempt: number;
  deadline: string;
  seconds_left: number;
  arrival_minutes: number | null;
  order: DriverOrderView;
}

interface LiveRow {
  holds: boolean;
  offer_id: number | null;
  order_id: number | null;
  kind: OfferView["kind"] | null;
  attempt: number | null;
  deadline_ms: number | null;
  arrival_seconds: number | null;
  /** The newest of dispatch's messages to the driver (null: none). */
  last_message: number | null;
}

/**
 * Whether the key still holds, the driver's live offer and the newest of
 * dispatch's messages, in one raw statement: a stream's every wake-up asks it
 * (each offer made and answered wakes one), and so does every stream opened,
 * 10,000 of them every five minutes (docs/performance.md, "A fleet of ten
 * thousand"). The messages themselves are read only when one is newer than
 * what the stream sent.
 */
async function readLive(db: Db, me: DriverIdentity): Promise<LiveRow | undefined> {
  const rows = await sqlQuery<LiveRow>(
    db,
    `SELECT coalesce($2::text IS NULL OR (d.active AND d.app_key_hash = $2::text), false) AS holds,
            o.id AS offer_id, o.order_id, o.kind::text AS kind, o.attempt,
            (extract(epoch FROM o.deadline) * 1000)::float8 AS deadline_ms, o.arrival_seconds,
            ${newestDispatchMessageSql("d.id")} AS last_message
       FROM driver d LEFT JOIN dispatch_offer o ON o.driver_id = d.id AND o.state = 'LIVE'
      WHERE d.id = $1`,
    [me.id, me.keyHash ?? null],
  );
  return rows[0];
}

async function offerView(db: Db, me: DriverIdentity, row: LiveRow | undefined): Promise<OfferView | null> {
  if (!row || row.offer_id === null) return null;
  const deadline = new Date(Number(row.deadline_ms));
  return {
    offer_id: row.offer_id,
    kind: row.kind!,
    attempt: row.attempt!,
    deadline: deadline.toISOString(),
    seconds_left: Math.max(0, Math.round((deadline.getTime() - Date.now()) / 1000)),
    arrival_minutes: row.arrival_seconds === null ? null : Math.max(1, Math.round(row.arrival_seconds / 60)),
    order: await readDriverOrder(db, row.order_id!, me.id),
  };
}

export async function currentOffer(db: Db, me: DriverIdentity): Promise<OfferView | null> {
  return offerView(db, me, await readLive(db, me));
}

/** Whether the key the driver presented still opens the driver's account (the same key, the driver active). */
export async function keyStillHolds(db: Db, me: DriverIdentity): Promise<boolean> {
  if (me.keyHash === undefined) return true;
  return (await readLive(db, me))?.holds ?? false;
}

const accessChanged = (driverId: number) => (event: LiveEvent) => event.type === "driver.accessRevoked" && event.driverId === driverId;

/** Resolves at the next offer event for the driver (or a change of its access), or after `ms` (then false). */
export function nextOfferEvent(driverId: number, ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      stop();
      signal?.removeEventListener("abort", aborted);
      resolve(value);
    };
    const aborted = () => done(false);
    const stop = subscribeDriver(driverId, (event) => {
      if ((event.type === "offer.changed" && event.driverId === driverId && event.state === "LIVE") || accessChanged(driverId)(event)) done(true);
    });
    const timer = setTimeout(() => done(false), ms);
    signal?.addEventListener("abort", aborted);
  });
}

/** The live offer now, or the first one made within `waitSeconds` (a long poll). */
export async function waitForOffer(db: Db, me: DriverIdentity, waitSeconds: number, beforeWait?: () => void): Promise<OfferView | null> {
  const now = await currentOffer(db, me);
  if (now || waitSeconds <= 0) return now;
  // Waiting holds no place among the requests in progress (server/http/load-shed.ts): a fleet of
  // phones on the long poll would otherwise hold every place for 15 s and starve the instance.
  beforeWait?.();
  await nextOfferEvent(me.id, waitSeconds * 1000);
  if (!(await keyStillHolds(db, me))) throw new AuthError("UNAUTHORIZED", { reason: "the driver app key was replaced or revoked" });
  return currentOffer(db, me);
}

/** How long one event stream stays open at most; the app reconnects (as EventSource does by itself). */
export const STREAM_SECONDS = 300;

/**
 * One stream's time: between 80% and 100% of STREAM_SECONDS, at random. Phones
 * that opened their streams together (an instance's restart, a fleet's
 * benchmark) would otherwise all reconnect together every five minutes, each
 * time 10,000 stream starts in a few seconds on top of the positions
 * (docs/performance.md, "The fleet's soak again"); spread, the waves flatten
 * out over the next cycles.
 */
export function streamSeconds(random = Math.random()): number {
  return STREAM_SECONDS * (0.8 + 0.2 * random);
}

const KEEP_ALIVE_MS = 15_000;

/** Open streams per driver in this instance: one phone needs one; a few allow for reconnects. */
export const MAX_STREAMS_PER_DRIVER = 3;
const openStreams = new Map<number, number>();

/** Server-sent events: `event: offer` with the offer (or null when it is gone), a comment now and then to keep the line open. */
export function offerStream(db: Db, me: DriverIdentity, maxSeconds = streamSeconds(), afterMessage?: number) {
  return async (write: (chunk: string) => void, signal: AbortSignal): Promise<void> => {
    const open = openStreams.get(me.id) ?? 0;
    if (open >= MAX_STREAMS_PER_DRIVER) {
      write(`event: error\ndata: ${JSON.stringify({ error: { code: "RATE_LIMITED", message: `at most ${MAX_STREAMS_PER_DRIVER} open streams per driver` } })}\n\n`);
      return;
    }
    openStreams.set(me.id, open + 1);
    try {
      await streamOffers(db, me, maxSeconds, write, signal, afterMessage);
    } finally {
      const left = (openStreams.get(me.id) ?? 1) - 1;
      if (left > 0) openStreams.set(me.id, left);
      else openStreams.delete(me.id);
    }
  };
}

async function streamOffers(db: Db, me: DriverIdentity, maxSeconds: number, write: (chunk: string) => void, signal: AbortSignal, afterMessage?: number): Promise<void> {
  const until = Date.now() + maxSeconds * 1000;
  let last = "";
  // Dispatch's messages after the cursor are pushed as `event: message`: the phone's (`after_message`, the `id:` of
  // the last stream's events) when it reconnects, so that nothing written between two streams is left unpushed;
  // else those written from now on. Never past the newest message (a cursor from elsewhere would mute the next ones).
  // Set by the first read below (the newest message comes with the live offer, one statement for both).
  let lastMessage = -1;
  // The state is read at the start, when a change is announced, and when the instance's sweep finds it differs from
  // what was sent (an announcement lost: stream-sweep.ts); a keep-alive alone reads nothing.
  let wakeSweep: (() => void) | undefined;
  const unwatch = watchStream(db, { driverId: me.id, keyHash: me.keyHash, offerKey: () => last, lastMessage: () => Math.max(0, lastMessage), wake: () => wakeSweep?.() });
  try {
    let woke: Wake = "sweep";
    while (!signal.aborted && Date.now() < until) {
      if (woke !== "timeout") {
        const live = await readLive(db, me);
        if (me.keyHash !== undefined && !live?.holds) {
          write(`event: error\ndata: ${JSON.stringify({ error: { code: "UNAUTHORIZED", message: errorMessage("UNAUTHORIZED", {}, config().LANGUAGE) } })}\n\n`);
          return;
        }
        const newest = live?.last_message ?? 0;
        if (lastMessage < 0) lastMessage = afterMessage === undefined ? newest : Math.min(afterMessage, newest);
        // An open stream is a live app: dispatch offers to it (server/dispatch/liveness.ts; the sweep notes it between wake-ups).
        await noteAppSeen(db, me.id);
        const key = live && live.offer_id !== null ? String(live.offer_id) : "none";
        // The order is read only for an offer the phone has not been sent.
        if (key !== last) {
          // `id:` is the stream's message cursor, for the next stream's `after_message`.
          write(`id: ${lastMessage}\nevent: offer\ndata: ${JSON.stringify({ offer: await offerView(db, me, live) })}\n\n`);
          last = key;
        }
        if (woke !== "offer" && newest > lastMessage) {
          for (const message of await newFromDispatch(db, me.id, lastMessage)) {
            write(`id: ${message.id}\nevent: message\ndata: ${JSON.stringify({ message })}\n\n`);
            lastMessage = message.id;
          }
        }
      }
      woke = await nextOfferChange(me.id, Math.min(KEEP_ALIVE_MS, until - Date.now()), signal, (wake) => (wakeSweep = wake));
      if (woke === "timeout" && !signal.aborted) write(": keep-alive\n\n");
    }
  } finally {
    unwatch();
  }
}

type Wake = "offer" | "message" | "sweep" | "timeout";

/** Any change of an offer to the driver (made, accepted, refused, timed out, withdrawn), or of its access; or the sweep's wake-up (`onSweep` receives it). */
function nextOfferChange(driverId: number, ms: number, signal: AbortSignal, onSweep: (wake: () => void) => void): Promise<Wake> {
  return new Promise((resolve) => {
    const done = (value: Wake) => {
      clearTimeout(timer);
      stop();
      onSweep(() => undefined);
      signal.removeEventListener("abort", aborted);
      resolve(value);
    };
    const aborted = () => done("timeout");
    const stop = subscribeDriver(driverId, (event) => {
      if ((event.type === "offer.changed" && event.driverId === driverId) || accessChanged(driverId)(event)) done("offer");
      if (event.type === "driver.message" && event.driverId === driverId && event.sender === "DISPATCHER") done("message");
    });
    onSweep(() => done("sweep"));
    const timer = setTimeout(() => done("timeout"), Math.max(0, ms));
    signal.addEventListener("abort", aborted);
  });
}
