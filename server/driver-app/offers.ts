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
import { lastMessageId, newFromDispatch } from "../messages/driver-thread";

export interface OfferView {
  offer_id: number;
  kind: "LIVE" | "CHAIN" | "ADVANCE";
  attempt: number;
  deadline: string;
  seconds_left: number;
  arrival_minutes: number | null;
  order: DriverOrderView;
}

export async function currentOffer(db: Db, me: DriverIdentity): Promise<OfferView | null> {
  const offer = await db.dispatchOffer.findFirst({
    where: { driverId: me.id, state: "LIVE" },
    select: { id: true, orderId: true, kind: true, attempt: true, deadline: true, arrivalSeconds: true },
  });
  if (!offer) return null;
  return {
    offer_id: offer.id,
    kind: offer.kind,
    attempt: offer.attempt,
    deadline: offer.deadline.toISOString(),
    seconds_left: Math.max(0, Math.round((offer.deadline.getTime() - Date.now()) / 1000)),
    arrival_minutes: offer.arrivalSeconds === null ? null : Math.max(1, Math.round(offer.arrivalSeconds / 60)),
    order: await readDriverOrder(db, offer.orderId, me.id),
  };
}

/** Whether the key the driver presented still opens the driver's account (the same key, the driver active). */
export async function keyStillHolds(db: Db, me: DriverIdentity): Promise<boolean> {
  if (me.keyHash === undefined) return true;
  const row = await db.driver.findUnique({ where: { id: me.id }, select: { active: true, appKeyHash: true } });
  return row !== null && row.active && row.appKeyHash === me.keyHash;
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

/** How long one event stream stays open; the app reconnects (as EventSource does by itself). */
export const STREAM_SECONDS = 300;
const KEEP_ALIVE_MS = 15_000;

/** Open streams per driver in this instance: one phone needs one; a few allow for reconnects. */
export const MAX_STREAMS_PER_DRIVER = 3;
const openStreams = new Map<number, number>();

/** Server-sent events: `event: offer` with the offer (or null when it is gone), a comment now and then to keep the line open. */
export function offerStream(db: Db, me: DriverIdentity, maxSeconds = STREAM_SECONDS) {
  return async (write: (chunk: string) => void, signal: AbortSignal): Promise<void> => {
    const open = openStreams.get(me.id) ?? 0;
    if (open >= MAX_STREAMS_PER_DRIVER) {
      write(`event: error\ndata: ${JSON.stringify({ error: { code: "RATE_LIMITED", message: `at most ${MAX_STREAMS_PER_DRIVER} open streams per driver` } })}\n\n`);
      return;
    }
    openStreams.set(me.id, open + 1);
    try {
      await streamOffers(db, me, maxSeconds, write, signal);
    } finally {
      const left = (openStreams.get(me.id) ?? 1) - 1;
      if (left > 0) openStreams.set(me.id, left);
      else openStreams.delete(me.id);
    }
  };
}

async function streamOffers(db: Db, me: DriverIdentity, maxSeconds: number, write: (chunk: string) => void, signal: AbortSignal): Promise<void> {
  const until = Date.now() + maxSeconds * 1000;
  let last = "";
  // Dispatch's messages written from now on are pushed as `event: message`.
  let lastMessage = await lastMessageId(db, me.id);
  while (!signal.aborted && Date.now() < until) {
    if (!(await keyStillHolds(db, me))) {
      write(`event: error\ndata: ${JSON.stringify({ error: { code: "UNAUTHORIZED", message: errorMessage("UNAUTHORIZED", {}, config().LANGUAGE) } })}\n\n`);
      return;
    }
    // An open stream is a live app: dispatch offers to it (server/dispatch/liveness.ts).
    await noteAppSeen(db, me.id);
    const offer = await currentOffer(db, me);
    const key = offer ? String(offer.offer_id) : "none";
    if (key !== last) {
      write(`event: offer\ndata: ${JSON.stringify({ offer })}\n\n`);
      last = key;
    }
    for (const message of await newFromDispatch(db, me.id, lastMessage)) {
      write(`event: message\ndata: ${JSON.stringify({ message })}\n\n`);
      lastMessage = message.id;
    }
    const woke = await nextOfferChange(me.id, Math.min(KEEP_ALIVE_MS, until - Date.now()), signal);
    if (!woke && !signal.aborted) write(": keep-alive\n\n");
  }
}

/** Any change of an offer to the driver (made, accepted, refused, timed out, withdrawn), or of its access. */
function nextOfferChange(driverId: number, ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      stop();
      signal.removeEventListener("abort", aborted);
      resolve(value);
    };
    const aborted = () => done(false);
    const stop = subscribeDriver(driverId, (event) => {
      if ((event.type === "offer.changed" && event.driverId === driverId) || accessChanged(driverId)(event)) done(true);
      if (event.type === "driver.message" && event.driverId === driverId && event.sender === "DISPATCHER") done(true);
    });
    const timer = setTimeout(() => done(false), Math.max(0, ms));
    signal.addEventListener("abort", aborted);
  });
}
