// An API key's status callback as its integrator manages it (the dispatch
// API's /api/callback) and as administrators do (the console): the URL
// template, and the secret that signs every callback (callback-signature.ts).
// Setting a URL issues a new secret, shown once in the reply (setting it again
// rotates it); removing the URL removes the secret.
import type { DbOrTx } from "../db";
import { ValidationError } from "../errors";
import { forgetApiKeys } from "../auth/api-keys";
import { isValidCallbackTemplate, renderCallbackUrl, CALLBACK_PLACEHOLDERS, type CallbackOrder } from "./callback-template";
import { generateCallbackSecret, sealCallbackSecret } from "./callback-signature";
import { deliver } from "./senders";
import { STATUS_NAMES } from "../orders/states";

export function checkCallbackTemplate(template: string | null | undefined, parameter: string): string | null {
  const value = template?.trim() || null;
  if (value && (value.length > 2000 || !isValidCallbackTemplate(value))) throw new ValidationError("BAD_PARAMETER", { parameter, expected: "http(s) URL" });
  return value;
}

export async function readKeyCallback(db: DbOrTx, apiKeyId: number): Promise<{ url: string | null; signed: boolean }> {
  const key = await db.apiKey.findUnique({ where: { id: apiKeyId }, select: { callbackTemplate: true, callbackSecret: true } });
  if (!key) throw new ValidationError("NOT_FOUND", { what: "API key", id: apiKeyId });
  return { url: key.callbackTemplate, signed: key.callbackTemplate !== null && key.callbackSecret !== null };
}

/**
 * Sets (a URL) or removes (null) a key's callback. `rotate`: a new secret
 * (always from the integrator's API; from the console only when asked or when
 * the key had none). The new secret is in the reply and nowhere else in clear.
 */
export async function setKeyCallback(db: DbOrTx, input: { apiKeyId: number; url: string | null; rotate: boolean; parameter: string }): Promise<{ url: string | null; secret: string | null }> {
  const url = checkCallbackTemplate(input.url, input.parameter);
  const key = await db.apiKey.findUnique({ where: { id: input.apiKeyId }, select: { callbackSecret: true } });
  if (!key) throw new ValidationError("NOT_FOUND", { what: "API key", id: input.apiKeyId });
  const secret = url && (input.rotate || key.callbackSecret === null) ? generateCallbackSecret() : null;
  await db.apiKey.update({
    where: { id: input.apiKeyId },
    data: { callbackTemplate: url, ...(url === null ? { callbackSecret: null } : secret ? { callbackSecret: sealCallbackSecret(secret) } : {}) },
    select: { id: true },
  });
  // The key's identity (with its template) is cached for a few seconds: this instance forgets it now.
  forgetApiKeys();
  return { url, secret };
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/** The placeholders of a test callback: order 0, the nil uuid, status 0, the rest empty. */
function testFields(): CallbackOrder {
  const fields = Object.fromEntries(CALLBACK_PLACEHOLDERS.map((p) => [p.name, ""])) as CallbackOrder;
  return { ...fields, id: "0", uuid: NIL_UUID, status_code: "0", status_name: STATUS_NAMES.NOT_REGISTERED };
}

/**
 * Sends a test callback now, signed like every other (through the one
 * outgoing client and its address policy), and says what the receiver answered.
 */
export async function sendTestCallback(db: DbOrTx, apiKeyId: number): Promise<{ url: string; delivered: boolean; http_status: number | null; error: string | null }> {
  const { url: template } = await readKeyCallback(db, apiKeyId);
  if (!template) throw new ValidationError("MISSING_PARAMETER", { parameter: "url" });
  const url = renderCallbackUrl(template, testFields());
  const result = await deliver({ deliveryId: `test-${Date.now()}`, channel: "callback", topic: "test", target: url, payload: { statusCode: 0, apiKeyId } });
  return { url, delivered: result.ok, http_status: result.httpStatus ?? null, error: result.ok ? null : result.error };
}
