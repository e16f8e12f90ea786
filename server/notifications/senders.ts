// How each outbox channel reaches its receiver. SMS goes through a pluggable
// sender (development: the log); HTTP channels carry the delivery id so that
// the receiver can apply a redelivered message once.
import { db } from "../db";
import { exchangeTargets, tryAnotherAddress } from "../exchange/participant/client";
import { log } from "../log";

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

async function http(method: "GET" | "POST", url: string, delivery: Delivery): Promise<DeliveryResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const res = await fetch(url, {
      method,
      signal: controller.signal,
      headers: {
        "x-delivery-id": delivery.deliveryId,
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      body: method === "POST" ? JSON.stringify(delivery.payload) : undefined,
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? { ok: true, httpStatus: res.status } : { ok: false, httpStatus: res.status, error: `HTTP ${res.status}` };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error) };
  } finally {
    clearTimeout(timer);
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
