// Shorthands for the exchange's errors. Every one is an ExchangeError with a
// code of the closed list (server/errors.ts); server/exchange-api/reply.ts
// turns them into the exchange's error names and HTTP statuses.
//
// The closed list has no code of its own for "BadRequest" (a request that is
// well typed but not acceptable as a whole: a field that may not change, an
// unsupported filter, a closed order). Such errors are BAD_PARAMETER with
// BAD_REQUEST; a BAD_PARAMETER is a wrong type ("TypeError", 465).
import { ExchangeError, type ErrorDetails } from "../errors";

export function badRequest(reason: string, details: ErrorDetails = {}): ExchangeError {
  return new ExchangeError("BAD_REQUEST", { ...details, reason }, reason);
}

export function gone(reason: string): ExchangeError {
  return new ExchangeError("GONE", { reason }, reason);
}

export function forbidden(reason: string): ExchangeError {
  return new ExchangeError("FORBIDDEN", { reason }, reason);
}

export function notAcceptable(reason: string): ExchangeError {
  return new ExchangeError("NOT_ACCEPTABLE", { reason }, reason);
}

export function unauthorized(reason: string): ExchangeError {
  return new ExchangeError("UNAUTHORIZED", { reason }, reason);
}

export function notFound(what: string, id: string | number): ExchangeError {
  return new ExchangeError("NOT_FOUND", { what, id }, `${what} not found (${id})`);
}

export function missing(parameter: string): ExchangeError {
  return new ExchangeError("MISSING_PARAMETER", { parameter }, `missing ${parameter}`);
}

export function wrongType(parameter: string, expected: string): ExchangeError {
  return new ExchangeError("BAD_PARAMETER", { parameter, expected }, `${parameter}: expected ${expected}`);
}
