// tRPC for the operator console, in numbered sections (after create-t3-app):
//   1. the context: an inner one that needs no request (tests build it
//      directly) and the outer one that reads the session cookie and locale;
//   2. initTRPC with superjson and an error formatter that adds the domain
//      code and zod's field errors, with readable messages;
//   3. the ONE place where DomainError codes become TRPCError codes;
//   4. the building blocks: publicProcedure, protectedProcedure (the user is
//      re-read from the database on every call, so a disabled user is out at
//      once), roleProcedure(...roles), and the audit of every mutation.
import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { superjson } from "../../shared/board-wire";
import { z, ZodError } from "zod";
import { db as defaultDb, type Db } from "../db";
import { isDomainError, knownError, type DomainError, type ErrorCode } from "../errors";
import { errorMessage } from "../i18n/errors";
import { serverMessages, roleTitle } from "../../shared/i18n/console";
import { STATE_TITLES, isOrderState } from "../orders/states";
import { writeAudit } from "../audit/write-audit";
import { resolveConsoleUser, hasAnyRole, type ConsoleUser, type SessionClaims } from "../console/session";
import { defaultLocale, type Locale } from "../console/locale";
import type { UserRole } from "../generated/prisma/enums";
import { log } from "../log";
import { holdsUnstorableText } from "../http/nul";
import { recordRequest } from "../metrics/http";

// ---------------------------------------------------------------- 1. context

export interface TrpcContext {
  db: Db;
  /** The session's claims (verified JWT), or null when not signed in. */
  claims: SessionClaims | null;
  locale: Locale;
}

/** A context without a request: for tests and server-side callers. */
export function createContextInner(opts: { claims?: SessionClaims | null; locale?: Locale; db?: Db } = {}): TrpcContext {
  return { db: opts.db ?? defaultDb(), claims: opts.claims ?? null, locale: opts.locale ?? defaultLocale() };
}

// ---------------------------------------------------------------- 2. init

export interface TrpcMeta {
  /** The kind of object a mutation acts on, for the audit log (default: the router's name). */
  entity?: string;
  /** false: do not audit this mutation (it writes its own rows). */
  audit?: boolean;
}

export interface ErrorData {
  /** The domain error's code (server/errors.ts), when the error came from a service. */
  domainCode: ErrorCode | null;
  /** zod's field errors of a bad input. */
  fields: Record<string, string[]> | null;
}

const t = initTRPC
  .context<TrpcContext>()
  .meta<TrpcMeta>()
  .create({
    transformer: superjson,
    sse: {
      ping: { enabled: true, intervalMs: 10_000 },
      client: { reconnectAfterInactivityMs: 25_000 },
    },
    errorFormatter({ shape, error, ctx }) {
      const locale = ctx?.locale ?? defaultLocale();
      const cause = error.cause;
      let message = shape.message;
      let fields: Record<string, string[]> | null = null;
      if (cause instanceof ZodError) {
        const flat = z.flattenError(cause);
        fields = flat.fieldErrors;
        message = serverMessages[locale].badInput(Object.keys(fields).join(", "));
      } else if (error.code === "INTERNAL_SERVER_ERROR" && !isDomainError(cause)) {
        message = errorMessage("INTERNAL", {}, locale);
      }
      const data: ErrorData & typeof shape.data = {
        ...shape.data,
        domainCode: isDomainError(cause) ? cause.code : null,
        fields,
      };
      return { ...shape, message, data };
    },
  });

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

// ---------------------------------------------------------------- 3. errors

const TRPC_CODE: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  MISSING_API_KEY: "UNAUTHORIZED",
  BAD_API_KEY: "UNAUTHORIZED",
  MISSING_PARAMETER: "BAD_REQUEST",
  BAD_PARAMETER: "BAD_REQUEST",
  BAD_REQUEST: "BAD_REQUEST",
  NOT_FOUND: "NOT_FOUND",
  FORBIDDEN_MOVE: "UNPROCESSABLE_CONTENT",
  BLACKLISTED: "UNPROCESSABLE_CONTENT",
  TOKEN_INVALID: "BAD_REQUEST",
  TOKEN_EXPIRED: "BAD_REQUEST",
  TOKEN_USED: "CONFLICT",
  ADDRESS_NOT_FOUND: "UNPROCESSABLE_CONTENT",
  NO_RATE: "UNPROCESSABLE_CONTENT",
  INSUFFICIENT_BALANCE: "PRECONDITION_FAILED",
  CONFLICT: "CONFLICT",
  GONE: "NOT_FOUND",
  NOT_ACCEPTABLE: "UNPROCESSABLE_CONTENT",
  FORBIDDEN: "FORBIDDEN",
  UNAUTHORIZED: "UNAUTHORIZED",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  BODY_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  METHOD_NOT_ALLOWED: "METHOD_NOT_SUPPORTED",
  EMPTY_REQUEST: "BAD_REQUEST",
  IDEMPOTENCY_KEY_REUSED: "UNPROCESSABLE_CONTENT",
  NOT_APPLIED: "SERVICE_UNAVAILABLE",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};

/** The readable message of a domain error in the console's language (states by their titles). */
export function domainErrorMessage(error: DomainError, locale: Locale): string {
  const details = { ...error.details };
  // The move service's stale-version refusal is the console's "stale" too.
  const reason = typeof details.reasonKey === "string" ? serverMessages[locale].reasons[details.reasonKey] : undefined;
  if (reason) return reason(details);
  if (error.code === "FORBIDDEN_MOVE") {
    for (const key of ["from", "to"] as const) {
      const state = details[key];
      if (typeof state === "string" && isOrderState(state)) details[key] = `«${STATE_TITLES[state][locale]}»`;
    }
  }
  return errorMessage(error.code, details, locale);
}

export function toTRPCError(error: DomainError, locale: Locale): TRPCError {
  return new TRPCError({ code: TRPC_CODE[error.code], message: domainErrorMessage(error, locale), cause: error });
}

/** Domain errors thrown by services become TRPCErrors here, and only here. */
const domainErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    const known = knownError(cause);
    if (known) throw toTRPCError(known, ctx.locale);
    if (result.error.code === "INTERNAL_SERVER_ERROR") log.error("console call failed", { path, error: cause ?? result.error });
  }
  return result;
});

// ---------------------------------------------------------------- 4. procedures

/** Requests, latency and errors of every procedure (server/metrics/http.ts); a subscription counts when it opens. */
const measured = t.middleware(async ({ next, path, type }) => {
  const started = performance.now();
  const result = await next();
  const code = result.ok ? undefined : result.error.code;
  recordRequest("console", type === "subscription" ? `subscription ${path}` : path, (performance.now() - started) / 1000, code);
  return result;
});

export const publicProcedure = t.procedure.use(measured).use(domainErrors);

const authed = t.middleware(async ({ ctx, next }) => {
  const user = await resolveConsoleUser(ctx.db, ctx.claims);
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: serverMessages[ctx.locale].signInAgain });
  return next({ ctx: { ...ctx, user } });
});

function pickId(value: unknown): string | number | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  for (const key of ["id", "orderId", "userId", "apiKeyId", "driverId"]) {
    const id = v[key];
    if (typeof id === "number" || typeof id === "string") return id;
  }
  return null;
}

/** What a mutation's reply adds to its audit row: a move's states, an edit's changes. */
function auditOutcome(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== "object") return {};
  const v = data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ["from", "to", "changes", "state"]) if (v[key] !== undefined) out[key] = v[key];
  return out;
}

/** Every mutation (an operator action) leaves an audit row, refused ones too. */
const audited = t.middleware(async ({ ctx, next, type, path, meta, getRawInput }) => {
  const result = await next();
  if (type !== "mutation" || meta?.audit === false) return result;
  const user = (ctx as TrpcContext & { user?: ConsoleUser }).user;
  const input = await getRawInput().catch(() => undefined);
  const cause = result.ok ? undefined : result.error.cause;
  await writeAudit(ctx.db, {
    userId: user?.id ?? null,
    action: path,
    entity: meta?.entity ?? path.split(".")[0] ?? path,
    entityId: (result.ok ? pickId(result.data) : null) ?? pickId(input),
    details: {
      input,
      ok: result.ok,
      ...(result.ok ? auditOutcome(result.data) : { error: isDomainError(cause) ? cause.code : result.error.code }),
    },
  });
  return result;
});

/** Signed in, enabled, within the session's lifetime. */
/** NUL characters and unpaired surrogates cannot reach PostgreSQL text (server/http/nul.ts): such input is refused as bad input. */
const noUnstorableText = t.middleware(async ({ ctx, next, getRawInput }) => {
  if (holdsUnstorableText(await getRawInput().catch(() => undefined))) {
    throw new TRPCError({ code: "BAD_REQUEST", message: ctx.locale === "ru" ? "Входные данные содержат недопустимый символ (NUL или непарный суррогат)" : "The input holds a NUL character or an unpaired surrogate, which no field may contain" });
  }
  return next();
});

export const protectedProcedure = publicProcedure.use(authed).use(audited).use(noUnstorableText);

/** Signed in and holding at least one of `roles`. */
export function roleProcedure(...roles: [UserRole, ...UserRole[]]) {
  return protectedProcedure.use(({ ctx, next }) => {
    if (!hasAnyRole(ctx.user, roles)) {
      throw new TRPCError({
        code: "FORBIDDEN",
        message: serverMessages[ctx.locale].roleRequired(roles.map((role) => roleTitle(role, ctx.locale)).join(", ")),
      });
    }
    return next();
  });
}

export const dispatcherProcedure = roleProcedure("DISPATCHER");
/** Reading the board (orders, map, drivers, dispatch state): dispatchers, and managers, who change nothing. */
export const boardReadProcedure = roleProcedure("DISPATCHER", "MANAGER");
export const adminProcedure = roleProcedure("ADMIN");
