// The one place where errors become the exchange's error replies — for the
// exchange API (/exchange) and for our participant endpoints (/participant).
//
// Body: {"errors":[{"status":461,"code":"MethodNotAllowed","title":"...",
// "detail":"...","source":{"pointer":"/data/id"}}]} (the participant
// endpoints add "meta": {"vendor", "status"}).
//
//   name                 HTTP  domain codes
//   BadRequest           400   FORBIDDEN_MOVE, BAD_REQUEST
//   Unauthorized         401   UNAUTHORIZED, MISSING_API_KEY, BAD_API_KEY, TOKEN_INVALID, TOKEN_EXPIRED
//   Forbidden            403   FORBIDDEN, INSUFFICIENT_BALANCE, BLACKLISTED
//   NotFound             404   NOT_FOUND (and unknown paths)
//   NotAcceptable        406   NOT_ACCEPTABLE
//   Conflict             409   CONFLICT
//   Gone                 410   GONE, TOKEN_USED
//   PayloadTooLarge      413   BODY_TOO_LARGE
//   TooManyRequests      429   RATE_LIMITED
//   MethodNotAllowed     461   METHOD_NOT_ALLOWED
//   EmptyRequest         462   EMPTY_REQUEST
//   NoRequiredFieldSet   463   MISSING_PARAMETER
//   TypeError            465   BAD_PARAMETER (a value of the wrong type)
//   NotApplied           503   NOT_APPLIED (the database unreachable before anything was committed:
//                              nothing done, retry after Retry-After)
//   ServiceUnavailable   503   INTERNAL (an unexpected failure, maybe applied; logged, never a stack trace)
import { config } from "../config";
import { knownError, NOT_APPLIED_RETRY_AFTER_SECONDS, type DomainError, type ErrorCode, type ErrorDetails } from "../errors";
import { jsonResponse, type ApiResponse } from "../http/types";
import { errorMessage } from "../i18n/errors";
import { log } from "../log";

export interface ExchangeErrorName {
  status: number;
  code: string;
  title: string;
}

const BAD_REQUEST: ExchangeErrorName = { status: 400, code: "BadRequest", title: "Bad request" };

const BY_CODE: Record<ErrorCode, ExchangeErrorName> = {
  FORBIDDEN_MOVE: BAD_REQUEST,
  UNAUTHORIZED: { status: 401, code: "Unauthorized", title: "Unauthorized access" },
  MISSING_API_KEY: { status: 401, code: "Unauthorized", title: "Unauthorized access" },
  BAD_API_KEY: { status: 401, code: "Unauthorized", title: "Unauthorized access" },
  TOKEN_INVALID: { status: 401, code: "Unauthorized", title: "Unauthorized access" },
  TOKEN_EXPIRED: { status: 401, code: "Unauthorized", title: "Unauthorized access" },
  FORBIDDEN: { status: 403, code: "Forbidden", title: "Operation unavailable" },
  INSUFFICIENT_BALANCE: { status: 403, code: "Forbidden", title: "Operation unavailable" },
  BLACKLISTED: { status: 403, code: "Forbidden", title: "Operation unavailable" },
  NOT_FOUND: { status: 404, code: "NotFound", title: "Not found" },
  ADDRESS_NOT_FOUND: { status: 404, code: "NotFound", title: "Not found" },
  NO_RATE: { status: 404, code: "NotFound", title: "Not found" },
  NOT_ACCEPTABLE: { status: 406, code: "NotAcceptable", title: "Not acceptable" },
  CONFLICT: { status: 409, code: "Conflict", title: "Conflict" },
  GONE: { status: 410, code: "Gone", title: "Gone" },
  TOKEN_USED: { status: 410, code: "Gone", title: "Gone" },
  BODY_TOO_LARGE: { status: 413, code: "PayloadTooLarge", title: "Request too large" },
  RATE_LIMITED: { status: 429, code: "TooManyRequests", title: "Too many requests" },
  METHOD_NOT_ALLOWED: { status: 461, code: "MethodNotAllowed", title: "The HTTP method does not fit this operation" },
  EMPTY_REQUEST: { status: 462, code: "EmptyRequest", title: "The request is empty" },
  MISSING_PARAMETER: { status: 463, code: "NoRequiredFieldSet", title: "A required parameter is missing" },
  BAD_REQUEST,
  BAD_PARAMETER: { status: 465, code: "TypeError", title: "A parameter has the wrong type" },
  IDEMPOTENCY_KEY_REUSED: { status: 409, code: "Conflict", title: "Conflict" },
  NOT_APPLIED: { status: 503, code: "NotApplied", title: "Temporarily unavailable; the request was not applied" },
  INTERNAL: { status: 503, code: "ServiceUnavailable", title: "Temporarily unavailable" },
};

export function errorName(code: ErrorCode): ExchangeErrorName {
  return BY_CODE[code];
}

export interface ErrorObject {
  status: number;
  code: string;
  title: string;
  detail: string;
  source?: { pointer: string };
}

function pointer(parameter: unknown): { pointer: string } | undefined {
  if (typeof parameter !== "string" || parameter === "") return undefined;
  return { pointer: "/" + parameter.replace(/\[(\d+)\]/g, ".$1").split(".").filter(Boolean).join("/") };
}

export function errorObject(code: ErrorCode, details: ErrorDetails = {}): ErrorObject {
  const name = errorName(code);
  const detail = typeof details.reason === "string" && details.reason ? details.reason : errorMessage(code, details, "en");
  const source = pointer(details.parameter);
  return { status: name.status, code: name.code, title: name.title, detail, ...(source ? { source } : {}) };
}

/** The error object of anything thrown; unexpected errors are logged and become ServiceUnavailable. */
export function errorOf(error: unknown, where: string): ErrorObject {
  const known = knownError(error);
  if (known) return errorObject(known.code, known.details);
  log.error(`${where}: unexpected error`, error);
  return errorObject("INTERNAL");
}

export function exchangeError(code: ErrorCode, details: ErrorDetails = {}): ApiResponse {
  const e = errorObject(code, details);
  return jsonResponse(e.status, { errors: [e] });
}

/** Retry-After on the replies a client should simply retry. */
function retryAfter(reply: ApiResponse, e: ErrorObject): ApiResponse {
  if (e.code === "NotApplied") reply.headers = { ...reply.headers, "retry-after": String(NOT_APPLIED_RETRY_AFTER_SECONDS) };
  return reply;
}

export function exchangeErrorReply(error: unknown): ApiResponse {
  const e = errorOf(error, "exchange API");
  return retryAfter(jsonResponse(e.status, { errors: [e] }), e);
}

/** The participant endpoints' error reply: meta.vendor and meta.status beside the errors. */
export function participantErrorReply(error: unknown | DomainError): ApiResponse {
  const e = errorOf(error, "participant endpoint");
  return retryAfter(jsonResponse(e.status, { meta: { vendor: config().EXCHANGE_VENDOR, status: e.status }, errors: [e] }), e);
}

export function participantError(code: ErrorCode, details: ErrorDetails = {}): ApiResponse {
  const e = errorObject(code, details);
  return jsonResponse(e.status, { meta: { vendor: config().EXCHANGE_VENDOR, status: e.status }, errors: [e] });
}
