// The driver app interface under /driver-app/v1: finds the operation, reads
// the input (the query string for GET, a JSON object body for POST), checks
// the key (Authorization: Bearer ...), validates the input with the
// operation's schema and calls the service. Errors go through reply.ts.
import type { z } from "zod";
import { config } from "../../config";
import { db } from "../../db";
import { AuthError, ValidationError } from "../../errors";
import { holdsUnstorableText } from "../../http/nul";
import { rateLimits } from "../../http/rate-limit";
import { jsonResponse, type ApiRequest, type ApiResponse } from "../../http/types";
import { authenticateDriver, checkProvisioningKey } from "../keys";
import { noteAppSeen, noteDriverCall } from "../../dispatch/liveness";
import type { DriverAppContext, DriverAppOperation } from "./define";
import { DRIVER_APP_OPERATIONS, DRIVER_APP_STREAMS } from "./operations";
import { driverAppError, driverAppErrorReply } from "./reply";
import { registerOperations } from "../../metrics/labels";

const OPERATIONS = [...DRIVER_APP_OPERATIONS, ...DRIVER_APP_STREAMS] as unknown as DriverAppOperation[];
const byPath = new Map<string, DriverAppOperation[]>();
for (const op of OPERATIONS) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
registerOperations("driver_app", OPERATIONS.map((op) => `${op.method} ${op.path}`));

function bearer(request: ApiRequest): string | undefined {
  const header = request.headers.authorization ?? "";
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

function readInput(request: ApiRequest, op: DriverAppOperation): Record<string, unknown> {
  if (op.method === "GET") {
    const out: Record<string, unknown> = {};
    for (const [name, value] of request.query) if (value.trim() !== "" && !(name in out)) out[name] = value;
    if (holdsUnstorableText(out)) throw new ValidationError("BAD_PARAMETER", { parameter: "query", expected: "text without NUL characters or unpaired surrogates" });
    return out;
  }
  const text = request.body.toString("utf8").trim();
  if (text === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError("BAD_PARAMETER", { parameter: "body", expected: "a JSON object" });
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "body", expected: "a JSON object" });
  }
  if (holdsUnstorableText(parsed)) throw new ValidationError("BAD_PARAMETER", { parameter: "body", expected: "text without NUL characters or unpaired surrogates" });
  return parsed as Record<string, unknown>;
}

function validate<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const parameter = issue?.path.map(String).join(".") ?? "";
  const top = String(issue?.path[0] ?? "");
  if (issue && top !== "" && (raw[top] === undefined || raw[top] === null)) {
    throw new ValidationError("MISSING_PARAMETER", { parameter });
  }
  throw new ValidationError("BAD_PARAMETER", { parameter, expected: issue?.message });
}

export async function handleDriverApp(request: ApiRequest): Promise<ApiResponse> {
  if (request.bodyTooLarge) return driverAppError("BODY_TOO_LARGE", { limit: 262144 });
  const m = /^v1\/(.+)$/.exec(request.path);
  const ops = m?.[1] ? byPath.get(m[1]) : undefined;
  if (!ops) return driverAppError("NOT_FOUND", { what: "Path", id: `/driver-app/${request.path}` });
  const method = request.method === "HEAD" ? "GET" : request.method;
  const op = ops.find((o) => o.method === method);
  if (!op) return driverAppError("METHOD_NOT_ALLOWED", { method: request.method.slice(0, 16), reason: `use ${ops.map((o) => o.method).join(" or ")}` });
  request.operation = `${op.method} ${op.path}`;
  // Rate limits (server/http/rate-limit.ts): a driver's calls per driver (a
  // fleet's phones may share one carrier address); the other calls, and
  // refused keys, per address.
  const cfg = config();
  const limits = rateLimits({ perKey: cfg.RATE_LIMIT_PER_KEY, perAddress: cfg.RATE_LIMIT_PER_ADDRESS });
  if (op.auth !== "driver" && !limits.byAddress.take(request.remoteAddress)) return driverAppError("RATE_LIMITED");
  try {
    const ctx: DriverAppContext = { db: db(), driver: null, language: config().LANGUAGE, idle: request.yieldAdmission };
    if (op.auth === "driver") {
      ctx.driver = await authenticateDriver(ctx.db, bearer(request)).catch((error: unknown) => {
        throw limits.byAddress.take(request.remoteAddress) ? error : new AuthError("RATE_LIMITED");
      });
      if (!limits.byKey.take(`driver:${ctx.driver.id}`)) return driverAppError("RATE_LIMITED");
      if (!op.marksAppSeen) await noteAppSeen(ctx.db, ctx.driver.id);
    }
    else if (op.auth === "provisioning") checkProvisioningKey(bearer(request));
    const input: unknown = validate(op.input, readInput(request, op));
    if (op.stream) {
      if (ctx.driver) await noteDriverCall(ctx.db, ctx.driver.id, op.path);
      const headers = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" };
      return { status: 200, headers, body: ": stream open\n\n", stream: op.stream(input, ctx) };
    }
    const reply = await op.handle(input, ctx);
    if (ctx.driver) await noteDriverCall(ctx.db, ctx.driver.id, op.path);
    return jsonResponse(200, reply, { "cache-control": "no-store" });
  } catch (error) {
    return driverAppErrorReply(error);
  }
}
