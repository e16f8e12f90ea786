// POST /pbx/<name>/call: a cloud PBX's incoming-call webhook (server/pbx/webhook.ts).
// Replies are JSON: {"ok":true,...}, or {"error":{"code","message"}} with 400
// (bad body), 401 (unsigned, wrong or stale signature), 404 (no such PBX),
// 405, 413, 429.
import { config } from "../../config";
import { db } from "../../db";
import { knownError } from "../../errors";
import { rateLimits } from "../../http/rate-limit";
import { jsonResponse, type ApiRequest, type ApiResponse } from "../../http/types";
import { log } from "../../log";
import { applyWebhook, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhook, webhookBody, webhookSecrets } from "../webhook";

export const PBX_PREFIX = "/pbx";

function refuse(status: number, code: string, message: string): ApiResponse {
  return jsonResponse(status, { error: { code, message } }, { "cache-control": "no-store" });
}

const REFUSALS = {
  unsigned: "The request is not signed (X-Pbx-Timestamp and X-Pbx-Signature)",
  stale: "The request's timestamp is too far from the server's clock",
  wrong: "The signature does not match",
} as const;

export async function handlePbxWebhook(request: ApiRequest): Promise<ApiResponse> {
  const cfg = config();
  if (!rateLimits({ perKey: cfg.RATE_LIMIT_PER_KEY, perAddress: cfg.RATE_LIMIT_PER_ADDRESS }).byAddress.take(request.remoteAddress)) {
    return refuse(429, "RATE_LIMITED", "Too many requests");
  }
  const m = /^([a-z0-9_-]{1,40})\/call$/i.exec(request.path);
  const secret = m ? webhookSecrets().get(m[1]!.toLowerCase()) : undefined;
  if (!m || !secret) return refuse(404, "NOT_FOUND", "No such PBX");
  request.operation = "POST call";
  if (request.method !== "POST") return refuse(405, "METHOD_NOT_ALLOWED", "Use POST");
  if (request.bodyTooLarge) return refuse(413, "BODY_TOO_LARGE", "The body is too large");
  const verdict = verifyWebhook(secret, { timestamp: request.headers[TIMESTAMP_HEADER], signature: request.headers[SIGNATURE_HEADER] }, request.body);
  if (verdict !== "ok") return refuse(401, "UNAUTHORIZED", REFUSALS[verdict]);
  let json: unknown;
  try {
    json = JSON.parse(request.body.toString("utf8"));
  } catch {
    return refuse(400, "BAD_REQUEST", "The body is not JSON");
  }
  const parsed = webhookBody.safeParse(json);
  if (!parsed.success) return refuse(400, "BAD_PARAMETER", parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  try {
    const result = await applyWebhook(db(), m[1]!.toLowerCase(), parsed.data);
    return jsonResponse(200, { ok: true, call_id: result.callId }, { "cache-control": "no-store" });
  } catch (error) {
    const known = knownError(error);
    if (known?.code === "NOT_APPLIED") return refuse(503, "NOT_APPLIED", "Not applied: retry");
    log.error("pbx webhook failed", error);
    return refuse(500, "INTERNAL", "Internal server error");
  }
}
