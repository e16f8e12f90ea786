// /t/<token>/<operation>: the tracking page's data (docs/tracking.md). Thin:
// rate limit per address, find the order the token names, validate the
// input, call the service, one error form ({"error":{"code","message"}}).
// Every token that does not name a live link, malformed, unknown or expired,
// gets the very same 404, so the replies tell nothing about which.
import { z } from "zod";
import { config } from "../../config";
import { db } from "../../db";
import { knownError, type ErrorCode, type ErrorDetails } from "../../errors";
import { holdsUnstorableText } from "../../http/nul";
import { rateLimits } from "../../http/rate-limit";
import { jsonResponse, type ApiRequest, type ApiResponse } from "../../http/types";
import { errorMessage } from "../../i18n/errors";
import { log } from "../../log";
import { internationalPhone } from "../../orders/phone";
import { passengerMayCall, trackingPhase } from "../../../shared/tracking/phase";
import { cancelByPassenger } from "../cancel-by-passenger";
import { findTrackedOrder } from "../find-tracked-order";
import { rateTrip } from "../rate-trip";
import { trackingMap } from "../tracking-map";
import { trackingStream } from "../stream";
import { trackingView } from "../tracking-view";
import { cancelInput, ratingInput, TRACKING_OPERATIONS } from "./operations";

const STATUS: Partial<Record<ErrorCode, number>> = {
  BAD_PARAMETER: 400,
  MISSING_PARAMETER: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 409,
  CONFLICT: 409,
  FORBIDDEN_MOVE: 409,
  BODY_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  NOT_APPLIED: 503,
};

const PUBLIC_DETAILS = ["parameter", "expected", "reason", "what"] as const;

function trackingError(code: ErrorCode, details: ErrorDetails = {}, status?: number): ApiResponse {
  const extra: Record<string, string | number | boolean | null> = {};
  for (const name of PUBLIC_DETAILS) {
    const value = details[name];
    if (value !== undefined) extra[name] = value;
  }
  const message = errorMessage(code, details, config().LANGUAGE);
  return jsonResponse(status ?? STATUS[code] ?? 500, { error: { code, message, ...extra } }, { "cache-control": "no-store" });
}

/** The one reply for every token that is not a working link (and for unknown paths below /t/). */
const notFound = () => trackingError("NOT_FOUND", { what: "Tracking link" });

function readBody(request: ApiRequest): Record<string, unknown> {
  if (!/^application\/json\b/i.test(request.headers["content-type"] ?? "")) {
    // A cross-site form cannot send JSON: a passenger's link opened elsewhere cannot cancel their order.
    throw Object.assign(new Error("content type"), { reply: trackingError("BAD_PARAMETER", { parameter: "content-type", expected: "application/json" }, 415) });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || holdsUnstorableText(parsed)) {
    throw Object.assign(new Error("body"), { reply: trackingError("BAD_PARAMETER", { parameter: "body", expected: "a JSON object" }) });
  }
  return parsed as Record<string, unknown>;
}

function validate<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const parameter = issue?.path.map(String).join(".") ?? "body";
  const top = String(issue?.path[0] ?? "");
  if (top !== "" && (raw[top] === undefined || raw[top] === null)) {
    throw Object.assign(new Error("missing"), { reply: trackingError("MISSING_PARAMETER", { parameter }) });
  }
  throw Object.assign(new Error("bad"), { reply: trackingError("BAD_PARAMETER", { parameter, expected: issue?.message }) });
}

const noStore = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

export async function handleTracking(request: ApiRequest): Promise<ApiResponse> {
  const cfg = config();
  const limits = rateLimits({ perKey: cfg.RATE_LIMIT_PER_KEY, perAddress: cfg.RATE_LIMIT_PER_ADDRESS });
  if (!limits.byAddress.take(request.remoteAddress)) return trackingError("RATE_LIMITED");
  const m = /^([^/]+)\/([a-z]+)$/.exec(request.path);
  const op = m ? TRACKING_OPERATIONS.find((o) => o.path === m[2]) : undefined;
  if (!m || !op) return notFound();
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (method !== op.method) return trackingError("METHOD_NOT_ALLOWED", {}, 405);
  if (request.bodyTooLarge) return trackingError("BODY_TOO_LARGE", { limit: 262144 });
  request.operation = `${op.method} ${op.path}`;
  const token = m[1]!;
  try {
    const database = db();
    const order = await findTrackedOrder(database, token);
    if (!order) return notFound();
    switch (op.path) {
      case "state":
        return jsonResponse(200, await trackingView(database, order), noStore);
      case "events":
        return {
          status: 200,
          headers: { "content-type": "text/event-stream; charset=utf-8", "x-accel-buffering": "no", ...noStore },
          body: ": stream open\n\n",
          stream: trackingStream(database, token),
        };
      case "map":
        return jsonResponse(200, await trackingMap(database, order), { "cache-control": "private, max-age=300" });
      case "call": {
        // The driver's phone leaves the server only here, as a redirect, and only while a car is assigned.
        const driver = passengerMayCall(trackingPhase(order.state)) && order.driverId !== null
          ? await database.driver.findUnique({ where: { id: order.driverId }, select: { phone: true } })
          : null;
        if (!driver?.phone) return trackingError("NOT_ACCEPTABLE", { reason: "no car is on the order now" });
        return { status: 302, headers: { location: `tel:${internationalPhone(driver.phone)}`, ...noStore }, body: "" };
      }
      case "cancel": {
        const input = validate(cancelInput, readBody(request));
        await cancelByPassenger(database, order.id, input.reason);
        const after = await findTrackedOrder(database, token);
        return jsonResponse(200, after ? await trackingView(database, after) : null, noStore);
      }
      case "rating": {
        const input = validate(ratingInput, readBody(request));
        const rating = await rateTrip(database, order, input);
        return jsonResponse(200, { rating }, noStore);
      }
    }
  } catch (error) {
    const reply = (error as { reply?: ApiResponse }).reply;
    if (reply) return reply;
    const known = knownError(error);
    if (known) return trackingError(known.code, known.details);
    log.error("tracking link: unexpected error", error);
    return trackingError("INTERNAL");
  }
}
