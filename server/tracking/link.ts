// Where the passenger's tracking link points: <PUBLIC_URL>/t/<token>
// (docs/tracking.md). Used by GET /api/order (tracking_url), the status
// callback's %tracking_url% placeholder and the SMS texts.
import { config } from "../config";
import type { DbOrTx } from "../db";
import { trackingToken } from "./token";

/** The public base URL: PUBLIC_URL, else this instance on localhost (as server/main.ts tells next-auth; http/tls.ts's test, not imported: it would import the routes). */
export function publicBaseUrl(): string {
  const cfg = config();
  const base = cfg.PUBLIC_URL ?? `${cfg.TLS_DEV || cfg.TLS_CERT || cfg.TLS_KEY ? "https" : "http"}://localhost:${cfg.PORT}`;
  return base.endsWith("/") ? base.slice(0, -1) : base;
}

/** The tracking URL of the order with this uuid (no database needed: the token is derived, server/tracking/token.ts). */
export function trackingUrlForUuid(uuid: string): string {
  return `${publicBaseUrl()}/t/${trackingToken(uuid)}`;
}

/** The absolute tracking URL of an order, or null when there is no such order. */
export async function trackingUrlForOrder(db: DbOrTx, orderId: number): Promise<string | null> {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { uuid: true } });
  return order ? trackingUrlForUuid(order.uuid) : null;
}
