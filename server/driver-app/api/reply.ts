// The one place where errors become the driver app interface's error form:
// an HTTP status and {"error":{"code","message", ...details}}. Success is
// HTTP 200 with the operation's reply object.
//
//   400 MISSING_PARAMETER, BAD_PARAMETER, EMPTY_REQUEST, ADDRESS_NOT_FOUND
//   401 UNAUTHORIZED (missing, unknown or replaced key), MISSING_API_KEY, BAD_API_KEY, TOKEN_*
//   403 FORBIDDEN, BLACKLISTED, INSUFFICIENT_BALANCE
//   404 NOT_FOUND (also unknown paths), NO_RATE
//   405 METHOD_NOT_ALLOWED
//   409 FORBIDDEN_MOVE (with from/to), CONFLICT (a race lost, not on shift ...), NOT_ACCEPTABLE, TOKEN_USED
//   410 GONE   413 BODY_TOO_LARGE   429 RATE_LIMITED   500 INTERNAL (logged, never a stack trace)
//   503 NOT_APPLIED (the database unreachable before anything was committed; Retry-After: retry)
import { config } from "../../config";
import { knownError, NOT_APPLIED_RETRY_AFTER_SECONDS, type ErrorCode, type ErrorDetails } from "../../errors";
import { jsonResponse, type ApiResponse } from "../../http/types";
import { errorMessage } from "../../i18n/errors";
import { log } from "../../log";

export const HTTP_STATUS: Record<ErrorCode, number> = {
  MISSING_PARAMETER: 400,
  BAD_PARAMETER: 400,
  BAD_REQUEST: 400,
  EMPTY_REQUEST: 400,
  ADDRESS_NOT_FOUND: 400,
  UNAUTHORIZED: 401,
  MISSING_API_KEY: 401,
  BAD_API_KEY: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  BLACKLISTED: 403,
  INSUFFICIENT_BALANCE: 403,
  NOT_FOUND: 404,
  NO_RATE: 404,
  METHOD_NOT_ALLOWED: 405,
  FORBIDDEN_MOVE: 409,
  CONFLICT: 409,
  NOT_ACCEPTABLE: 409,
  TOKEN_USED: 409,
  GONE: 410,
  BODY_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  IDEMPOTENCY_KEY_REUSED: 409,
  NOT_APPLIED: 503,
  INTERNAL: 500,
};

/** Details a client may act on (never internals): which states, which parameter, why. */
const PUBLIC_DETAILS = ["from", "fromCode", "to", "toCode", "parameter", "expected", "reason", "what", "id", "method"];

export function driverAppError(code: ErrorCode, details: ErrorDetails = {}): ApiResponse {
  const extra: Record<string, string | number | boolean | null> = {};
  for (const name of PUBLIC_DETAILS) {
    const value = details[name];
    if (value !== undefined) extra[name] = value;
  }
  // The message is the catalogue's, wholly in the configured language (a
  // reason appended here in English made "Требуется авторизация: bad driver app key").
  const message = errorMessage(code, details, config().LANGUAGE);
  const reply = jsonResponse(HTTP_STATUS[code], { error: { code, message, ...extra } });
  if (code === "NOT_APPLIED") reply.headers = { ...reply.headers, "retry-after": String(NOT_APPLIED_RETRY_AFTER_SECONDS) };
  return reply;
}

export function driverAppErrorReply(error: unknown): ApiResponse {
  const known = knownError(error);
  if (known) return driverAppError(known.code, known.details);
  log.error("driver app: unexpected error", error);
  return driverAppError("INTERNAL");
}
