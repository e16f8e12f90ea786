// The one error type of the domain services. Each service throws a
// DomainError (through its domain's subclass) with a code from this closed
// list; each protocol maps codes to its own error form in one place:
// dispatch API (server/dispatch-api/reply.ts), exchange API
// (server/exchange-api/reply.ts), driver app (server/driver-app/api/reply.ts),
// tRPC (server/trpc/init.ts). Each of them reads a thrown value through
// `knownError`, so a database failure that provably changed nothing becomes
// NOT_APPLIED in every protocol alike.

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
  /** The same Idempotency-Key was sent before with different parameters. */
  "IDEMPOTENCY_KEY_REUSED",
  /** Known not to have been applied (the database was unreachable before anything was committed): retry. */
  "NOT_APPLIED",
  /** Unexpected; the request may or may not have been applied. */
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

// ---------------------------------------------------------------- failures known to have changed nothing

/**
 * PostgreSQL error classes and codes after which nothing of the request was
 * committed: connection exceptions (08…), the server shutting down or not
 * accepting connections (57P01–57P03), too many connections (53300), a
 * database that is gone or closed to connections (3D000; 55000 at connect),
 * and a transaction the server rolled back (40001 serialization, 40P01
 * deadlock).
 */
const NOT_APPLIED_SQLSTATE = /^(08\d{3}|57P0[123]|53300|3D000|40001|40P01)$/;
/** Socket errors of a connection that was never made. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
/** Prisma's forms: cannot reach the server (P1001), database missing (P1003), pool timeout (P2024), transaction not started (P2028 with "Unable to start"). */
const NOT_APPLIED_PRISMA = new Set(["P1001", "P1003", "P2024"]);
/** Prisma's driver-adapter error kinds for a database that was never reached (ConnectionClosed is not among them: mid-statement). */
const NOT_APPLIED_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "DatabaseDoesNotExist", "TooManyConnections"]);
/** Messages of the pg pool and drivers for a checkout or connect that never reached the database. */
const NOT_APPLIED_MESSAGE = /timeout exceeded when trying to connect|not currently accepting connections|Connection terminated due to connection timeout|too many clients already|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command|Unable to start a transaction in the given time|Transaction API error: Unable to start/i;

/**
 * Whether a failure is known to have happened before anything was committed,
 * so that the client may simply retry. A connection lost in the middle of a
 * statement or a COMMIT is not among them: its outcome is unknown (INTERNAL).
 * Walks the error's causes (Prisma and the driver adapters wrap the driver's
 * error).
 */
export function isNotApplied(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 5) return false;
  const e = error as { code?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: unknown; kind?: unknown; driverAdapterError?: unknown };
  for (const code of [e.code, e.originalCode]) {
    if (typeof code !== "string") continue;
    if (NOT_APPLIED_SQLSTATE.test(code) || NOT_CONNECTED.has(code) || NOT_APPLIED_PRISMA.has(code)) return true;
  }
  if (typeof e.kind === "string" && NOT_APPLIED_ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === "string" && NOT_APPLIED_MESSAGE.test(e.message)) return true;
  if (e.meta && typeof e.meta === "object" && isNotApplied(e.meta, depth + 1)) return true;
  // A raw statement's failure through a driver adapter: Prisma's meta holds the adapter's error, whose cause has the SQLSTATE.
  if (e.driverAdapterError && typeof e.driverAdapterError === "object" && isNotApplied(e.driverAdapterError, depth + 1)) return true;
  return e.cause !== undefined && e.cause !== error && isNotApplied(e.cause, depth + 1);
}

/** A thrown value as a domain error when it is one or is known not to have been applied; null when unexpected. */
export function knownError(error: unknown): DomainError | null {
  if (isDomainError(error)) return error;
  if (isNotApplied(error)) return new DomainError("NOT_APPLIED");
  return null;
}

/** Seconds a client should wait before retrying a NOT_APPLIED request (sent as Retry-After). */
export const NOT_APPLIED_RETRY_AFTER_SECONDS = 2;
