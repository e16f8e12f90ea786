// The one interface every SMS provider implements, and the provider of this
// process: chosen by SMS_PROVIDER (log, smpp, http), made on first use, kept
// on globalThis (the custom server's modules and Next's bundle share it).
import { config } from "../config";
import { log } from "../log";

export interface SmsSubmission {
  /** The message's idempotency key (its outbox delivery id): the same on every retry. */
  id: string;
  /** International form with the plus: +79161112233. */
  phone: string;
  text: string;
  /** The sender name or number. */
  sender: string;
  /** A concatenated message's parts that earlier attempts got accepted (SMPP; null: none yet). */
  parts?: PartProgress | null;
  /** Records the parts accepted so far, durably, before the next part goes (the message's record). */
  saveParts?: (progress: PartProgress) => Promise<void>;
}

/** A concatenated message in progress: the reference all its parts carry, and each accepted part's id by part number ('' not yet). */
export interface PartProgress {
  reference: number;
  ids: string[];
}

/**
 * What one attempt gave. A refusal is final (`retriable: false`: the
 * provider read the message and will not take it: a bad number, a 4xx) or
 * passing (a timeout, no connection, a 5xx, throttling): the outbox tries again.
 */
export type SmsOutcome =
  | { ok: true; provider: string; providerIds: string[]; parts: number }
  | { ok: false; retriable: boolean; error: string; httpStatus?: number };

export interface SmsProvider {
  readonly name: string;
  send(message: SmsSubmission): Promise<SmsOutcome>;
  /** Opens what the provider keeps open (the SMPP bind: receipts come in even when nothing is sent). */
  start?(): void;
  close?(): Promise<void>;
}

/** Today's sender: the message goes to the log. */
export const logProvider: SmsProvider = {
  name: "log",
  async send(message) {
    log.info("SMS", { to: message.phone, from: message.sender, text: message.text });
    return { ok: true, provider: "log", providerIds: [], parts: 1 };
  },
};

const key = Symbol.for("taxi.smsProvider");
type Holder = { [key]?: SmsProvider };

async function build(): Promise<SmsProvider> {
  const cfg = config();
  if (cfg.SMS_PROVIDER === "smpp") {
    const { SmppProvider } = await import("./smpp");
    return new SmppProvider(cfg);
  }
  if (cfg.SMS_PROVIDER === "http") {
    const { HttpSmsProvider } = await import("./http-provider");
    return new HttpSmsProvider(cfg);
  }
  return logProvider;
}

let building: Promise<SmsProvider> | undefined;

export async function smsProvider(): Promise<SmsProvider> {
  const holder = globalThis as Holder;
  if (holder[key]) return holder[key];
  building ??= build().then((provider) => {
    holder[key] ??= provider;
    return holder[key];
  });
  return building;
}

/** Replaces the provider (tests of the outbox that play the provider themselves). */
export function setSmsProvider(provider: SmsProvider): void {
  (globalThis as Holder)[key] = provider;
}
