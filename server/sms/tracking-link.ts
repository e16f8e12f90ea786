// Where %tracking_url% comes from: a resolver injected at start-up (the
// passenger's tracking page, server/tracking/link.ts, registers its
// trackingUrlForOrder), so this domain does not depend on that one. Without
// a resolver, or when it gives none, the placeholder is empty.
import type { DbOrTx } from "../db";
import { log } from "../log";

export type TrackingUrlResolver = (db: DbOrTx, orderId: number) => Promise<string | null>;

const key = Symbol.for("taxi.smsTrackingUrl");
type Holder = { [key]?: TrackingUrlResolver };

/** Registers the resolver (on globalThis: the custom server's modules and Next's bundle share it). */
export function setTrackingUrlResolver(resolver: TrackingUrlResolver | null): void {
  const holder = globalThis as Holder;
  if (resolver) holder[key] = resolver;
  else delete holder[key];
}

/** The order's tracking link, or "" (no resolver, none for this order, or it failed: the SMS goes without it). */
export async function trackingUrlOf(db: DbOrTx, orderId: number): Promise<string> {
  const resolver = (globalThis as Holder)[key];
  if (!resolver) return "";
  try {
    const url = await resolver(db, orderId);
    return url && /^https?:\/\/\S+$/.test(url) ? url : "";
  } catch (error) {
    log.warn("SMS: tracking link", { orderId, error: error instanceof Error ? error.message : String(error) });
    return "";
  }
}
