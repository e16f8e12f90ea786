// The one error type of the domain services. Each service throws a
// DomainError (through its domain's subclass) with a code from this closed
// list; each protocol maps codes to its own error form in one place:
// dispatch API (server/dispatch-api/reply.ts), exchange API
// (server/exchange-api/reply.ts), tRPC (server/trpc/init.ts).

export const ERROR_CODES = [
  "MISSING_API_KEY",
  "BAD_API_KEY",
  "MISSING_PARAMETER",
  "BAD_PARAMETER",
  "BAD_REQUEST",
  "NOT_FOUND",
  "FORBIDDEN_MOVE",
  "BLACKLISTED",
  "TOKEN_INVALID",
  "TOKEN_EXPIRED",
  "TOKEN_USED",
  "ADDRESS_NOT_FOUND",
  "NO_RATE",
  "INSUFFICIENT_BALANCE",
  "CONFLICT",
  "GONE",
  "NOT_ACCEPTABLE",
  "FORBIDDEN",
  "UNAUTHORIZED",
  "RATE_LIMITED",
  "BODY_TOO_LARGE",
  "METHOD_NOT_ALLOWED",
  "EMPTY_REQUEST",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorDetails = Record<string, string | number | boolean | null | undefined>;

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, details: ErrorDetails = {}, message?: string) {
    super(message ?? code);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

export class OrderError extends DomainError {}
export class PricingError extends DomainError {}
export class GeoError extends DomainError {}
export class BalanceError extends DomainError {}
export class ExchangeError extends DomainError {}
export class AuthError extends DomainError {}
export class ValidationError extends DomainError {}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof Error && typeof (error as DomainError).code === "string" && "details" in error;
}

/** Prisma's unique-constraint violation (P2002), whichever adapter raised it. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (e.code === "P2002" || e.code === "23505") return true;
  if (typeof e.message === "string" && /unique constraint|duplicate key/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isUniqueViolation(e.cause);
}
