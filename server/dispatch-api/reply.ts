// The dispatch API's reply forms, and the one place where errors of every
// domain become the protocol's error form: HTTP 200 with
// {"status":"ERROR","error":{"code","message"}} (real clients treat any
// non-2xx as a transport failure).
import { jsonResponse, type ApiResponse } from "../http/types";
import { isDomainError, type ErrorCode, type ErrorDetails } from "../errors";
import { errorMessage } from "../i18n/errors";
import { log } from "../log";

export function done(response: unknown, topLevel = false): ApiResponse {
  return jsonResponse(200, topLevel ? { status: "DONE", ...(response as object) } : { status: "DONE", response });
}

export function failure(code: ErrorCode, details: ErrorDetails, language: "ru" | "en"): ApiResponse {
  return jsonResponse(200, { status: "ERROR", error: { code, message: errorMessage(code, details, language) } });
}

export function errorReply(error: unknown, language: "ru" | "en"): ApiResponse {
  if (isDomainError(error)) return failure(error.code, error.details, language);
  log.error("dispatch API: unexpected error", error);
  return failure("INTERNAL", {}, language);
}
