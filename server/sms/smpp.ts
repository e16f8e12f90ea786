// SMPP 3.4 to an aggregator's SMSC through the `smpp` package (farhadi/node-smpp):
// one transceiver bind per instance, kept open — enquire_link every 30 s,
// reconnected with doubling delays (0.5 s up to SMPP_RECONNECT_MAX_SECONDS,
// jittered) whenever it drops — so that delivery receipts (deliver_sm) come
// in even when nothing is being sent. Submissions wait for the bind (at most
// BIND_WAIT_MS: then a passing failure, the outbox retries), go out no faster
// than SMPP_MPS PDUs a second, GSM-7 (data_coding 0) or UCS-2 (data_coding 8),
// a long text in concatenated parts (UDH, 8-bit reference) or as one
// message_payload (SMPP_LONG_MESSAGES).
//
// What SMPP cannot promise: a submit_sm whose response is lost with the
// connection may have been taken by the SMSC, and the retry sends it again
// (the protocol has no idempotency key). A message whose submit_sm_resp we
// recorded is never submitted again (server/sms/deliver.ts), nor is a part
// of a long message (sendConcatenated).
import smpp from "smpp";
import type { Config } from "../config";
import { log } from "../log";
import { encodingOf, splitSms } from "../../shared/sms/segments";
import type { SmsOutcome, SmsProvider, SmsSubmission } from "./provider";
import { applyReceipt, parseReceipt } from "./receipts";
import { Throttle } from "./throttle";

const BIND_WAIT_MS = 15_000;
/** Below the outbox's 30-second lease: an unanswered submit fails before another worker could claim the message. */
const RESPONSE_TIMEOUT_MS = 20_000;

/** Refusals the SMSC means as "later": throttled, its queue full, a system error, a temporary failure. */
const PASSING = new Set([0x58, 0x14, 0x08, 0x64, 0x45, 0xfe]);
/** Our own mark for a submit_sm the library could not encode (never a status an SMSC sends: 0x0400.. are reserved). */
const INVALID_PDU = 0x0400_0000;

/** A phone as SMPP's destination_addr: international digits, no plus (TON 1, NPI 1). */
function destination(phone: string): string {
  return phone.replace(/\D/g, "");
}

/** The source address's type: digits are an international number, anything else an alphanumeric name (TON 5). */
function source(sender: string): { source_addr: string; source_addr_ton: number; source_addr_npi: number } {
  if (/^\+?\d{3,15}$/.test(sender)) return { source_addr: sender.replace("+", ""), source_addr_ton: 1, source_addr_npi: 1 };
  return { source_addr: sender.slice(0, 11), source_addr_ton: 5, source_addr_npi: 0 };
}

export class SmppProvider implements SmsProvider {
  readonly name = "smpp";
  private session: smpp.Session | undefined;
  private bound = false;
  private closed = false;
  private failures = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private waiters = new Set<() => void>();
  private readonly throttle: Throttle;
  /** The 8-bit reference of concatenated messages, turning over. */
  private reference = Math.floor(Math.random() * 256);

  constructor(private readonly cfg: Config) {
    this.throttle = new Throttle(cfg.SMPP_MPS);
  }

  start(): void {
    if (!this.session && !this.closed) this.open();
  }

  private open(): void {
    const url = this.cfg.SMPP_URL;
    if (!url) {
      log.error("SMPP: SMPP_URL is not set");
      return;
    }
    const session = smpp.connect({ url, auto_enquire_link_period: 30_000 });
    this.session = session;
    session.on(url.startsWith("ssmpp:") ? "secureConnect" : "connect", () => {
      session.bind_transceiver({ system_id: this.cfg.SMPP_SYSTEM_ID, password: this.cfg.SMPP_PASSWORD, system_type: this.cfg.SMPP_SYSTEM_TYPE, interface_version: 0x34 }, (pdu) => {
        if (pdu.command_status !== 0) {
          log.error("SMPP: bind refused", { status: pdu.command_status });
          session.close();
          return;
        }
        this.bound = true;
        this.failures = 0;
        log.info("SMPP: bound", { url });
        for (const wake of [...this.waiters]) wake();
      });
    });
    session.on("deliver_sm", (pdu: smpp.Pdu) => {
      session.send(pdu.response());
      const receipt = parseReceipt(pdu);
      if (receipt) void applyReceipt(receipt).catch((error: unknown) => log.error("SMPP: receipt", error));
    });
    session.on("enquire_link", (pdu: smpp.Pdu) => session.send(pdu.response()));
    session.on("unbind", (pdu: smpp.Pdu) => {
      session.send(pdu.response());
      session.close();
    });
    // Without a listener an error would end the process; the close that follows reconnects.
    session.on("error", (error: unknown) => log.warn("SMPP: connection", { error: error instanceof Error ? error.message : String(error) }));
    session.on("close", () => {
      if (this.session !== session) return;
      this.bound = false;
      this.session = undefined;
      if (!this.closed) this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    this.failures += 1;
    const ceiling = Math.min(this.cfg.SMPP_RECONNECT_MAX_SECONDS * 1000, 500 * 2 ** Math.min(this.failures - 1, 20));
    const delay = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }

  private async waitBound(): Promise<boolean> {
    this.start();
    if (this.bound) return true;
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(ok);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), BIND_WAIT_MS);
      this.waiters.add(wake);
    });
  }

  /** One submit_sm and its response: the message id, or why not. */
  private submit(fields: Record<string, unknown>): Promise<{ id: string } | { status: number } | { error: string }> {
    const session = this.session;
    if (!session || !this.bound) return Promise.resolve({ error: "not bound" });
    return new Promise((resolve) => {
      let settled = false;
      const settle = (value: { id: string } | { status: number } | { error: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        session.off("close", onClose);
        resolve(value);
      };
      const onClose = () => settle({ error: "the connection closed before the SMSC answered" });
      const timer = setTimeout(() => settle({ error: "no submit_sm_resp in time" }), RESPONSE_TIMEOUT_MS);
      session.on("close", onClose);
      try {
        const written = session.submit_sm(fields, (pdu) => settle(pdu.command_status === 0 ? { id: String(pdu.message_id ?? "") } : { status: pdu.command_status }));
        if (!written) settle({ error: "could not write to the SMSC" });
      } catch {
        // The PDU could not be built from these fields: no retry will build it.
        settle({ status: INVALID_PDU });
      }
    });
  }

  async send(message: SmsSubmission): Promise<SmsOutcome> {
    if (!(await this.waitBound())) return { ok: false, retriable: true, error: "SMPP: not bound to the SMSC" };
    const encoding = encodingOf(message.text);
    const common = {
      ...source(message.sender),
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: destination(message.phone),
      registered_delivery: this.cfg.SMPP_DELIVERY_RECEIPTS ? 1 : 0,
      // 0: the SMSC's default alphabet, GSM 03.38 (the library encodes GSM-7 for it); 8: UCS-2.
      data_coding: encoding === "GSM7" ? 0 : 8,
    };
    const parts = splitSms(message.text, encoding);
    if (parts.length > 1 && this.cfg.SMPP_LONG_MESSAGES === "udh") return this.sendConcatenated(message, parts, common);
    const body = parts.length === 1 ? { ...common, short_message: message.text } : { ...common, message_payload: message.text };
    await this.throttle.take();
    const reply = await this.submit(body);
    if ("id" in reply) return { ok: true, provider: this.name, providerIds: [reply.id], parts: 1 };
    return this.refusal(reply);
  }

  /**
   * A long text in concatenated parts (UDH: IEI 0, an 8-bit reference, the
   * count, the number). A retry after a disconnect between parts submits only
   * the parts the SMSC has not accepted, under the reference of the first
   * attempt, so the phone assembles one message and shows no part twice: the
   * reference is recorded before the first part goes, and each part's
   * message_id as soon as its submit_sm_resp comes (SmsSubmission.saveParts).
   */
  private async sendConcatenated(message: SmsSubmission, parts: string[], common: Record<string, unknown>): Promise<SmsOutcome> {
    // Earlier progress counts only for the same split (the text is the outbox message's, so it is).
    const prior = message.parts && message.parts.ids.length === parts.length ? message.parts : null;
    const progress = { reference: prior?.reference ?? this.nextReference(), ids: prior ? [...prior.ids] : parts.map(() => "") };
    if (!prior) await message.saveParts?.({ reference: progress.reference, ids: [...progress.ids] });
    for (const [i, text] of parts.entries()) {
      if (progress.ids[i]) continue;
      await this.throttle.take();
      const reply = await this.submit({
        ...common,
        esm_class: 0x40,
        short_message: { udh: Buffer.from([0x05, 0x00, 0x03, progress.reference, parts.length, i + 1]), message: text },
      });
      if (!("id" in reply)) return this.refusal(reply);
      // An SMSC that gives no message_id still took the part: "-" keeps it from being sent again.
      progress.ids[i] = reply.id || "-";
      await message.saveParts?.({ reference: progress.reference, ids: [...progress.ids] });
    }
    return { ok: true, provider: this.name, providerIds: progress.ids, parts: parts.length };
  }

  private refusal(reply: { status: number } | { error: string }): SmsOutcome {
    if ("status" in reply) {
      const hex = `0x${reply.status.toString(16).padStart(8, "0")}`;
      return { ok: false, retriable: PASSING.has(reply.status), error: `SMPP: the SMSC refused the message (command_status ${hex})` };
    }
    return { ok: false, retriable: true, error: `SMPP: ${reply.error}` };
  }

  private nextReference(): number {
    this.reference = (this.reference + 1) % 256;
    return this.reference;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const session = this.session;
    if (!session) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => session.destroy(() => resolve()), 2000);
      if (this.bound) session.unbind({}, () => session.close(() => (clearTimeout(timer), resolve())));
      else session.close(() => (clearTimeout(timer), resolve()));
    });
  }
}
