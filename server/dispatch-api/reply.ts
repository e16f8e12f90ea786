// The dispatch API's reply forms, and the one place where errors of every
// domain become the protocol's error form: HTTP 200 with
// {"status":"ERROR","error":{"code","message"}} (real clients treat any
// non-2xx as a transport failure).
import { jsonResponse, type ApiResponse } from "../http/types";
import { knownError, NOT_APPLIED_RETRY_AFTER_SECONDS, type ErrorCode, type ErrorDetails } from "../errors";
import { errorMessage } from "../i18n/errors";
import { log } from "../log";

export function done(response: unknown, topLevel = false, headers: Record<string, string> = {}): ApiResponse {
  return jsonResponse(200, topLevel ? { status: "DONE", ...(response as object) } : { status: "DONE", response }, headers);
}

export function failure(code: ErrorCode, details: ErrorDetails, language: "ru" | "en"): ApiResponse {
  // NOT_APPLIED keeps the protocol's HTTP 200 (clients raise on anything
  // else) and says when to retry in Retry-After.
  const headers: Record<string, string> = code === "NOT_APPLIED" ? { "retry-after": String(NOT_APPLIED_RETRY_AFTER_SECONDS) } : {};
  return jsonResponse(200, { status: "ERROR", error: { code, message: errorMessage(code, details, language) } }, headers);
}

/**
 * RATE_LIMITED, with Retry-After: the limits are token buckets refilled every
 * second (server/http/rate-limit.ts), so a call a second later may pass.
 */
export function rateLimited(language: "ru" | "en"): ApiResponse {
  const reply = failure("RATE_LIMITED", {}, language);
  return { ...reply, headers: { ...reply.headers, "retry-after": "1" } };
}

export function errorReply(error: unknown, language: "ru" | "en"): ApiResponse {
  const known = knownError(error);
  if (known) return failure(known.code, known.details, language);
  log.error("dispatch API: unexpected error", error);
  return failure("INTERNAL", {}, language);
}
