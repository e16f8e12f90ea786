// How each outbox channel reaches its receiver. SMS goes through the
// provider of SMS_PROVIDER (server/sms/: log, SMPP, HTTP); HTTP channels carry the delivery id so that
// the receiver can apply a redelivered message once.
import { db } from "../db";
import { exchangeTargets, tryAnotherAddress } from "../exchange/participant/client";
import { OutgoingError, sendOutgoing } from "../http/outgoing";
import { log } from "../log";
import { SIGNATURE_HEADER, openCallbackSecret, signCallback } from "./callback-signature";
import { deliverSms } from "../sms/deliver";
import { logProvider, setSmsProvider } from "../sms/provider";

export interface Delivery {
  deliveryId: string;
  channel: string;
  topic: string;
  target: string;
  payload: unknown;
}

/**
 * The outcome of one attempt. A failure is retriable (the receiver may take
 * it later: a timeout, a refused connection, a 5xx, 408, 425 or 429) or final
 * (the receiver has read the message and refuses it: any other 4xx of a status
 * callback). A final failure is not attempted again, and does not hold up the
 * later messages of its order.
 */
export type DeliveryResult =
  | { ok: true; httpStatus?: number }
  | { ok: false; retriable: boolean; httpStatus?: number; error: string };

/** What one HTTP exchange gave, before it is judged. */
type HttpOutcome = { status: number } | { error: string; status?: number };

/** The form of an SMS sender a test plays (the providers themselves: server/sms/provider.ts). */
export interface SmsSender {
  send(phone: string, text: string): Promise<void>;
}

/** Development SMS sender: writes the message to the log. */
export const logSmsSender: SmsSender = {
  async send(phone, text) {
    log.info("SMS", { to: phone, text });
  },
};

/** Makes `sender` this process's SMS provider (logSmsSender: back to the log provider). */
export function setSmsSender(sender: SmsSender): void {
  setSmsProvider(
    sender === logSmsSender
      ? logProvider
      : { name: "log", send: async (m) => (await sender.send(m.phone, m.text), { ok: true, provider: "log", providerIds: [], parts: 1 }) },
  );
}

const TIMEOUT_MS = 10_000;

/** The one place where a message goes out over HTTP: the one outgoing client (server/http/outgoing.ts: no redirects, the address policy, a size cap). */
async function http(method: "GET" | "POST", url: string, delivery: Delivery, extraHeaders: Record<string, string> = {}): Promise<HttpOutcome> {
  try {
    const reply = await sendOutgoing({
      method,
      url,
      timeoutMs: TIMEOUT_MS,
      // The receiver's answer is not used: a small cap is plenty.
      maxBytes: 64 * 1024,
      headers: {
        "x-delivery-id": delivery.deliveryId,
        ...extraHeaders,
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      body: method === "POST" ? JSON.stringify(delivery.payload) : undefined,
    });
    return { status: reply.status };
  } catch (error) {
    // A category (a redirect, a refused address, too large, ...), never socket text: participants read it.
    if (error instanceof OutgoingError) return { error: error.message, ...(error.status ? { status: error.status } : {}) };
    return { error: "the call failed" };
  }
}

/**
 * The signature header of a status callback, with its key's secret as it is
 * now (a rotated secret signs the messages still queued). A key without a
 * secret (set before callbacks were signed) sends none.
 */
async function callbackSignature(delivery: Delivery): Promise<Record<string, string>> {
  const apiKeyId = (delivery.payload as { apiKeyId?: unknown } | null)?.apiKeyId;
  if (typeof apiKeyId !== "number") return {};
  const key = await db().apiKey.findUnique({ where: { id: apiKeyId }, select: { callbackSecret: true } });
  const secret = key?.callbackSecret ? openCallbackSecret(key.callbackSecret) : undefined;
  return secret ? { [SIGNATURE_HEADER]: signCallback(secret, delivery.target) } : {};
}

/** 4xx statuses that ask to come back later rather than refuse the message. */
const LATER_4XX = new Set([408, 425, 429]);

/**
 * Judges an HTTP outcome. For status callbacks a 4xx is final: the
 * integrator's receiver answered and does not want this message (bots answer
 * 400 to a phone they do not know), and retrying it for an hour would hold up
 * every later status of the order. The exchange's channels keep retrying
 * every failure: their receivers are servers of the protocol, whose 4xx may
 * be a passing state (a session not yet open).
 */
export function judgeHttp(channel: string, outcome: HttpOutcome): DeliveryResult {
  if ("error" in outcome) return { ok: false, retriable: true, error: outcome.error, ...(outcome.status ? { httpStatus: outcome.status } : {}) };
  const { status } = outcome;
  if (status >= 200 && status < 300) return { ok: true, httpStatus: status };
  const final = channel === "callback" && status >= 400 && status < 500 && !LATER_4XX.has(status);
  return { ok: false, retriable: !final, httpStatus: status, error: `HTTP ${status}` };
}

export async function deliver(delivery: Delivery): Promise<DeliveryResult> {
  switch (delivery.channel) {
    case "sms":
      return deliverSms(delivery);
    case "callback":
      return judgeHttp(delivery.channel, await http("GET", delivery.target, delivery, await callbackSignature(delivery)));
    case "exchange":
      return judgeHttp(delivery.channel, await http("POST", delivery.target, delivery));
    case "exchange-call": {
      // Our calls to the exchange: its main address, then its slave addresses.
      let result: DeliveryResult = { ok: false, retriable: true, error: "no address" };
      for (const target of await exchangeTargets(db(), delivery.target)) {
        result = judgeHttp(delivery.channel, await http("POST", target, delivery));
        if (result.ok || !tryAnotherAddress(result.httpStatus)) return result;
      }
      return result;
    }
    default:
      return { ok: false, retriable: false, error: `unknown channel ${delivery.channel}` };
  }
}
