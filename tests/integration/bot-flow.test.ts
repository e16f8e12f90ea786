// The chat bots' whole flow, played the way the public Telegram taxi bots do
// it (/work/shared/notes/real-clients.md): the nightly street list download,
// an estimate with a skipped house, the order from the token, and the status
// callbacks received by the bot's own HTTP view, which looks the passenger up
// by %phonenum% in its user table and reacts to 80, 95, 10, 11, 4 and 100.
// The people around it are played through their own interfaces: the
// integrator's administrator sets the callback in the console, a dispatcher
// moderates the order there, the driver works in the driver app.
//
// Nothing here reuses the server's code: the receiver parses the query string
// as the bots' Django view does, and every wait is on a callback arriving.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signInApi, trpc, type Session } from "../../e2e/support/console-api";

const base = () => inject("baseUrl");
const PROVISIONING_SECRET = process.env.APP_SECRET ?? "test-secret-test-secret-test-secret-0123";

// ----------------------------------------------------------------- the bot

/** The bots' template: every placeholder of the original, as in their sample. */
const TEMPLATE_QUERY =
  "id=%id%&street=%street%&house=%house%&phonenum=%phonenum%&name=%name%&remaining=%remaining%&status_code=%status_code%&code=%code%" +
  "&car_phone=%car_phone%&car_firstname=%car_firstname%&car_photo=%car_photo%&brand=%brand%&model=%model%&color=%color%" +
  "&autonum=%autonum%&amount=%amount%&uuid=%uuid%&bonus=%bonus%&discount=%discount%";

interface ChatMessage {
  chatId: number;
  status: string;
  text: string;
  fields: Record<string, string>;
}

/** A passenger's Telegram chat as the bot keeps it: its users by phone (with the plus, from the shared contact). */
class Bot {
  readonly users = new Map<string, number>();
  readonly messages: ChatMessage[] = [];
  /** Every request the view received, answered or not. */
  readonly requests: Array<Record<string, string>> = [];
  private waiters: Array<() => void> = [];
  private server?: Server;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const query = Object.fromEntries(new URL(req.url ?? "/", "http://bot").searchParams);
      this.requests.push(query);
      res.statusCode = this.view(query);
      res.end();
      for (const wake of this.waiters.splice(0)) wake();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }

  stop(): void {
    this.server?.close();
  }

  /** The bots' cheque_info view: 400 for a passenger they do not know, 200/202 otherwise. */
  private view(q: Record<string, string>): number {
    const chatId = q.phonenum === undefined ? undefined : this.users.get(q.phonenum);
    if (chatId === undefined || !q.status_code) return 400;
    const say = (text: string) => this.messages.push({ chatId, status: q.status_code!, text, fields: q });
    switch (q.status_code) {
      case "80":
        say("Заказ принят, оператор скоро его подтвердит");
        return 202;
      case "95":
        say("Заказ отменён");
        return 202;
      case "10":
        say(`Машина ${q.color} ${q.brand} ${q.model} ${q.autonum} приедет через ${q.remaining} мин. Водитель ${q.car_firstname} (${q.code}), ${q.car_phone}`);
        return 202;
      case "11":
        say(`Вас ожидает ${q.color} ${q.brand} ${q.model} ${q.autonum}`);
        return 202;
      case "4":
        say("Вы в пути");
        return 202;
      case "1":
        return 202;
      case "100":
        say(`Поездка завершена. Стоимость: ${q.amount}`);
        return 200;
      default:
        return 202;
    }
  }

  /** Resolves when a message with this status reaches the chat (event-driven; the test's timeout bounds it). */
  async said(chatId: number, status: string): Promise<ChatMessage> {
    for (;;) {
      const found = this.messages.find((m) => m.chatId === chatId && m.status === status);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves when the view has received a request for this order and status. */
  async received(uuid: string, status: string): Promise<void> {
    while (!this.requests.some((r) => r.uuid === uuid && r.status_code === status)) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

// ------------------------------------------------------- the bot's API calls

type Reply<T> = { status: "DONE"; response: T } | { status: "ERROR"; error: { code: string; message: string } };

/** requests.get(f"{base}/api/{path}", params) then raise_for_status(), as the bots do. */
async function botGet<T>(apiKey: string, path: string, params: Record<string, string>): Promise<T> {
  const res = await fetch(`${base()}/api/${path}?${new URLSearchParams({ api_key: apiKey, ...params })}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as Reply<T>;
  if (body.status !== "DONE") throw new Error(`${path}: ${body.error.code} ${body.error.message}`);
  return body.response;
}

async function botPost<T>(apiKey: string, path: string, params: Record<string, string>): Promise<T> {
  const res = await fetch(`${base()}/api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ api_key: apiKey, ...params }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as Reply<T>;
  if (body.status !== "DONE") throw new Error(`${path}: ${body.error.code} ${body.error.message}`);
  return body.response;
}

// ------------------------------------------------ the driver and the dispatcher

async function driverApp<T>(key: string, method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base()}/driver-app/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as T;
}

let bot: Bot;
let apiKey = "";
let dispatcher: Session;
let driver: { code: string; id: number; key: string };

beforeAll(async () => {
  bot = new Bot();
  await bot.start();
  // The integrator's administrator issues the bot's key with its callback in the console.
  const admin = await signInApi(base(), inject("adminEmail"), inject("adminPassword"));
  dispatcher = admin;
  const issued = await trpc<{ key: string }>(base(), admin, "admin.apiKeys.issue", { name: "telegram bot", callbackTemplate: `${bot.url}/cheque-info?${TEMPLATE_QUERY}` }, "mutation");
  expect(issued.error).toBeUndefined();
  apiKey = issued.data!.key;

  // A driver of the city, free, on shift in the driver app (the provisioning key is derived from APP_SECRET).
  const { provisioningKeyFor } = await import("@/server/driver-app/keys");
  const drivers = await botGet<{ drivers: Array<{ id: number; code: string }> }>(apiKey, "drivers", { city_id: "1" });
  for (const candidate of drivers.drivers.slice().reverse()) {
    const position = await botGet<{ order_id: number | null }>(apiKey, "drivers", { code: candidate.code });
    if (position.order_id !== null) continue;
    const keys = await fetch(`${base()}/driver-app/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${provisioningKeyFor(PROVISIONING_SECRET)}`, "content-type": "application/json" },
      body: JSON.stringify({ call_sign: candidate.code }),
    });
    if (keys.status !== 200) continue;
    const key = String(((await keys.json()) as { app_key: string }).app_key);
    driver = { code: candidate.code, id: candidate.id, key };
    break;
  }
  expect(driver).toBeDefined();
  await driverApp(driver.key, "POST", "shift/start", { lat: 55.7558, lon: 37.6173 });
}, 120_000);

afterAll(() => bot?.stop());

describe("the chat bots' whole flow", () => {
  it("downloads the city's street list, prices a skipped house, orders, and hears 80, 10, 11, 4 and 100", async () => {
    // The nightly download: the whole list, no pattern.
    const { streets } = await botGet<{ streets: string[] }>(apiKey, "streets", { city_id: "1" });
    expect(streets.length).toBeGreaterThan(50);
    const street = streets.find((s) => s === "ул. Ленина")!;
    expect(street).toBeDefined();

    // The user shares their contact (+998...) and picks a street, skipping the house.
    const phone = "+998919800555";
    bot.users.set(phone, 1001);
    const estimate = await botGet<{ amount: string; distance: number; token: string; approximate: boolean }>(apiKey, "order/pre_cost", {
      phone: phone.slice(1), // one bot sends it without the plus
      way_points: JSON.stringify([{ name: street, street, house: "" }, { latitude: 55.79, longitude: 37.68 }]),
    });
    expect(Number(estimate.amount)).toBeGreaterThan(0);
    expect(estimate.distance).toBeGreaterThan(0);
    expect(estimate.approximate).toBe(true);

    // The user confirms: the order from the token, the phone carried over.
    const order = await botPost<{ uuid: string }>(apiKey, "order", { token: estimate.token, comment: "Подъезд 2\nДомофон 15", service_id: "1" });
    const onModeration = await bot.said(1001, "80");
    expect(onModeration.fields.uuid).toBe(order.uuid);
    expect(onModeration.fields.phonenum).toBe(phone);
    expect(onModeration.fields.street).toBe(street);
    const status80 = await botGet<{ code: number; name: string }>(apiKey, "order/status", { uuid: order.uuid });
    expect(status80).toMatchObject({ code: 80, name: "На модерации" });

    // The dispatcher sends it to the driver (the order's number came in %id%).
    const orderId = Number(onModeration.fields.id);
    const details = await trpc<{ version: number }>(base(), dispatcher, "orders.get", { id: orderId });
    expect(details.error).toBeUndefined();
    const approved = await trpc(base(), dispatcher, "orders.approve", { orderId, expectedVersion: details.data!.version, driverId: driver.id }, "mutation");
    expect(approved.error).toBeUndefined();

    // The driver confirms, arriving in 6 minutes: the passenger's SMS goes, the order becomes 10.
    await driverApp(driver.key, "POST", "orders/status", { uuid: order.uuid, status: "CONFIRMED", arrival_minutes: 6 });
    const arriving = await bot.said(1001, "10");
    expect(arriving.text).toMatch(/через [56] мин/);
    expect(arriving.fields.code).toBe(driver.code);
    expect(arriving.fields.car_photo).toBe("");
    expect(arriving.fields.car_phone).toMatch(/^\+\d{10,15}$/);
    expect(arriving.fields.autonum).not.toBe("");
    const status10 = await botGet<{ code: number; name: string }>(apiKey, "order/status", { uuid: order.uuid });
    expect(status10).toMatchObject({ code: 10, name: "Сообщили время подъезда" });
    // While 10 or 11, one bot tracks the driver live by call sign.
    const position = await botGet<{ lat: number; lon: number }>(apiKey, "drivers", { code: arriving.fields.code! });
    expect(typeof position.lat).toBe("number");
    expect(typeof position.lon).toBe("number");

    // The driver arrives: 3, and after the SMS 11.
    await driverApp(driver.key, "POST", "orders/status", { uuid: order.uuid, status: "AWAITING_CLIENT" });
    const waiting = await bot.said(1001, "11");
    expect(waiting.text).toContain(arriving.fields.autonum);
    expect((await botGet<{ name: string }>(apiKey, "order/status", { uuid: order.uuid })).name).toBe("Сообщили о подъезде машины");

    await driverApp(driver.key, "POST", "orders/status", { uuid: order.uuid, status: "IN_PROCESS" });
    await bot.said(1001, "4");
    await driverApp(driver.key, "POST", "orders/complete", { uuid: order.uuid });
    const cheque = await bot.said(1001, "100");
    expect(Number(cheque.fields.amount)).toBeGreaterThan(0);

    // Every status came once, in order, each telling the same passenger.
    const codes = bot.requests.filter((r) => r.uuid === order.uuid).map((r) => r.status_code);
    expect(codes).toEqual(["80", "1", "2", "10", "3", "11", "4", "100"]);
    expect(bot.requests.filter((r) => r.uuid === order.uuid).map((r) => `${r.status_code} ${r.phonenum}`)).toEqual(codes.map((c) => `${c} ${phone}`));
  });

  it("tells the passenger who cancels, with the original's status name", async () => {
    bot.users.set("+998901234567", 1002);
    const order = await botPost<{ uuid: string }>(apiKey, "order", { phone: "998901234567", street: "ул. Ленина", house: "2" });
    await bot.said(1002, "80");
    await botPost(apiKey, "cancel_order", { uuid: order.uuid });
    const refused = await bot.said(1002, "95");
    expect(refused.fields.uuid).toBe(order.uuid);
    expect(await botGet(apiKey, "order/status", { uuid: order.uuid })).toMatchObject({ code: 95, name: "Клиент отказался" });
  });

  it("does not retry a callback the bot refuses (400 for a phone it does not know), nor hold up the next", async () => {
    // Not a user of the bot: its view answers 400 to every status of this order.
    const order = await botPost<{ uuid: string }>(apiKey, "order", { phone: "+998935550011", street: "ул. Ленина", house: "2" });
    await bot.received(order.uuid, "80");
    await botPost(apiKey, "cancel_order", { uuid: order.uuid });
    // 95 comes although 80 was refused; had 80 been retried, it would have come again before it.
    await bot.received(order.uuid, "95");
    const codes = bot.requests.filter((r) => r.uuid === order.uuid).map((r) => r.status_code);
    expect(codes).toEqual(["80", "95"]);
  });
});
