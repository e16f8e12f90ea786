// The passenger's SMS over SMPP 3.4, end to end: the started server binds to
// an SMSC this test runs (the `smpp` package's own server side, written from
// the SMPP 3.4 specification, not from our client), an order created through
// the dispatch API with a phone produces the SMS when its driver confirms,
// the SMSC's delivery receipt marks it delivered on the order's card; the
// texts an administrator edits (Latin: GSM-7; long: concatenated parts with
// UDH); a disconnect in the middle (reconnected, nothing lost or
// duplicated), also between the parts of a long message (only the missing
// parts resent, same reference); a throttled submit retried, a refused one failed for good.
import smpp from "smpp";
import type { Server } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type StartedServer } from "../support/server";
import { cloneTemplate, TEST_DB, type TestDatabase } from "../reliability/support/db";
import { APP_SECRET, Console, dispatchApi, waitFor } from "../support/dispatch-world";

interface Submitted {
  source: string;
  destination: string;
  dataCoding: number;
  text: string;
  /** The concatenation header: reference, count, number. */
  part: { ref: number; total: number; seq: number } | null;
  messageId: string | null;
  status: number;
}

/** An SMSC: binds with a system id and password, answers submit_sm, sends delivery receipts. */
class Smsc {
  readonly submitted: Submitted[] = [];
  binds = 0;
  /** Statuses to answer the next submits with (0 accepts). */
  readonly refuse: number[] = [];
  /** A destination refused with this status, always. */
  readonly refuseFor = new Map<string, number>();
  /** Drop the connection right after answering this many more submits. */
  dropAfter: number | null = null;
  private server?: Server;
  private sessions = new Set<smpp.Session>();
  private counter = 0;
  /** Receipts of messages accepted on a connection that dropped before they were sent. */
  private readonly heldReceipts: Array<Record<string, unknown>> = [];
  port = 0;

  async start(): Promise<void> {
    this.server = smpp.createServer((session) => {
      this.sessions.add(session);
      session.on("error", () => undefined);
      session.on("close", () => this.sessions.delete(session));
      session.on("bind_transceiver", (pdu: smpp.Pdu) => {
        const ok = pdu.system_id === "taxi" && pdu.password === "secret";
        session.send(pdu.response({ command_status: ok ? 0 : smpp.ESME_RBINDFAIL, system_id: "TEST-SMSC" }));
        if (ok) {
          this.binds += 1;
          // Receipts that could not be sent while the client was away go to the new bind, as an SMSC keeps them.
          for (const receipt of this.heldReceipts.splice(0)) session.deliver_sm(receipt);
        } else session.close();
      });
      session.on("enquire_link", (pdu: smpp.Pdu) => session.send(pdu.response()));
      session.on("unbind", (pdu: smpp.Pdu) => {
        session.send(pdu.response());
        session.close();
      });
      session.on("submit_sm", (pdu: smpp.Pdu) => this.onSubmit(session, pdu));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
  }

  private onSubmit(session: smpp.Session, pdu: smpp.Pdu): void {
    // A dropped connection processes nothing more (PDUs already read from the socket included).
    if (session.socket.destroyed) return;
    const body = pdu.short_message as { udh?: Buffer[]; message?: string | Buffer } | undefined;
    const payload = pdu.message_payload as { message?: string } | undefined;
    const udh = body?.udh?.find((h) => h[0] === 0x00);
    const destination = String(pdu.destination_addr);
    const status = this.refuseFor.get(destination) ?? this.refuse.shift() ?? 0;
    const messageId = status === 0 ? `M${++this.counter}` : null;
    this.submitted.push({
      source: String(pdu.source_addr),
      destination,
      dataCoding: Number(pdu.data_coding),
      text: String(body?.message ?? payload?.message ?? ""),
      part: udh ? { ref: udh[2]!, total: udh[3]!, seq: udh[4]! } : null,
      messageId,
      status,
    });
    const reply = pdu.response(status === 0 ? { message_id: messageId } : { command_status: status });
    // Dropping the connection: once the answer is written (it reaches the client), as when a link breaks right after it.
    const drop = this.dropAfter !== null && --this.dropAfter <= 0;
    if (drop) this.dropAfter = null;
    session.send(reply, drop ? () => session.socket.destroy() : undefined);
    if (messageId && pdu.registered_delivery) {
      // The receipt after the answer, as SMSCs send it: the TLVs and the text of SMPP 3.4 Appendix B.
      const receipt = {
        source_addr: destination,
        destination_addr: String(pdu.source_addr),
        esm_class: 0x04,
        receipted_message_id: messageId,
        message_state: 2,
        short_message: `id:${messageId} sub:001 dlvrd:001 submit date:2611251200 done date:2611251200 stat:DELIVRD err:000 text:`,
      };
      setTimeout(() => {
        if (session.socket.destroyed) this.heldReceipts.push(receipt);
        else session.deliver_sm(receipt);
      }, 50);
    }
  }

  accepted(destination: string): Submitted[] {
    return this.submitted.filter((s) => s.destination === destination && s.status === 0);
  }

  async stop(): Promise<void> {
    for (const s of this.sessions) s.socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const smsc = new Smsc();
let server: StartedServer;
let database: TestDatabase | undefined;
const template = inject("reliabilityTemplate");
let console_: Console;
let serviceId = 0;
let phoneSeq = 9035550100;
let driverSeq = 100;
/** The first test's "assigned" SMS as the SMSC received it. */
let assignedSms: { uuid: string; text: string } | undefined;

interface Sms {
  id: number;
  event: string;
  text: string;
  state: string;
  provider: string;
  providerIds: string[];
  parts: number;
  error: string | null;
}

/** An order through the dispatch API, straight to a driver, confirmed by them: the passenger's "assigned" SMS. */
async function confirmedOrder(more: Record<string, string | number> = {}): Promise<{ uuid: string; id: number; digits: string }> {
  phoneSeq += 1;
  const phone = `8${phoneSeq}`;
  for (;;) {
    driverSeq += 1;
    const created = await dispatchApi(server.url, server.apiKey, "POST", "order", {
      phone,
      street: "ул. Ленина",
      house: "2",
      moderation_required: "no",
      service_id: serviceId,
      driver_id: String(driverSeq),
      ...more,
    });
    if (created.status !== "DONE") {
      // A driver who cannot take it (busy, off the service): the next one.
      expect(JSON.stringify(created.error)).toMatch(/driver/i);
      expect(driverSeq).toBeLessThan(160);
      continue;
    }
    const uuid = String(created.response.uuid);
    const confirmed = await dispatchApi(server.url, server.apiKey, "POST", "order/status", { uuid, code: 2 });
    expect(confirmed.status, JSON.stringify(confirmed.error)).toBe("DONE");
    const board = await console_.query<{ items: Array<{ id: number; uuid: string }> }>("orders.board", { filter: { group: "all", q: String(phoneSeq) }, limit: 10 });
    const id = board.items.find((r) => r.uuid === uuid)!.id;
    return { uuid, id, digits: `7${phoneSeq}` };
  }
}

async function smsOf(orderId: number): Promise<Sms[]> {
  return console_.query<Sms[]>("sms.order", { orderId });
}

async function delivered(orderId: number, event: string): Promise<Sms> {
  return waitFor(`the ${event} SMS of order ${orderId} delivered`, async () => (await smsOf(orderId)).find((m) => m.event === event && m.state === "DELIVERED"), 60);
}

beforeAll(async () => {
  await smsc.start();
  database = await cloneTemplate(template);
  server = await startServer({
    db: TEST_DB,
    env: {
      ...database.env,
      SMS_PROVIDER: "smpp",
      SMPP_URL: `smpp://127.0.0.1:${smsc.port}`,
      SMPP_SYSTEM_ID: "taxi",
      SMPP_PASSWORD: "secret",
      SMPP_MPS: "50",
      SMPP_RECONNECT_MAX_SECONDS: "2",
      SMS_SENDER: "TaxiTest",
      SMS_ARRIVING_MINUTES: "0",
      RATE_LIMIT_PER_KEY: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
    },
    seeded: { ...template, appSecret: APP_SECRET },
  });
  console_ = await Console.open(server.url, server.adminEmail, server.adminPassword);
  const services = await console_.query<Array<{ id: number }>>("referenceAdmin.services");
  serviceId = services[0]!.id;
}, 300_000);

afterAll(async () => {
  for (const line of server?.output().split("\n") ?? []) if (/SMPP|SMS/.test(line)) console.log(line.slice(0, 400));
  await server?.stop();
  await database?.drop();
  await smsc.stop();
});

describe("SMS through SMPP", () => {
  it("binds as a transceiver at start, before anything is sent", async () => {
    await waitFor("the bind", async () => smsc.binds >= 1, 30);
  });

  it("an order created through the dispatch API with a phone: the Cyrillic SMS in UCS-2, the receipt marks it delivered, the order moves to 10", async () => {
    await console_.mutate("sms.saveSettings", { serviceId, language: "ru", sender: "", patienceMinutes: 0 });
    const order = await confirmedOrder();
    const sms = await delivered(order.id, "ASSIGNED");
    // The built-in Russian text with its values is longer than one UCS-2 message: its parts, once each.
    const parts = smsc.accepted(order.digits);
    expect(parts).toHaveLength(sms.parts);
    expect(parts.every((p) => p.source === "TaxiTest" && p.dataCoding === 8)).toBe(true);
    expect(parts.map((p) => p.text).join("")).toBe(sms.text);
    expect(sms.text).toMatch(/^К вам едет /);
    expect(sms).toMatchObject({ provider: "smpp", providerIds: parts.map((p) => p.messageId) });
    assignedSms = { uuid: order.uuid, text: parts.map((p) => p.text).join("") };
    const status = await waitFor("code 10", async () => {
      const s = await dispatchApi(server.url, server.apiKey, "GET", "order/status", { uuid: order.uuid });
      return s.response.code === 10 ? s : undefined;
    });
    expect(status.response.code).toBe(10);
    // The car is here: "waiting" goes too.
    expect((await dispatchApi(server.url, server.apiKey, "POST", "order/status", { uuid: order.uuid, code: 3 })).status).toBe("DONE");
    const waiting = await delivered(order.id, "WAITING");
    expect(waiting.text).toMatch(/^Вас ожидает /);
  });

  it("the SMS the SMSC received holds the tracking link: it opens the order's page over HTTP", async () => {
    expect(assignedSms, "the assigned SMS of the test above").toBeDefined();
    // The link as the phone shows it: found in the text the SMSC took, not asked of our API.
    const link = /https?:\/\/\S+\/t\/[A-Za-z0-9_-]{22}/.exec(assignedSms!.text)?.[0];
    expect(link, assignedSms!.text).toBeDefined();
    const page = await fetch(link!, { headers: { "accept-language": "ru" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const state = (await (await fetch(`${link}/state`)).json()) as { phase: string; driver: { first_name: string } | null };
    // The car was assigned, then arrived (the test above).
    expect(["coming", "arrived"]).toContain(state.phase);
    expect(html).toContain(`data-phase="${state.phase}"`);
    expect(html).toContain("Ваша поездка");
    expect(html).toContain(state.driver!.first_name);
    // The same link the dispatch API names for the order.
    const info = await dispatchApi(server.url, server.apiKey, "GET", "order", { uuid: assignedSms!.uuid });
    expect(info.response.tracking_url).toBe(link);
  });

  it("an administrator's own text in English goes as GSM-7; a long one in concatenated parts, each receipted", async () => {
    await console_.mutate("sms.saveSettings", { serviceId, language: "en", sender: "TaxiEN", patienceMinutes: 0 });
    // Latin only (the demo's cars and plates are written in Cyrillic): GSM-7.
    const long = `Your ride arrives in %minutes% min. ${"Please wait at the entrance, the driver will call you if needed. ".repeat(3)}[end]`;
    await console_.mutate("sms.saveTemplate", { serviceId, language: "en", event: "ASSIGNED", text: long });
    const refused = await console_.mutateError("sms.saveTemplate", { serviceId, language: "en", event: "ASSIGNED", text: "Hi %passenger_secret%" });
    expect(refused?.message).toContain("passenger_secret");
    try {
      const order = await confirmedOrder();
      const sms = await delivered(order.id, "ASSIGNED");
      const parts = smsc.accepted(order.digits);
      expect(parts.length).toBeGreaterThanOrEqual(2);
      expect(parts.every((p) => p.dataCoding === 0 && p.source === "TaxiEN")).toBe(true);
      expect(new Set(parts.map((p) => p.part!.ref)).size).toBe(1);
      expect(parts.map((p) => p.part!.seq)).toEqual(parts.map((_, i) => i + 1));
      expect(parts.every((p) => p.part!.total === parts.length)).toBe(true);
      const joined = parts.map((p) => p.text).join("");
      expect(joined).toBe(sms.text);
      expect(joined).toMatch(/^Your ride arrives in (\d+ )?min\. Please wait/);
      expect(joined.endsWith("[end]")).toBe(true);
      expect(sms.parts).toBe(parts.length);
      expect(sms.providerIds).toEqual(parts.map((p) => p.messageId));
    } finally {
      await console_.mutate("sms.saveTemplate", { serviceId, language: "en", event: "ASSIGNED", text: null });
      await console_.mutate("sms.saveSettings", { serviceId, language: "ru", sender: "", patienceMinutes: 0 });
    }
  });

  it("a long Cyrillic text goes in UCS-2 parts of at most 67 characters", async () => {
    await console_.mutate("sms.saveTemplate", { serviceId, language: "ru", event: "ASSIGNED", text: `К вам едет %car%, %plate%. ${"Пожалуйста, выходите к подъезду, водитель позвонит. ".repeat(3)}Конец.` });
    try {
      const order = await confirmedOrder();
      const sms = await delivered(order.id, "ASSIGNED");
      const parts = smsc.accepted(order.digits);
      expect(parts.length).toBeGreaterThanOrEqual(3);
      expect(parts.every((p) => p.dataCoding === 8 && [...p.text].length <= 67)).toBe(true);
      expect(parts.map((p) => p.text).join("")).toBe(sms.text);
    } finally {
      await console_.mutate("sms.saveTemplate", { serviceId, language: "ru", event: "ASSIGNED", text: null });
    }
  });

  it("a disconnect in the middle: the client binds again and every message arrives once", async () => {
    // One-part messages here; a long message cut between its parts: the next test.
    await console_.mutate("sms.saveTemplate", { serviceId, language: "ru", event: "ASSIGNED", text: "Машина едет: %minutes% мин." });
    const bindsBefore = smsc.binds;
    smsc.dropAfter = 1;
    const orders = [];
    for (let i = 0; i < 4; i++) orders.push(await confirmedOrder());
    await console_.mutate("sms.saveTemplate", { serviceId, language: "ru", event: "ASSIGNED", text: null });
    for (const order of orders) await delivered(order.id, "ASSIGNED");
    expect(smsc.binds).toBeGreaterThan(bindsBefore);
    for (const order of orders) {
      const sms = (await smsOf(order.id)).find((m) => m.event === "ASSIGNED")!;
      expect(smsc.accepted(order.digits), order.digits).toHaveLength(sms.parts);
      expect(smsc.accepted(order.digits).map((p) => p.text).join("")).toBe(sms.text);
    }
  });

  it("a long message cut by a disconnect between its parts: after the new bind only the missing parts go, under the same reference", async () => {
    // Latin, so GSM-7: 3 parts of at most 153 septets.
    const long = `Your ride arrives in %minutes% min. ${"Please wait at the entrance, the driver will call you when the car is there. ".repeat(4)}[end]`;
    await console_.mutate("sms.saveSettings", { serviceId, language: "en", sender: "TaxiEN", patienceMinutes: 0 });
    await console_.mutate("sms.saveTemplate", { serviceId, language: "en", event: "ASSIGNED", text: long });
    try {
      const bindsBefore = smsc.binds;
      // The SMSC answers the first two parts, then the connection drops before the third is submitted.
      smsc.dropAfter = 2;
      const order = await confirmedOrder();
      const sms = await delivered(order.id, "ASSIGNED");
      expect(smsc.binds).toBeGreaterThan(bindsBefore);
      const parts = smsc.accepted(order.digits);
      expect(sms.parts).toBe(3);
      // Each part once: no part the SMSC took before the cut went again.
      expect(parts.map((p) => p.part?.seq)).toEqual([1, 2, 3]);
      expect(new Set(parts.map((p) => p.part?.ref)).size).toBe(1);
      expect(parts.every((p) => p.part?.total === 3)).toBe(true);
      expect(parts.map((p) => p.text).join("")).toBe(sms.text);
      expect(sms.providerIds).toEqual(parts.map((p) => p.messageId));
    } finally {
      await console_.mutate("sms.saveTemplate", { serviceId, language: "en", event: "ASSIGNED", text: null });
      await console_.mutate("sms.saveSettings", { serviceId, language: "ru", sender: "", patienceMinutes: 0 });
    }
  });

  it("a throttled submit (ESME_RTHROTTLED) is tried again; a refused destination (ESME_RINVDSTADR) fails for good", async () => {
    smsc.refuse.push(smpp.ESME_RTHROTTLED);
    const throttled = await confirmedOrder();
    const sent = await delivered(throttled.id, "ASSIGNED");
    expect(smsc.submitted.filter((s) => s.destination === throttled.digits).map((s) => s.status)).toEqual([smpp.ESME_RTHROTTLED, ...Array<number>(sent.parts).fill(0)]);

    smsc.refuseFor.set(`7${phoneSeq + 1}`, smpp.ESME_RINVDSTADR);
    const refused = await confirmedOrder();
    const failed = await waitFor("the refused SMS failed", async () => (await smsOf(refused.id)).find((m) => m.state === "FAILED"));
    expect(failed.error).toContain("0x0000000b");
    expect(smsc.submitted.filter((s) => s.destination === refused.digits)).toHaveLength(1);
  });
});
