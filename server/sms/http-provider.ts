// An HTTP SMS API, the form of the common Russian and international ones
// (SMS.ru, SMSC.ru, SMS Aero, Twilio-like gateways): a URL template with
// %phone%, %phone_digits%, %text%, %sender% and %id% (the message's
// idempotency key: most APIs take a client message id and refuse its
// repeat), called with GET, or POST with a body template; the key in a
// header of the operator's choice. Through the one outgoing client
// (server/http/outgoing.ts: the address policy, no redirects, a size cap).
// 2xx: sent; 408, 425, 429, 5xx and no answer: tried again; other 4xx: refused.
import type { Config } from "../config";
import { OutgoingError, sendOutgoing } from "../http/outgoing";
import type { SmsOutcome, SmsProvider, SmsSubmission } from "./provider";

const TIMEOUT_MS = 15_000;
const LATER_4XX = new Set([408, 425, 429]);

type Fields = Record<"phone" | "phone_digits" | "text" | "sender" | "id", string>;

function fieldsOf(message: SmsSubmission): Fields {
  const digits = message.phone.replace(/\D/g, "");
  return { phone: `+${digits}`, phone_digits: digits, text: message.text, sender: message.sender, id: message.id };
}

const PLACEHOLDER = /%(phone|phone_digits|text|sender|id)%/g;

/** Fills a template, each value escaped for where it goes (a URL, a form body, a JSON string's inside). */
export function fillTemplate(template: string, fields: Fields, escape: "url" | "json"): string {
  return template.replace(PLACEHOLDER, (_whole, name: keyof Fields) => {
    const value = fields[name];
    return escape === "url" ? encodeURIComponent(value) : JSON.stringify(value).slice(1, -1);
  });
}

export class HttpSmsProvider implements SmsProvider {
  readonly name = "http";
  constructor(private readonly cfg: Config) {}

  async send(message: SmsSubmission): Promise<SmsOutcome> {
    const template = this.cfg.SMS_HTTP_URL;
    if (!template) return { ok: false, retriable: true, error: "SMS_HTTP_URL is not set" };
    const fields = fieldsOf(message);
    const post = this.cfg.SMS_HTTP_METHOD === "POST";
    const json = this.cfg.SMS_HTTP_CONTENT_TYPE === "application/json";
    const headers: Record<string, string> = { "x-idempotency-key": message.id };
    if (this.cfg.SMS_HTTP_KEY_HEADER) headers[this.cfg.SMS_HTTP_KEY_HEADER.toLowerCase()] = this.cfg.SMS_HTTP_KEY;
    if (post) headers["content-type"] = this.cfg.SMS_HTTP_CONTENT_TYPE;
    let reply;
    try {
      reply = await sendOutgoing({
        method: post ? "POST" : "GET",
        url: fillTemplate(template, fields, "url"),
        headers,
        body: post ? fillTemplate(this.cfg.SMS_HTTP_BODY, fields, json ? "json" : "url") : undefined,
        timeoutMs: TIMEOUT_MS,
        maxBytes: 64 * 1024,
      });
    } catch (error) {
      // A category, never the socket's text (it may name addresses).
      const text = error instanceof OutgoingError ? error.message : "the call failed";
      const status = error instanceof OutgoingError ? error.status : undefined;
      // A redirect or a refused address will not change by trying again.
      const final = error instanceof OutgoingError && (error.category === "redirect" || error.category === "address_refused" || error.category === "bad_url");
      return { ok: false, retriable: !final, error: `HTTP provider: ${text}`, ...(status ? { httpStatus: status } : {}) };
    }
    const { status } = reply;
    if (status >= 200 && status < 300) return { ok: true, provider: this.name, providerIds: this.idOf(reply.text), parts: 1 };
    const retriable = status >= 500 || LATER_4XX.has(status);
    return { ok: false, retriable, httpStatus: status, error: `HTTP provider answered ${status}` };
  }

  /** The provider's message id from its JSON reply (SMS_HTTP_ID_FIELD), when it gives one. */
  private idOf(text: string): string[] {
    const field = this.cfg.SMS_HTTP_ID_FIELD;
    if (!field) return [];
    try {
      const parsed: unknown = JSON.parse(text);
      const value = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>)[field] : undefined;
      return typeof value === "string" || typeof value === "number" ? [String(value).slice(0, 100)] : [];
    } catch {
      return [];
    }
  }
}
