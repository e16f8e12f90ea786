// /participant/control/...: the participant side's actions over HTTP for
// automation and tests (the console calls the same services directly).
// Off unless EXCHANGE_CONTROL_KEY is set; then every call needs
// `Authorization: Bearer <EXCHANGE_CONTROL_KEY>`.
//   POST control/sell  {orderId}                                  sellOrder
//   POST control/take  {exchangeOrderId, driverId, arrivalMinutes?} takeOffer
//   POST control/move  {orderId, to (state name or code), reason?, driverId?} moveOrder
//   GET  control/order ?id=<local id> | ?exchangeId=<exchange id>  the local order and its link
import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { config } from "../config";
import { db } from "../db";
import { sellOrder } from "../exchange/participant/sell";
import { controlOrderView, orderIdOfExchangeOrder } from "../exchange/participant/control-view";
import { takeOffer } from "../exchange/participant/take";
import { badRequest, notFound, unauthorized } from "../exchange/errors";
import { jsonResponse, type ApiRequest, type ApiResponse } from "../http/types";
import { moveOrder } from "../orders/move-order";
import { isOrderState, stateOfCode, type OrderState } from "../orders/states";
import { isEmptyObject, readJsonBody, validate } from "../exchange-api/body";
import { participantError, participantErrorReply } from "../exchange-api/reply";
import { registerOperations } from "../metrics/labels";

registerOperations("participant", ["GET control/order", "POST control/sell", "POST control/take", "POST control/move"]);

function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

const positive = z.number("integer").int("integer").min(1, "positive integer");

function ok(data: unknown): ApiResponse {
  return jsonResponse(200, { meta: { vendor: config().EXCHANGE_VENDOR, status: 200 }, data });
}

function stateOf(value: string | number): OrderState {
  const state = typeof value === "number" ? stateOfCode(value) : /^\d+$/.test(value) ? stateOfCode(Number(value)) : isOrderState(value) ? value : undefined;
  if (!state) throw badRequest(`unknown state ${value}`, { parameter: "to" });
  return state;
}

async function orderView(query: URLSearchParams) {
  const id = query.get("id");
  const exchangeId = query.get("exchangeId");
  const linked = exchangeId ? await orderIdOfExchangeOrder(db(), exchangeId) : undefined;
  const orderId = id && /^\d{1,9}$/.test(id) ? Number(id) : linked;
  if (orderId === undefined) throw notFound("Order", id ?? exchangeId ?? "");
  const order = await controlOrderView(db(), orderId);
  if (!order) throw notFound("Order", orderId);
  return order;
}

export async function handleControl(request: ApiRequest, action: string): Promise<ApiResponse> {
  const key = config().EXCHANGE_CONTROL_KEY;
  if (!key) return participantError("NOT_FOUND", { what: "Path", id: `/participant/control/${action}` });
  try {
    const header = request.headers.authorization ?? "";
    const given = /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, "").trim() : "";
    if (!given || !sameSecret(given, key)) throw unauthorized("the control key is missing or wrong");
    const method = request.method === "HEAD" ? "GET" : request.method;
    const wants = action === "order" ? "GET" : ["sell", "take", "move"].includes(action) ? "POST" : undefined;
    if (!wants) return participantError("NOT_FOUND", { what: "Path", id: `/participant/control/${action}` });
    if (method !== wants) return participantError("METHOD_NOT_ALLOWED", { method: request.method.slice(0, 16) });
    request.operation = `${wants} control/${action}`;
    if (action === "order") return ok(await orderView(request.query));
    const body = readJsonBody(request);
    if (!body || isEmptyObject(body)) return participantError("EMPTY_REQUEST");
    switch (action) {
      case "sell": {
        const input = validate(z.object({ orderId: positive }), body, "");
        return ok(await sellOrder(db(), input.orderId, { type: "SYSTEM", id: "control" }));
      }
      case "take": {
        const input = validate(
          z.object({
            exchangeOrderId: z.union([z.string(), z.number()], "exchange order id").transform(String),
            driverId: positive,
            arrivalMinutes: z.number("integer").int("integer").min(0).max(1440).optional(),
          }),
          body,
          "",
        );
        return ok(await takeOffer(db(), input.exchangeOrderId, input.driverId, { arrivalMinutes: input.arrivalMinutes }));
      }
      default: {
        const input = validate(
          z.object({
            orderId: positive,
            to: z.union([z.string(), z.number()], "state name or code"),
            reason: z.string("string").max(500).optional(),
            driverId: positive.optional(),
          }),
          body,
          "",
        );
        const moved = await moveOrder(db(), {
          orderId: input.orderId,
          to: stateOf(input.to),
          actor: { type: "SYSTEM", id: "control" },
          ...(input.reason !== undefined ? { reason: input.reason } : {}),
          ...(input.driverId !== undefined ? { driverId: input.driverId } : {}),
        });
        return ok(moved);
      }
    }
  } catch (error) {
    return participantErrorReply(error);
  }
}
