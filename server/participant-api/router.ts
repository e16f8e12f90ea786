// Our dispatch server's endpoints for the exchange, under /participant
// (the URL registered as our server's address on the exchange is
// <PUBLIC_URL>/participant):
//   GET  /               connection check: meta.vendor, meta.status
//   GET  /driver         ?callsign= : data.driver (and data.drivers: [it])
//   POST /drivers        {limit (default 100), skip, all}: data.drivers
//   GET  /services       data.services
//   POST /on/<event>     the exchange's notifications (applied once: by delivery id, or by content and order state)
// Only the exchange may call them (participant/trust.ts). Errors: the
// exchange's names and statuses (server/exchange-api/reply.ts), with meta.
import { z } from "zod";
import { config } from "../config";
import { db } from "../db";
import { isEmptyObject, readJsonBody, validate } from "../exchange-api/body";
import { participantError, participantErrorReply } from "../exchange-api/reply";
import { badRequest, gone, missing } from "../exchange/errors";
import { INBOUND_SHAPES, INBOUND_TOPICS, receiveNotification, isInboundTopic } from "../exchange/participant/inbound";
import { driverByCallSign, driverResource, listDriverResources, listServices } from "../exchange/participant/local-order";
import { checkExchangeCaller } from "../exchange/participant/trust";
import { holdsUnstorableText } from "../http/nul";
import { jsonResponse, type ApiRequest, type ApiResponse } from "../http/types";
import { handleControl } from "./control";
import { registerOperations } from "../metrics/labels";

function meta(status = 200) {
  return { vendor: config().EXCHANGE_VENDOR, status };
}

function ok(body: Record<string, unknown> = {}): ApiResponse {
  return jsonResponse(200, { meta: meta(), ...body });
}

const DRIVERS_DEFAULT_LIMIT = 100;
const DRIVERS_MAX_LIMIT = 10_000;

/** A number from JSON, or from the query string's text. */
const intParam = z.union([z.number("integer").int("integer"), z.string().regex(/^\d{1,9}$/, "integer").transform(Number)], "integer");
const boolParam = z.union(
  [z.boolean("boolean"), z.enum(["true", "false", "1", "0", "yes", "no"], "boolean").transform((v) => ["true", "1", "yes"].includes(v))],
  "boolean",
);

function params(request: ApiRequest, body: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of request.query) out[k] = v;
  if (holdsUnstorableText(out)) throw badRequest("the query string holds a NUL character (%00), which no parameter may contain");
  const data = body?.data && typeof body.data === "object" && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : {};
  const { meta: _m, data: _d, ...top } = body ?? {};
  return { ...out, ...top, ...data };
}

async function drivers(request: ApiRequest, body: Record<string, unknown> | undefined): Promise<ApiResponse> {
  const input = validate(
    z.object({
      limit: intParam.pipe(z.number().min(1, "limit of 1 or more").max(DRIVERS_MAX_LIMIT, `limit of at most ${DRIVERS_MAX_LIMIT}`)).optional(),
      skip: intParam.pipe(z.number().min(0, "skip of 0 or more")).optional(),
      all: boolParam.optional(),
    }),
    params(request, body),
    "",
  );
  const drivers = await listDriverResources(db(), { skip: input.skip ?? 0, take: input.all ? undefined : (input.limit ?? DRIVERS_DEFAULT_LIMIT) });
  return ok({ data: { drivers } });
}

async function driver(request: ApiRequest, body: Record<string, unknown> | undefined): Promise<ApiResponse> {
  const p = params(request, body);
  const raw = p.callsign ?? p.callSign;
  if (raw === undefined || raw === "") throw missing("callsign");
  const callSign = validate(z.union([z.string(), z.number()], "string").transform(String), raw, "callsign");
  const row = await driverByCallSign(db(), callSign);
  if (!row || !row.active) throw gone(`no driver with the call sign ${callSign}`);
  const resource = driverResource(row);
  return ok({ data: { driver: resource, drivers: [resource] } });
}

async function notification(request: ApiRequest, topic: string, body: Record<string, unknown> | undefined): Promise<ApiResponse> {
  if (!isInboundTopic(topic)) return participantError("NOT_FOUND", { what: "Path", id: `/participant/on/${topic}` });
  if (!body || isEmptyObject(body.data)) return participantError("EMPTY_REQUEST", { reason: "the notification has no data" });
  const m = body.meta && typeof body.meta === "object" ? (body.meta as Record<string, unknown>) : {};
  // Optional: an exchange written from the reference sends none (inbound.ts, contentKey).
  const given = request.headers["x-delivery-id"] ?? (typeof m.deliveryId === "string" ? m.deliveryId : undefined);
  const deliveryId = given === undefined || given.trim() === "" ? undefined : given.trim();
  if (deliveryId !== undefined && deliveryId.length > 100) return participantError("BAD_PARAMETER", { parameter: "x-delivery-id", expected: "a delivery id of at most 100 characters" });
  validate(INBOUND_SHAPES[topic], body.data, "data");
  const result = await receiveNotification(db(), topic, deliveryId, body);
  return jsonResponse(200, { meta: { ...meta(), ...(result.duplicate ? { duplicate: true } : {}) } });
}

type Handler = (request: ApiRequest, body: Record<string, unknown> | undefined) => Promise<ApiResponse>;

const ROUTES: Record<string, { method: "GET" | "POST"; handle: Handler }> = {
  "": { method: "GET", handle: async () => ok() },
  driver: { method: "GET", handle: driver },
  drivers: { method: "POST", handle: drivers },
  services: { method: "GET", handle: async () => ok({ data: { services: await listServices(db()) } }) },
};
registerOperations("participant", [...Object.entries(ROUTES).map(([path, r]) => `${r.method} ${path}`), ...INBOUND_TOPICS.map((topic) => `POST on/${topic}`)]);

export async function handleParticipantApi(request: ApiRequest): Promise<ApiResponse> {
  if (request.bodyTooLarge) return participantError("BODY_TOO_LARGE", { limit: 262144 });
  if (request.path === "control" || request.path.startsWith("control/")) return handleControl(request, request.path.slice("control/".length));
  const method = request.method === "HEAD" ? "GET" : request.method;
  const isEvent = request.path.startsWith("on/");
  const route = isEvent ? { method: "POST" as const, handle: undefined } : Object.hasOwn(ROUTES, request.path) ? ROUTES[request.path] : undefined;
  if (!route) return participantError("NOT_FOUND", { what: "Path", id: `/participant/${request.path}` });
  if (method !== route.method) return participantError("METHOD_NOT_ALLOWED", { method: request.method.slice(0, 16), reason: `use ${route.method} for /participant/${request.path}` });
  // A made-up topic is "unknown" in the metrics anyway (server/metrics/labels.ts holds the closed list).
  request.operation = `${route.method} ${request.path}`;
  try {
    await checkExchangeCaller(db(), request.remoteAddress);
    const body = method === "POST" ? readJsonBody(request) : undefined;
    if (isEvent) return await notification(request, request.path.slice(3), body);
    return await route.handle!(request, body);
  } catch (error) {
    return participantErrorReply(error);
  }
}
