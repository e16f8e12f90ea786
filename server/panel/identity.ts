// The hand-off of a verified certificate from the custom server to the
// panel's pages. The server removes every incoming x-panel-* header on every
// listener, verifies the client certificate (server/certificates/verify.ts)
// and only then sets x-panel-identity: the participant and the certificate's
// serial, the time, and an HMAC-SHA256 over them with a key derived from
// APP_SECRET. The pages accept only a value with a good MAC that is at most
// MAX_AGE_MS old. A client cannot make one (no secret) and cannot pass one
// through (stripped), so neither plain HTTP nor a forged header opens the panel.
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { appSecret } from "../auth/secret";

export const PANEL_IDENTITY_HEADER = "x-panel-identity";
export const MAX_AGE_MS = 30_000;

export interface PanelIdentity {
  participantId: number;
  /** The serial of the certificate that opened the panel. */
  serial: string;
  issuedAt: number;
}

function macKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.from("panel-identity"), Buffer.from("x-panel-identity v1"), 32));
}

function mac(payload: string, secret: string): Buffer {
  return createHmac("sha256", macKey(secret)).update(payload).digest();
}

export function signPanelIdentity(identity: Omit<PanelIdentity, "issuedAt">, now = Date.now(), secret = appSecret()): string {
  const payload = Buffer.from(JSON.stringify({ p: identity.participantId, s: identity.serial, t: now })).toString("base64url");
  return `v1.${payload}.${mac(payload, secret).toString("base64url")}`;
}

export function verifyPanelIdentity(value: string | null | undefined, now = Date.now(), secret = appSecret()): PanelIdentity | null {
  if (!value) return null;
  const [version, payload, signature] = value.split(".");
  if (version !== "v1" || !payload || !signature) return null;
  const expected = mac(payload, secret);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { p?: unknown; s?: unknown; t?: unknown };
    if (typeof data.p !== "number" || !Number.isInteger(data.p) || typeof data.s !== "string" || typeof data.t !== "number") return null;
    if (data.t > now + 5_000 || now - data.t > MAX_AGE_MS) return null;
    return { participantId: data.p, serial: data.s, issuedAt: data.t };
  } catch {
    return null;
  }
}
