// The dispatch API under /api: finds the operation, checks the key, reads and
// validates the parameters, calls the operation and shapes the reply.
import { authenticateApiKey } from "../auth/api-keys";
import { config } from "../config";
import { db } from "../db";
import { jsonResponse, MAX_BODY_BYTES, type ApiRequest, type ApiResponse } from "../http/types";
import { rateLimits } from "../http/rate-limit";
import { errorMessage } from "../i18n/errors";
import type { DispatchContext, Operation } from "./define";
import { OPERATIONS } from "./operations";
import { registerOperations } from "../metrics/labels";
import { buildOpenApiDocument } from "./openapi";
import { parseParams, readParams } from "./params";
import { done, errorReply, failure, rateLimited } from "./reply";
import { IDEMPOTENCY_HEADER, readIdempotencyKey, requestFingerprint } from "../idempotency/key";
import { withIdempotencyKey } from "../idempotency/replay";

/** Marks a reply that repeats the stored reply of an earlier request with the same key. */
const REPLAYED = { "idempotent-replayed": "true" };

function knownNames(op: Operation): Set<string> {
  return new Set(Object.keys((op.input as { shape?: Record<string, unknown> }).shape ?? {}));
}

const byPath = new Map<string, Operation[]>();
for (const op of OPERATIONS) {
  // The Idempotency-Key is kept per API key, for creating POSTs (define.ts).
  if (op.idempotent && (op.method !== "POST" || !op.auth)) throw new Error(`${op.method} ${op.path}: only a POST with an API key can take an Idempotency-Key`);
  const list = byPath.get(op.path) ?? [];
  list.push(op);
  byPath.set(op.path, list);
}
registerOperations("dispatch", [...OPERATIONS.map((op) => `${op.method} ${op.path}`), "GET openapi.json"]);

function pick(ops: Operation[], method: string, params: Map<string, string>): Operation | undefined {
  const candidates = ops.filter((op) => op.method === (method === "HEAD" ? "GET" : method));
  return candidates.find((op) => op.when?.(params)) ?? candidates.find((op) => !op.when);
}

let openApiBody: string | undefined;

function limits() {
  const cfg = config();
  return rateLimits({ perKey: cfg.RATE_LIMIT_PER_KEY, perAddress: cfg.RATE_LIMIT_PER_ADDRESS });
}

export async function handleDispatchApi(request: ApiRequest): Promise<ApiResponse> {
  const language = config().LANGUAGE;
  if (request.path === "openapi.json" && (request.method === "GET" || request.method === "HEAD")) {
    request.operation = "GET openapi.json";
    if (!limits().byAddress.take(request.remoteAddress)) return rateLimited(language);
    openApiBody ??= JSON.stringify(buildOpenApiDocument());
    return { status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: openApiBody };
  }
  const ops = byPath.get(request.path);
  if (!ops) {
    return jsonResponse(404, {
      status: "ERROR",
      error: { code: "NOT_FOUND", message: errorMessage("NOT_FOUND", { what: "Path", id: `/api/${request.path}` }, language) },
    });
  }
  if (request.bodyTooLarge) return failure("BODY_TOO_LARGE", { limit: MAX_BODY_BYTES }, language);
  if (!limits().byAddress.take(request.remoteAddress)) return rateLimited(language);
  try {
    const params = await readParams(request);
    const op = pick(ops, request.method, params);
    if (!op) return failure("METHOD_NOT_ALLOWED", { method: request.method.slice(0, 16) }, language);
    request.operation = `${op.method} ${op.path}`;
    const ctx: DispatchContext = { db: db(), apiKey: null, language, remoteAddress: request.remoteAddress, replyHeaders: {} };
    if (op.auth) {
      ctx.apiKey = await authenticateApiKey(ctx.db, params.get("api_key"));
      if (!limits().byKey.take(`dispatch:${ctx.apiKey.id}`)) return rateLimited(language);
    }
    const parsed = parseParams(op.input, params);
    if (!parsed.ok) {
      const { issue } = parsed;
      return issue.kind === "missing"
        ? failure("MISSING_PARAMETER", { parameter: issue.parameter }, language)
        : failure("BAD_PARAMETER", { parameter: issue.parameter, expected: issue.expected }, language);
    }
    const key = op.idempotent && ctx.apiKey ? readIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]) : undefined;
    if (key !== undefined && ctx.apiKey) {
      const operation = `${op.method} ${op.path}`;
      ctx.idempotency = { apiKeyId: ctx.apiKey.id, key, operation, fingerprint: requestFingerprint(operation, params, knownNames(op)) };
      const outcome = await withIdempotencyKey(ctx.db, ctx.idempotency, () => op.handle(parsed.value, ctx));
      return done(outcome.reply, op.topLevel, outcome.replayed ? REPLAYED : ctx.replyHeaders);
    }
    return done(await op.handle(parsed.value, ctx), op.topLevel, ctx.replyHeaders);
  } catch (error) {
    return errorReply(error, language);
  }
}
