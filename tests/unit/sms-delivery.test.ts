// The passenger's SMS through the outbox and the HTTP provider, on a real
// (embedded) database and a real HTTP receiver that plays an SMS API
// (written from the form such APIs document: a GET with the phone, text and
// sender in the query and a key header; a POST with a JSON body): the URL
// template and key header; a 5xx tried again without a duplicate, a
// crash-like redelivery of a sent message not sent twice, a 4xx failed for
// good; the texts from the service's templates with the tracking link of
// the injected resolver; "arriving" once; and the order dispatch gives up on
// after its service's patience, the passenger told "no car found".
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { sqlExecute } from "@/server/db/sql";
import { config } from "@/server/config";
import { createOrder } from "@/server/orders/create-order";
import { moveOrder } from "@/server/orders/move-order";
import { runOutboxOnce } from "@/server/notifications/worker";
import { setSmsProvider, logProvider } from "@/server/sms/provider";
import { HttpSmsProvider } from "@/server/sms/http-provider";
import { setTrackingUrlResolver } from "@/server/sms/tracking-link";
import { saveServiceSms, saveTemplate } from "@/server/sms/service-settings";
import { sendArrivingSms } from "@/server/sms/arriving";
import { giveUpUntakenOrders } from "@/server/dispatch/give-up";
process.env.OUTGOING_ALLOW = "127.0.0.0/8,::1";

interface Received {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

let close: () => Promise<void>;
let receiver: Server;
let base = "";
const received: Received[] = [];
/** Statuses the API answers with next (200 once empty). */
const answers: number[] = [];
let phone = 9165551000;

beforeAll(async () => {
  ({ close } = await openLocalDb());
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: new URL(req.url ?? "/", base), headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ status: "OK", sms_id: `api-${received.length}` }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  setSmsProvider(logProvider);
  setTrackingUrlResolver(null);
  receiver.close();
  await close();
});

beforeEach(() => {
  answers.length = 0;
});

function useHttp(more: Partial<ReturnType<typeof config>> = {}): void {
  setSmsProvider(
    new HttpSmsProvider({
      ...config(),
      SMS_HTTP_URL: `${base}/sms/send?to=%phone_digits%&msg=%text%&from=%sender%&cid=%id%`,
      SMS_HTTP_METHOD: "GET",
      SMS_HTTP_KEY_HEADER: "X-Api-Key",
      SMS_HTTP_KEY: "k-123",
      SMS_HTTP_ID_FIELD: "sms_id",
      ...more,
    }),
  );
}

async function drain(): Promise<void> {
  for (let i = 0; i < 10 && (await runOutboxOnce()) > 0; i++);
}

/** Makes every pending message due now (the retry's backoff, passed). */
async function dueNow(): Promise<void> {
  await sqlExecute(db(), `UPDATE outbox_message SET next_attempt_at = now() WHERE status = 'PENDING'`);
}

async function confirmed(arrivalMinutes = 7) {
  phone += 1;
  const order = await createOrder(db(), { source: "API", phone: `8${phone}`, pickup: { street: "ул. Ленина", house: "2" }, moderationRequired: false, driver: "105" }, { type: "SYSTEM", id: null });
  await moveOrder(db(), { orderId: order.id, to: "CONFIRMED", actor: { type: "DRIVER", id: "105" }, arrivalMinutes });
  return { ...order, digits: `7${phone}` };
}

const smsOf = (orderId: number) => db().smsMessage.findMany({ where: { orderId }, orderBy: { id: "asc" } });
const toPhone = (digits: string) => received.filter((r) => r.url.searchParams.get("to") === digits || r.body.includes(digits));

describe("the HTTP provider", () => {
  it("calls the URL template with the phone, the Cyrillic text, the sender and the idempotency key; the key in its header", async () => {
    useHttp();
    setTrackingUrlResolver(async (_db, orderId) => `https://taxi.example/t/token-${orderId}`);
    const order = await confirmed();
    await drain();
    const [call, ...more] = toPhone(order.digits);
    expect(more).toEqual([]);
    expect(call!.method).toBe("GET");
    expect(call!.url.pathname).toBe("/sms/send");
    expect(call!.headers["x-api-key"]).toBe("k-123");
    const [sms] = await smsOf(order.id);
    expect(call!.url.searchParams.get("msg")).toBe(sms!.text);
    expect(sms!.text).toMatch(/^К вам едет .+, через 7 мин\. Водитель .+ https:\/\/taxi\.example\/t\/token-\d+$/);
    expect(call!.url.searchParams.get("from")).toBe(config().SMS_SENDER);
    expect(call!.url.searchParams.get("cid")).toBe(sms!.deliveryId);
    expect(call!.headers["x-idempotency-key"]).toBe(sms!.deliveryId);
    expect(sms).toMatchObject({ event: "ASSIGNED", state: "SENT", provider: "http", providerIds: [expect.stringMatching(/^api-\d+$/)] });
    setTrackingUrlResolver(null);
  });

  it("POSTs a JSON body with every value escaped inside its string", async () => {
    useHttp({ SMS_HTTP_METHOD: "POST", SMS_HTTP_CONTENT_TYPE: "application/json", SMS_HTTP_BODY: '{"to":"%phone%","text":"%text%","sender":"%sender%"}' });
    const serviceId = (await db().service.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true } })).id;
    await saveTemplate(db(), { serviceId, language: "ru", event: "ASSIGNED", text: 'Машина "%plate%"\nждёт \\ вас' });
    try {
      phone += 1;
      const order = await createOrder(db(), { source: "API", phone: `8${phone}`, serviceId, pickup: { street: "ул. Ленина", house: "2" }, moderationRequired: false, driver: "105" }, { type: "SYSTEM", id: null });
      await moveOrder(db(), { orderId: order.id, to: "CONFIRMED", actor: { type: "DRIVER", id: "105" }, arrivalMinutes: 5 });
      await drain();
      const call = received.find((r) => r.method === "POST" && r.body.includes(`+7${phone}`))!;
      expect(call.headers["content-type"]).toBe("application/json");
      const body = JSON.parse(call.body) as { to: string; text: string; sender: string };
      expect(body.to).toBe(`+7${phone}`);
      const [sms] = await smsOf(order.id);
      expect(body.text).toBe(sms!.text);
      expect(body.text).toMatch(/^Машина ".+"\nждёт \\ вас$/);
    } finally {
      await saveTemplate(db(), { serviceId, language: "ru", event: "ASSIGNED", text: null });
    }
  });

  it("a 5xx is tried again and the message arrives once; a redelivery of a sent message sends nothing", async () => {
    useHttp();
    answers.push(503);
    const order = await confirmed();
    await drain();
    expect((await smsOf(order.id))[0]).toMatchObject({ state: "QUEUED", error: "HTTP provider answered 503" });
    await dueNow();
    await drain();
    expect(toPhone(order.digits).length).toBe(2); // the refused attempt and the accepted one
    const [sms] = await smsOf(order.id);
    expect(sms!.state).toBe("SENT");
    const outbox = await db().outboxMessage.findFirstOrThrow({ where: { deliveryId: sms!.deliveryId }, select: { status: true, attempts: true } });
    expect(outbox).toEqual({ status: "DELIVERED", attempts: 2 });
    // As after a crash between the provider's answer and the outbox's mark: the message is delivered again.
    await sqlExecute(db(), `UPDATE outbox_message SET status = 'PENDING', next_attempt_at = now() WHERE delivery_id = $1::uuid`, [sms!.deliveryId]);
    await drain();
    expect(toPhone(order.digits).length).toBe(2);
    expect((await db().outboxMessage.findFirstOrThrow({ where: { deliveryId: sms!.deliveryId }, select: { status: true } })).status).toBe("DELIVERED");
  });

  it("a 4xx is a refusal: failed for good, not tried again", async () => {
    useHttp();
    answers.push(400);
    const order = await confirmed();
    await drain();
    await dueNow();
    await drain();
    expect(toPhone(order.digits)).toHaveLength(1);
    const [sms] = await smsOf(order.id);
    expect(sms).toMatchObject({ state: "FAILED", error: "HTTP provider answered 400" });
    expect((await db().outboxMessage.findFirstOrThrow({ where: { deliveryId: sms!.deliveryId }, select: { status: true } })).status).toBe("FAILED");
  });
});

describe("events and templates", () => {
  it("sends 'arriving' once when the car is close, only after a longer promise", async () => {
    useHttp();
    const order = await confirmed(10);
    await drain();
    expect(await sendArrivingSms(db())).toBe(0);
    // Eight and a half minutes later: the car is 90 seconds away.
    await sqlExecute(db(), `UPDATE sms_message SET created_at = created_at - interval '510 seconds' WHERE order_id = $1`, [order.id]);
    await sqlExecute(db(), `UPDATE orders SET arrival_at = now() + interval '90 seconds' WHERE id = $1`, [order.id]);
    expect(await sendArrivingSms(db())).toBe(1);
    expect(await sendArrivingSms(db())).toBe(0);
    await drain();
    const events = (await smsOf(order.id)).map((m) => [m.event, m.state]);
    expect(events).toEqual([["ASSIGNED", "SENT"], ["ARRIVING", "SENT"]]);
    // A car confirmed two minutes away: no second message.
    const near = await confirmed(2);
    expect(await sendArrivingSms(db())).toBe(0);
    expect((await smsOf(near.id)).map((m) => m.event)).toEqual(["ASSIGNED"]);
  });

  it("gives up an order nobody took within its service's patience: 93, and the passenger told in the service's language and text", async () => {
    useHttp();
    phone += 1;
    const order = await createOrder(db(), { source: "API", phone: `8${phone}`, pickup: { street: "ул. Ленина", house: "3" }, moderationRequired: false }, { type: "SYSTEM", id: null });
    const { serviceId } = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { serviceId: true } });
    await saveServiceSms(db(), { serviceId, language: "en", sender: "CityCab", patienceMinutes: 15 });
    await saveTemplate(db(), { serviceId, language: "en", event: "NO_CAR", text: "Sorry, no car for %address%." });
    try {
      // (The seeded city's old free orders of the service may be given up too.)
      await giveUpUntakenOrders(db());
      expect((await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { state: true } })).state).not.toBe("DONE_NO_CARS");
      await sqlExecute(db(), `UPDATE orders SET created_at = now() - interval '16 minutes' WHERE id = $1`, [order.id]);
      expect(await giveUpUntakenOrders(db())).toBeGreaterThanOrEqual(1);
      const after = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { state: true, history: { orderBy: { id: "desc" }, take: 1, select: { reason: true } } } });
      expect(after.state).toBe("DONE_NO_CARS");
      expect(after.history[0]!.reason).toBe("nobody took the order in 15 min");
      await drain();
      const [sms] = await smsOf(order.id);
      expect(sms).toMatchObject({ event: "NO_CAR", language: "en", text: "Sorry, no car for ул. Ленина, 3.", state: "SENT" });
      expect(toPhone(`7${phone}`)[0]!.url.searchParams.get("from")).toBe("CityCab");
    } finally {
      await saveServiceSms(db(), { serviceId, language: "ru", sender: "", patienceMinutes: 0 });
      await saveTemplate(db(), { serviceId, language: "en", event: "NO_CAR", text: null });
    }
  });

  it("tells the fare after the trip", async () => {
    useHttp();
    const order = await confirmed();
    await sqlExecute(db(), `UPDATE orders SET amount = 35050 WHERE id = $1`, [order.id]);
    await moveOrder(db(), { orderId: order.id, to: "IN_PROCESS", actor: { type: "DRIVER", id: "105" } });
    await moveOrder(db(), { orderId: order.id, to: "DONE_SUCCESSFUL", actor: { type: "DRIVER", id: "105" } });
    await drain();
    const fare = (await smsOf(order.id)).find((m) => m.event === "FARE");
    expect(fare?.text).toContain("350.50 руб.");
  });

  it("refuses a template with an unknown placeholder or control characters, and a bad sender name", async () => {
    await expect(saveTemplate(db(), { serviceId: 1, language: "ru", event: "FARE", text: "Итого %fare% %secret%" })).rejects.toMatchObject({ code: "BAD_PARAMETER" });
    await expect(saveTemplate(db(), { serviceId: 1, language: "ru", event: "FARE", text: "Итого \u001b[2J" })).rejects.toMatchObject({ code: "BAD_PARAMETER" });
    await expect(saveServiceSms(db(), { serviceId: 1, language: "ru", sender: "Такси <b>", patienceMinutes: 0 })).rejects.toMatchObject({ code: "BAD_PARAMETER" });
  });
});
