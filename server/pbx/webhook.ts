// Cloud PBXs that do not speak AMI report calls to POST /pbx/<name>/call
// (server/pbx/api/router.ts). Each PBX has its own secret (PBX_WEBHOOK_SECRETS):
// the body is signed with HMAC-SHA256 over "<timestamp>.<raw body>", the
// timestamp (Unix seconds) in X-Pbx-Timestamp and the signature as
// "sha256=<hex>" in X-Pbx-Signature. Unsigned, wrongly signed or stale
// (further than PBX_WEBHOOK_TOLERANCE_SECONDS from our clock) requests are
// refused before the body is read as JSON. Replays inside the window make no
// second pop-up: a call is one row per (PBX, call_id).
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { config } from "../config";
import type { Db } from "../db";
import { callAnswered, callEnded, callRinging } from "./calls";

export const TIMESTAMP_HEADER = "x-pbx-timestamp";
export const SIGNATURE_HEADER = "x-pbx-signature";

/** The configured PBXs' secrets by name. */
export function webhookSecrets(): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of config().PBX_WEBHOOK_SECRETS.split(",")) {
    const text = pair.trim();
    const eq = text.indexOf("=");
    if (eq > 0) map.set(text.slice(0, eq).toLowerCase(), text.slice(eq + 1));
  }
  return map;
}

export function signWebhook(secret: string, timestamp: string, body: Buffer | string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex")}`;
}

export type SignatureVerdict = "ok" | "unsigned" | "stale" | "wrong";

export function verifyWebhook(secret: string, headers: { timestamp?: string; signature?: string }, body: Buffer, nowMs = Date.now()): SignatureVerdict {
  const { timestamp, signature } = headers;
  if (!timestamp || !signature) return "unsigned";
  if (!/^\d{1,12}$/.test(timestamp)) return "wrong";
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > config().PBX_WEBHOOK_TOLERANCE_SECONDS) return "stale";
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected) ? "ok" : "wrong";
}

export const webhookBody = z.object({
  event: z.enum(["ringing", "answered", "ended"]),
  call_id: z.string().trim().min(1).max(120),
  from: z.string().max(40).optional(),
  caller_name: z.string().max(200).optional(),
  extension: z.string().max(40).optional(),
});
export type WebhookBody = z.infer<typeof webhookBody>;

/** A verified report: the same call-log steps as AMI's (server/pbx/calls.ts). */
export async function applyWebhook(db: Db, pbx: string, body: WebhookBody): Promise<{ callId: number | null }> {
  const source = `webhook:${pbx}`;
  if (body.event === "ringing") {
    const ring = await callRinging(db, { source, externalId: body.call_id, phone: body.from ?? "", callerName: body.caller_name, extension: body.extension });
    return { callId: ring?.callId ?? null };
  }
  if (body.event === "answered") await callAnswered(db, { source, externalId: body.call_id, extension: body.extension });
  else await callEnded(db, { source, externalId: body.call_id });
  return { callId: null };
}
