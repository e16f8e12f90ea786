// The calling key's status callback, managed by its integrator: read, set
// (answers a new signing secret, once), remove (an empty url), and a test
// callback sent now. Administrators see and edit the same in the console.
import { z } from "zod";
import { defineOperation, type DispatchContext } from "../define";
import { p } from "../params";
import { AuthError } from "../../errors";
import { readKeyCallback, sendTestCallback, setKeyCallback } from "../../notifications/integrator-callback";

function keyId(ctx: DispatchContext): number {
  if (!ctx.apiKey) throw new AuthError("MISSING_API_KEY");
  return ctx.apiKey.id;
}

export const getCallbackOperation = defineOperation({
  method: "GET",
  path: "callback",
  summary: "The calling key's status callback URL template (never its secret)",
  auth: true,
  input: z.object({}),
  output: z.object({
    url: z.string().nullable().describe("The URL template with %placeholders%; null: no callback"),
    signed: z.boolean().describe("true: callbacks carry X-Callback-Signature (the key has a secret)"),
  }),
  handle: async (_input, ctx) => readKeyCallback(ctx.db, keyId(ctx)),
});

export const setCallbackOperation = defineOperation({
  method: "POST",
  path: "callback",
  summary: "Set the calling key's status callback (answers a new signing secret, shown once; setting again rotates it), or remove it with an empty url",
  auth: true,
  input: z.object({
    url: p.string(2000).optional().describe("An http(s) URL template with the placeholders of status callbacks (%uuid%, %status_code%, ...); empty or absent: remove the callback"),
  }),
  output: z.object({
    url: z.string().nullable().describe("The template now in force; null: removed"),
    secret: z.string().nullable().describe("The new secret that signs every callback (HMAC-SHA256 key), shown only in this reply; null when removed"),
  }),
  handle: async (input, ctx) => setKeyCallback(ctx.db, { apiKeyId: keyId(ctx), url: input.url ?? null, rotate: true, parameter: "url" }),
});

export const testCallbackOperation = defineOperation({
  method: "POST",
  path: "callback/test",
  summary: "Send a test callback now (order id 0, the nil uuid, status 0), signed, and tell what the receiver answered",
  auth: true,
  input: z.object({}),
  output: z.object({
    url: z.string().describe("The URL called (the template filled)"),
    delivered: z.boolean().describe("true: the receiver answered 2xx"),
    http_status: z.number().int().nullable().describe("The receiver's HTTP status; null: no answer (refused address, timeout, connection failed)"),
    error: z.string().nullable().describe("Why it was not delivered (a category, e.g. HTTP 500, blocked_address, timeout)"),
  }),
  handle: async (_input, ctx) => sendTestCallback(ctx.db, keyId(ctx)),
});
