// How each outbox channel reaches its receiver. SMS goes through a pluggable
// sender (development: the log); HTTP channels carry the delivery id so that
// the receiver can apply a redelivered message once.
import { db } from "../db";
import { exchangeTargets, tryAnotherAddress } from "../exchange/participant/client";
import { log } from "../log";
import { OutgoingError, sendOutgoing, type OutgoingFailure } from "../http/outgoing";

export interface Delivery {
  deliveryId: string;
  channel: string;
  topic: string;
  target: string;
  payload: unknown;
}

export interface DeliveryResult {
  ok: boolean;
  httpStatus?: number;
  error?: string;
  /** Why an HTTP delivery failed before any usable reply (server/http/outgoing.ts). */
  failure?: OutgoingFailure;
}

export interface SmsSender {
  send(phone: string, text: string): Promise<void>;
}

/** Development SMS sender: writes the message to the log. */
export const logSmsSender: SmsSender = {
  async send(phone, text) {
    log.info("SMS", { to: phone, text });
  },
};

let smsSender: SmsSender = logSmsSender;
export function setSmsSender(sender: SmsSender): void {
  smsSender = sender;
}

const TIMEOUT_MS = 10_000;

/** An HTTP delivery through the one outgoing client (server/http/outgoing.ts): no redirects, the address policy, a size cap. */
async function http(method: "GET" | "POST", url: string, delivery: Delivery): Promise<DeliveryResult> {
  try {
    const reply = await sendOutgoing({
      method,
      url,
      timeoutMs: TIMEOUT_MS,
      // The receiver's answer is not used: a small cap is plenty.
      maxBytes: 64 * 1024,
      headers: {
        "x-delivery-id": delivery.deliveryId,
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      body: method === "POST" ? JSON.stringify(delivery.payload) : undefined,
    });
    const ok = reply.status >= 200 && reply.status < 300;
    return ok ? { ok: true, httpStatus: reply.status } : { ok: false, httpStatus: reply.status, error: `HTTP ${reply.status}` };
  } catch (error) {
    if (error instanceof OutgoingError) return { ok: false, ...(error.status ? { httpStatus: error.status } : {}), error: error.message, failure: error.category };
    return { ok: false, error: "the call failed" };
  }
}

export async function deliver(delivery: Delivery): Promise<DeliveryResult> {
  switch (delivery.channel) {
    case "sms": {
      const { text } = delivery.payload as { text: string };
      await smsSender.send(delivery.target, text);
      return { ok: true };
    }
    case "callback":
      return http("GET", delivery.target, delivery);
    case "exchange":
      return http("POST", delivery.target, delivery);
    case "exchange-call": {
      // Our calls to the exchange: its main address, then its slave addresses.
      let result: DeliveryResult = { ok: false, error: "no address" };
      for (const target of await exchangeTargets(db(), delivery.target)) {
        result = await http("POST", target, delivery);
        if (result.ok || !tryAnotherAddress(result.httpStatus)) return result;
      }
      return result;
    }
    default:
      return { ok: false, error: `unknown channel ${delivery.channel}` };
  }
}
