// /sms/receipt/<secret>: the HTTP SMS provider's delivery receipts
// (server/sms/http-receipts.ts). Thin: rate limit per address, the secret
// (compared in constant time; without SMS_HTTP_RECEIPT_SECRET the path does
// not exist), the body (GET query, form or JSON), the service, one error
// form ({"error":{"code","message"}}) in English: the caller is a machine.
import { timingSafeEqual } from "node:crypto";
import { config } from "../../config";
import { db } from "../../db";
import { knownError, type ErrorCode, type ErrorDetails } from "../../errors";
import { holdsUnstorableText } from "../../http/nul";
import { rateLimits } from "../../http/rate-limit";
import { toNodeHandler } from "../../http/node-adapter";
import { jsonResponse, type ApiRequest, type ApiResponse } from "../../http/types";
import { errorMessage } from "../../i18n/errors";
import { log } from "../../log";
import { applyHttpReceipt, readHttpReceipt, wordsOf, type HttpReceiptSettings } from "../http-receipts";

const STATUS: Partial<Record<ErrorCode, number>> = {
  BAD_PARAMETER: 400,
  MISSING_PARAMETER: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  BODY_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  NOT_APPLIED: 503,
};

function receiptError(code: ErrorCode, details: ErrorDetails = {}, status?: number): ApiResponse {
  const extra: Record<string, string> = {};
  for (const name of ["parameter", "expected"] as const) if (typeof details[name] === "string") extra[name] = details[name];
  return jsonResponse(status ?? STATUS[code] ?? 500, { error: { code, message: errorMessage(code, details, "en"), ...extra } }, { "cache-control": "no-store" });
}

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The call's fields: the query of a GET, a form or a JSON object of a POST. */
function fieldsOf(request: ApiRequest): { fields: Record<string, unknown> } | { reply: ApiResponse } {
  if (request.method !== "POST") return { fields: Object.fromEntries(request.query) };
  const type = request.headers["content-type"] ?? "";
  const text = request.body.toString("utf8");
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) return { fields: Object.fromEntries(new URLSearchParams(text)) };
  if (/^application\/json\b/i.test(type)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || holdsUnstorableText(parsed)) return { reply: receiptError("BAD_PARAMETER", { parameter: "body", expected: "a JSON object" }) };
    return { fields: parsed as Record<string, unknown> };
  }
  return { reply: receiptError("BAD_PARAMETER", { parameter: "content-type", expected: "application/x-www-form-urlencoded or application/json" }, 415) };
}

export async function handleSmsReceipt(request: ApiRequest): Promise<ApiResponse> {
  const cfg = config();
  const limits = rateLimits({ perKey: cfg.RATE_LIMIT_PER_KEY, perAddress: cfg.RATE_LIMIT_PER_ADDRESS });
  if (!limits.byAddress.take(request.remoteAddress)) return receiptError("RATE_LIMITED");
  const m = /^receipt\/([^/]+)$/.exec(request.path);
  const secret = cfg.SMS_HTTP_RECEIPT_SECRET;
  if (!m || !secret) return receiptError("NOT_FOUND", { what: "Path" });
  request.operation = `${request.method} receipt`;
  if (!sameSecret(m[1]!, secret)) return receiptError("FORBIDDEN", { reason: "wrong receipt secret" });
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (method !== "GET" && method !== "POST") return receiptError("METHOD_NOT_ALLOWED", {}, 405);
  if (request.bodyTooLarge) return receiptError("BODY_TOO_LARGE", { limit: 262144 });
  const body = fieldsOf(request);
  if ("reply" in body) return body.reply;
  const settings: HttpReceiptSettings = {
    idField: cfg.SMS_HTTP_RECEIPT_ID_FIELD,
    statusField: cfg.SMS_HTTP_RECEIPT_STATUS_FIELD,
    delivered: wordsOf(cfg.SMS_HTTP_RECEIPT_DELIVERED),
    failed: wordsOf(cfg.SMS_HTTP_RECEIPT_FAILED),
  };
  try {
    const receipt = readHttpReceipt(body.fields, settings);
    const state = await applyHttpReceipt(db(), receipt, settings);
    return jsonResponse(200, { ok: true, state }, { "cache-control": "no-store" });
  } catch (error) {
    const known = knownError(error);
    if (known) return receiptError(known.code, known.details);
    log.error("SMS receipt: unexpected error", error);
    return receiptError("INTERNAL");
  }
}

export const SMS_PREFIX = "/sms";

/** The receipt path: /sms/receipt/<anything>. */
export function isSmsReceiptPath(path: string): boolean {
  return /^\/sms\/receipt\/[^/]+$/.test(path);
}

export const smsReceiptHandler = toNodeHandler(SMS_PREFIX, handleSmsReceipt);
