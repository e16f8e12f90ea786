// The order exchange under /exchange (the marketplace): finds the operation,
// reads the JSON body, checks the session token, validates the input with
// the operation's schema, calls the exchange's service and shapes the reply.
// Every error goes through reply.ts. The checks run in this order:
//   unknown path 404 -> method 461 -> body not JSON 400 -> empty 462 ->
//   token 401 -> missing 463 / wrong type 465 -> the operation's own errors.
import { config } from "../config";
import { db } from "../db";
import { rateLimits } from "../http/rate-limit";
import { authenticate } from "../exchange/sessions";
import { jsonResponse, type ApiRequest, type ApiResponse } from "../http/types";
import { isEmptyObject, optionalJsonBody, readJsonBody, tokenOf, validate, type JsonObject } from "./body";
import type { ExchangeContext, ExchangeOperation } from "./define";
import { EXCHANGE_OPERATIONS } from "./operations";
import { registerOperations } from "../metrics/labels";
import { exchangeError, exchangeErrorReply } from "./reply";

interface Route {
  op: ExchangeOperation;
  segments: string[];
  literal: number;
}

const ROUTES: Route[] = EXCHANGE_OPERATIONS.map((op) => {
  const segments = op.path.split("/");
  return { op, segments, literal: segments.filter((s) => !s.startsWith(":")).length };
}).sort((a, b) => b.literal - a.literal);
registerOperations("exchange", EXCHANGE_OPERATIONS.map((op) => `${op.method} ${op.path}`));

function match(route: Route, parts: string[]): Record<string, string> | undefined {
  if (route.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = route.segments[i]!;
    const part = parts[i]!;
    if (segment.startsWith(":")) {
      try {
        params[segment.slice(1)] = decodeURIComponent(part);
        // A NUL character matches nothing (PostgreSQL text cannot hold one: server/http/nul.ts).
        if (params[segment.slice(1)]!.includes("\u0000")) return undefined;
      } catch {
        return undefined;
      }
    } else if (segment !== part) return undefined;
  }
  return params;
}

function criteriaOf(body: JsonObject | undefined): unknown {
  if (!body) return {};
  if (body.data && typeof body.data === "object" && !Array.isArray(body.data)) return body.data;
  const { meta: _meta, jsonapi: _jsonapi, data: _data, ...rest } = body;
  return rest;
}

export async function handleExchangeApi(request: ApiRequest): Promise<ApiResponse> {
  if (request.bodyTooLarge) return exchangeError("BODY_TOO_LARGE", { limit: 262144 });
  const parts = request.path === "" ? [] : request.path.split("/");
  // A literal route first (drivers/classes before drivers/:id); any method.
  const found: Array<{ route: Route; params: Record<string, string> }> = [];
  for (const route of ROUTES) {
    const params = match(route, parts);
    if (params) found.push({ route, params });
  }
  if (found.length === 0) return exchangeError("NOT_FOUND", { what: "Path", id: `/exchange/${request.path}` });
  const method = request.method === "HEAD" ? "GET" : request.method;
  const chosen = found.find((f) => f.route.op.method === method);
  if (!chosen) {
    return exchangeError("METHOD_NOT_ALLOWED", {
      method: request.method.slice(0, 16),
      reason: `use ${[...new Set(found.map((f) => f.route.op.method))].join(" or ")} for /exchange/${request.path}`,
    });
  }
  const { op } = chosen.route;
  request.operation = `${op.method} ${op.path}`;
  // Rate limits (server/http/rate-limit.ts): per address, then per participant.
  const cfg = config();
  const limits = rateLimits({ perKey: cfg.RATE_LIMIT_PER_KEY, perAddress: cfg.RATE_LIMIT_PER_ADDRESS });
  if (!limits.byAddress.take(request.remoteAddress)) return exchangeError("RATE_LIMITED");
  try {
    const body = op.method === "POST" ? readJsonBody(request) : optionalJsonBody(request);
    // No body, no `data` or an empty `data`: nothing was asked.
    if (op.source === "data" && (body === undefined || isEmptyObject(body.data))) {
      return exchangeError("EMPTY_REQUEST", { reason: "the request has no data" });
    }
    const ctx: ExchangeContext = { db: db(), caller: null, remoteAddress: request.remoteAddress, params: chosen.params };
    if (op.auth) {
      ctx.caller = await authenticate(ctx.db, tokenOf(request, body), request.remoteAddress);
      if (!limits.byKey.take(`exchange:${ctx.caller.participantId}`)) return exchangeError("RATE_LIMITED");
    }
    const raw = op.source === "data" ? body?.data : op.source === "criteria" ? criteriaOf(body) : {};
    const input: unknown = validate(op.input, raw, op.source === "data" ? "data" : "");
    return jsonResponse(200, await op.handle(input, ctx));
  } catch (error) {
    return exchangeErrorReply(error);
  }
}
