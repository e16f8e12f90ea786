// The passenger's tracking link over real HTTP against started servers:
// the link in GET /api/order and in the status callback (%tracking_url%),
// the page and its data (/t/<token>/...), the car's live positions and the
// falling arrival time on the event stream, the call redirect, cancelling
// before the car arrives and the refusal after boarding, the rating (once,
// only after the trip, 1 to 5), one 404 for malformed, unknown and expired
// tokens, and no phone or name of the passenger (nor the driver's phone) in
// any reply; the rating refused once its window is over (with the page
// saying so); the HTTP SMS provider's delivery receipts. The driver's side is played through the driver app interface
// as docs/driver-app.md describes it; the integrator's receiver as
// docs/dispatch-api.md describes callbacks.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signInApi, trpc, uniquePhone, type Session } from "../../e2e/support/console-api";
import { DriverApp, dispatchApi, issueKey } from "../support/dispatch-world";
import { startServer, type StartedServer } from "../support/server";
import { cloneTemplate, TEST_DB, type TestDatabase } from "../reliability/support/db";
import { APP_SECRET } from "../support/dispatch-world";

const base = () => inject("baseUrl");
const apiKey = () => inject("apiKey");
const PASSENGER = "Евлампия Тестова";

interface View {
  phase: string;
  status_code: number;
  driver: { first_name: string; car: { colour: string; make: string; model: string; plate: string } | null; position: { lat: number; lon: number } | null } | null;
  arrival_seconds: number | null;
  can_call: boolean;
  can_cancel: boolean;
  fare: { amount: string; breakdown: unknown } | null;
  rating: { can_rate: boolean; stars: number | null; comment: string | null };
  pickup: { address: string; lat: number | null; lon: number | null };
}

async function get(url: string, init: RequestInit = {}) {
  const res = await fetch(url, { redirect: "manual", ...init });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function postJson(url: string, body: unknown, contentType = "application/json") {
  const res = await fetch(url, { method: "POST", headers: { "content-type": contentType }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { code: string; parameter?: string } } };
}

/** Drivers of city 1 holding no order (their shift ended), with keys; call signs other suites use are left alone. */
async function freeDrivers(server: string, key: string, count: number): Promise<DriverApp[]> {
  const listed = (await dispatchApi(server, key, "GET", "drivers", { city_id: 1 })).response.drivers as Array<{ code: string }>;
  const out: DriverApp[] = [];
  for (const { code } of listed.reverse()) {
    if (Number(code) >= 140 && Number(code) <= 164) continue;
    const app = new DriverApp(server, code, await issueKey(server, code));
    if ((await app.call("POST", "shift/end")).status !== 200) continue;
    const me = (await app.ok("GET", "me")).driver as { balance: number };
    if (me.balance < 0) continue;
    out.push(app);
    if (out.length === count) break;
  }
  expect(out).toHaveLength(count);
  return out;
}

interface Ordered {
  uuid: string;
  url: string;
  token: string;
  phone: string;
}

/** An order sent straight to the driver (SENT_TO_DRIVER), with its tracking link from order information. */
async function orderFor(server: string, key: string, driver: DriverApp, house: string): Promise<Ordered> {
  const phone = uniquePhone();
  const created = await dispatchApi(server, key, "POST", "order", { phone, name: PASSENGER, street: "ул. Ленина", house, moderation_required: "no", need_notify: "no", driver_id: driver.callSign });
  expect(created.status, JSON.stringify(created.error)).toBe("DONE");
  const uuid = String(created.response.uuid);
  const info = await dispatchApi(server, key, "GET", "order", { uuid });
  const url = String(info.response.tracking_url);
  expect(url).toMatch(/^https?:\/\/[^/]+\/t\/[A-Za-z0-9_-]{22}$/);
  const token = url.slice(url.lastIndexOf("/") + 1);
  expect(token).not.toContain(uuid.replace(/-/g, "").slice(0, 8));
  return { uuid, url, token, phone };
}

async function state(server: string, token: string): Promise<View> {
  const r = await get(`${server}/t/${token}/state`);
  expect(r.status, r.text).toBe(200);
  return JSON.parse(r.text) as View;
}

/** The event stream's `state` events as they come. */
class Stream {
  private buffer = "";
  private readonly controller = new AbortController();
  private reader?: ReadableStreamDefaultReader<Uint8Array>;
  async open(url: string): Promise<void> {
    const res = await fetch(url, { signal: this.controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    this.reader = res.body!.getReader();
  }
  /** The next state event that satisfies `where`. */
  async next(where: (v: View) => boolean): Promise<View> {
    const decoder = new TextDecoder();
    for (;;) {
      let end = this.buffer.indexOf("\n\n");
      while (end !== -1) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const data = /^event: state\ndata: (.*)$/m.exec(block);
        if (data) {
          const view = JSON.parse(data[1]!) as View;
          if (where(view)) return view;
        }
        end = this.buffer.indexOf("\n\n");
      }
      const chunk = await this.reader!.read();
      if (chunk.done) throw new Error("the stream ended");
      this.buffer += decoder.decode(chunk.value, { stream: true });
    }
  }
  close(): void {
    this.controller.abort();
  }
}

/** Every spelling a phone may take in a page (digits as stored, with +7, with 8). */
function phoneSpellings(phone: string): string[] {
  const digits = phone.replace(/\D/g, "");
  const ten = digits.slice(-10);
  return [digits, ten, `+7${ten}`, `8${ten}`];
}

let drivers: DriverApp[] = [];

beforeAll(async () => {
  drivers = await freeDrivers(base(), apiKey(), 2);
}, 120_000);

describe("a trip watched through its link", () => {
  let order: Ordered;
  let driver: DriverApp;
  let driverPhone = "";

  beforeAll(async () => {
    driver = drivers[0]!;
    order = await orderFor(base(), apiKey(), driver, "10");
  });

  it("shows the order before a car has it: no driver, cancelling allowed, no call", async () => {
    const v = await state(base(), order.token);
    expect(v).toMatchObject({ phase: "searching", driver: null, can_cancel: true, can_call: false, fare: null });
    expect(v.pickup.address).toContain("Ленина");
    expect((await get(`${base()}/t/${order.token}/call`)).status).toBe(409);
  });

  it("follows the car live: positions move it on the stream and the arrival time falls", async () => {
    const pickup = (await state(base(), order.token)).pickup as { lat: number; lon: number };
    const far = { lat: pickup.lat + 0.02, lon: pickup.lon + 0.01 };
    await driver.ok("POST", "shift/start", { lat: far.lat, lon: far.lon });
    const stream = new Stream();
    await stream.open(`${base()}/t/${order.token}/events`);
    try {
      await stream.next((v) => v.phase === "searching");
      await driver.ok("POST", "orders/status", { uuid: order.uuid, status: "CONFIRMED" });
      const coming = await stream.next((v) => v.phase === "coming" && v.driver?.position !== null);
      expect(coming.driver?.first_name).toBeTruthy();
      expect(coming.driver?.car?.plate).toBeTruthy();
      expect(coming.can_call).toBe(true);
      expect(coming.arrival_seconds).toBeGreaterThan(0);
      const nearer = { lat: pickup.lat + 0.005, lon: pickup.lon + 0.002 };
      await driver.ok("POST", "position", { lat: nearer.lat, lon: nearer.lon, speed: 30, bearing: 200 });
      const moved = await stream.next((v) => v.driver?.position?.lat === nearer.lat);
      expect(moved.driver?.position?.lon).toBe(nearer.lon);
      expect(moved.arrival_seconds!).toBeLessThan(coming.arrival_seconds!);
    } finally {
      stream.close();
    }
  });

  it("calls the driver through a redirect to tel: while the car is on the order; the phone is in no page or reply", async () => {
    const info = await dispatchApi(base(), apiKey(), "GET", "order", { uuid: order.uuid });
    driverPhone = String(info.response.phone);
    expect(driverPhone).toMatch(/^\+\d{11}$/);
    const call = await get(`${base()}/t/${order.token}/call`);
    expect(call.status).toBe(302);
    expect(call.headers.get("location")).toBe(`tel:${driverPhone}`);
    const page = await get(`${base()}/t/${order.token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control") ?? "").not.toMatch(/public/);
    const data = await get(`${base()}/t/${order.token}/state`);
    for (const text of [page.text, data.text]) {
      for (const spelled of [...phoneSpellings(driverPhone), ...phoneSpellings(order.phone)]) expect(text).not.toContain(spelled);
      expect(text).not.toContain(PASSENGER);
      expect(text).not.toContain("Тестова");
      expect(text).not.toContain(order.uuid);
    }
    expect(page.text).toContain((await state(base(), order.token)).driver!.first_name);
  });

  it("refuses cancelling once the car has arrived and after boarding; the order is untouched", async () => {
    await driver.status(order.uuid, "AWAITING_CLIENT");
    const arrived = await postJson(`${base()}/t/${order.token}/cancel`, { reason: "передумал" });
    expect(arrived.status).toBe(409);
    expect(arrived.body.error?.code).toBe("NOT_ACCEPTABLE");
    await driver.status(order.uuid, "IN_PROCESS");
    const aboard = await postJson(`${base()}/t/${order.token}/cancel`, { reason: "передумал" });
    expect(aboard.status).toBe(409);
    expect((await state(base(), order.token)).phase).toBe("riding");
  });

  it("takes a rating only after the trip, 1 to 5, once", async () => {
    const early = await postJson(`${base()}/t/${order.token}/rating`, { stars: 5 });
    expect(early.status).toBe(409);
    await driver.ok("POST", "orders/complete", { uuid: order.uuid });
    const done = await state(base(), order.token);
    expect(done).toMatchObject({ phase: "done", can_call: false, can_cancel: false, rating: { can_rate: true, stars: null } });
    expect(done.fare?.amount).toMatch(/^\d+\.\d{2}$/);
    expect((await get(`${base()}/t/${order.token}/call`)).status).toBe(409);
    for (const bad of [{ stars: 0 }, { stars: 6 }, { stars: 2.5 }, { stars: "5" }, { stars: 4, comment: "x".repeat(501) }, { stars: 4, comment: 7 }]) {
      const r = await postJson(`${base()}/t/${order.token}/rating`, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await postJson(`${base()}/t/${order.token}/rating`, {})).body.error?.code).toBe("MISSING_PARAMETER");
    expect((await postJson(`${base()}/t/${order.token}/rating`, "{not json")).status).toBe(400);
    // A cross-site form cannot rate (or cancel): JSON only.
    expect((await postJson(`${base()}/t/${order.token}/rating`, "stars=5", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await postJson(`${base()}/t/${order.token}/rating`, { stars: 4, comment: "a\u0000b" })).status).toBe(400);
    const ok = await postJson(`${base()}/t/${order.token}/rating`, { stars: 4, comment: "  Спасибо!\u0007 " });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.rating).toEqual({ stars: 4, comment: "Спасибо!" });
    const again = await postJson(`${base()}/t/${order.token}/rating`, { stars: 1 });
    expect(again.status).toBe(409);
    expect((await state(base(), order.token)).rating).toEqual({ can_rate: false, stars: 4, comment: "Спасибо!" });
  });
});

describe("cancelling before the car arrives", () => {
  it("cancels through the one state machine with the passenger's reason; the link then shows it cancelled", async () => {
    const driver = drivers[1]!;
    const order = await orderFor(base(), apiKey(), driver, "12");
    const pickup = (await state(base(), order.token)).pickup as { lat: number; lon: number };
    await driver.ok("POST", "shift/start", { lat: pickup.lat + 0.01, lon: pickup.lon });
    await driver.ok("POST", "orders/status", { uuid: order.uuid, status: "CONFIRMED" });
    expect((await state(base(), order.token)).phase).toBe("coming");
    expect((await postJson(`${base()}/t/${order.token}/cancel`, { reason: "" })).body.error?.code).toBe("BAD_PARAMETER");
    const r = await postJson(`${base()}/t/${order.token}/cancel`, { reason: "Планы изменились" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ phase: "cancelled", can_cancel: false });
    expect((await dispatchApi(base(), apiKey(), "GET", "order/status", { uuid: order.uuid })).response.code).toBe(95);
    expect((await postJson(`${base()}/t/${order.token}/cancel`, { reason: "ещё раз" })).status).toBe(409);
    expect((await postJson(`${base()}/t/${order.token}/rating`, { stars: 5 })).status).toBe(409);
    await driver.ok("POST", "shift/end");
  });
});

describe("links that do not work: one reply for all", () => {
  const randomToken = () => randomBytes(16).toString("base64url");

  it("answers malformed and unknown tokens with the same 404, on the page and on every data path", async () => {
    const tokens = [randomToken(), randomToken(), "abc", "x".repeat(300), `${randomToken().slice(0, 21)}B`, "1", "00000000-0000-0000-0000-000000000001"];
    const replies = new Set<string>();
    for (const token of tokens) {
      for (const path of ["state", "events", "map", "call"]) {
        const r = await get(`${base()}/t/${token}/${path}`);
        expect(r.status, `${token}/${path}`).toBe(404);
        replies.add(r.text);
      }
      for (const path of ["cancel", "rating"]) {
        const r = await postJson(`${base()}/t/${token}/${path}`, { reason: "x", stars: 5 });
        expect(r.status).toBe(404);
        replies.add(JSON.stringify(r.body));
      }
      const page = await get(`${base()}/t/${token}`);
      expect(page.status, token).toBe(404);
    }
    expect([...replies], "one reply for every token").toHaveLength(1);
    // An order's uuid or number is no token.
    const order = await dispatchApi(base(), apiKey(), "POST", "order", { phone: uniquePhone(), street: "ул. Ленина", house: "3", moderation_required: "no", need_notify: "no" });
    const uuid = String(order.response.uuid);
    expect((await get(`${base()}/t/${uuid}/state`)).status).toBe(404);
    expect((await get(`${base()}/t/${uuid.replace(/-/g, "")}/state`)).status).toBe(404);
    expect((await get(`${base()}/t/${Buffer.from(uuid.replace(/-/g, ""), "hex").toString("base64url")}/state`)).status).toBe(404);
    await dispatchApi(base(), apiKey(), "POST", "cancel_order", { uuid, reason: "test" });
  });

  it("answers unknown paths and wrong methods below a link without telling whether the token works", async () => {
    const token = randomToken();
    expect((await get(`${base()}/t/${token}/nothing`)).status).toBe(404);
    expect((await get(`${base()}/t/${token}/state/more`)).status).toBe(404);
  });
});

describe("the link in the status callback", () => {
  let receiver: Server;
  const received: string[] = [];
  let admin: Session;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.push(req.url ?? "");
      res.end("ok");
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    admin = await signInApi(base(), inject("adminEmail"), inject("adminPassword"));
  });

  afterAll(() => receiver.close());

  it("fills %tracking_url% with the order's link, the one GET /api/order gives", async () => {
    const issued = await trpc<{ id: number; key: string }>(base(), admin, "admin.apiKeys.issue", { name: `tracking ${Date.now()}` }, "mutation");
    const key = issued.data!.key;
    const address = receiver.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const set = await dispatchApi(base(), key, "POST", "callback", { url: `http://127.0.0.1:${port}/bot?uuid=%uuid%&link=%tracking_url%` });
    expect(set.status, JSON.stringify(set.error)).toBe("DONE");
    const created = await dispatchApi(base(), key, "POST", "order", { phone: uniquePhone(), street: "ул. Ленина", house: "5", moderation_required: "no", need_notify: "no" });
    const uuid = String(created.response.uuid);
    const info = await dispatchApi(base(), key, "GET", "order", { uuid });
    const until = Date.now() + 30_000;
    let hit: string | undefined;
    while (!hit && Date.now() < until) {
      hit = received.find((r) => r.includes(uuid));
      if (!hit) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(hit, "the callback arrived").toBeDefined();
    const link = new URL(hit!, "http://receiver").searchParams.get("link");
    expect(link).toBe(info.response.tracking_url);
    await dispatchApi(base(), key, "POST", "cancel_order", { uuid, reason: "test" });
  });
});

// A server of short windows and real SMS through the HTTP provider: links
// that expire a few seconds after their order is final, a rating window of
// under a second, the passengers' SMS sent to an HTTP SMS API this test plays
// (a GET with the phone and the text, answering its message id as JSON) and
// its delivery receipts posted back the way such APIs document them (46elks'
// "whendelivered": a form POST with `id` and `status`; a secret in the URL).
describe("short windows, and the HTTP SMS provider's delivery receipts", () => {
  let database: TestDatabase;
  let server: StartedServer;
  let smsApi: Server;
  const sent: Array<{ to: string; text: string; id: string; ours: string }> = [];
  const template = inject("reliabilityTemplate");
  const SECRET = randomBytes(18).toString("base64url");
  const LINK_SECONDS = 15;

  beforeAll(async () => {
    smsApi = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://sms-api");
      const id = `sms-${sent.length + 1}`;
      sent.push({ to: url.searchParams.get("to") ?? "", text: url.searchParams.get("msg") ?? "", id, ours: url.searchParams.get("cid") ?? "" });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ status: "OK", sms_id: id }));
    });
    await new Promise<void>((resolve) => smsApi.listen(0, "127.0.0.1", resolve));
    const address = smsApi.address();
    const port = typeof address === "object" && address ? address.port : 0;
    database = await cloneTemplate(template);
    server = await startServer({
      db: TEST_DB,
      env: {
        ...database.env,
        TRACKING_LINK_HOURS: String(LINK_SECONDS / 3600),
        RATING_WINDOW_HOURS: String(0.5 / 3600),
        SMS_PROVIDER: "http",
        SMS_HTTP_URL: `http://127.0.0.1:${port}/send?to=%phone_digits%&msg=%text%&cid=%id%`,
        SMS_HTTP_KEY_HEADER: "X-Api-Key",
        SMS_HTTP_KEY: "test-key",
        SMS_HTTP_ID_FIELD: "sms_id",
        SMS_HTTP_RECEIPT_SECRET: SECRET,
        OUTGOING_ALLOW: "127.0.0.0/8",
        SMS_ARRIVING_MINUTES: "0",
      },
      seeded: { ...template, appSecret: APP_SECRET },
    });
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    smsApi?.close();
  });

  it("works while the order lives and a while after; then answers the same 404 as an unknown link", async () => {
    const [driver] = await freeDrivers(server.url, server.apiKey, 1);
    const order = await orderFor(server.url, server.apiKey, driver!, "14");
    expect((await get(`${server.url}/t/${order.token}/state`)).status).toBe(200);
    const unknown = await get(`${server.url}/t/${randomBytes(16).toString("base64url")}/state`);
    await dispatchApi(server.url, server.apiKey, "POST", "cancel_order", { uuid: order.uuid, reason: "test" });
    expect((await get(`${server.url}/t/${order.token}/state`)).status).toBe(200);
    const deadline = Date.now() + (LINK_SECONDS + 30) * 1000;
    let expired = await get(`${server.url}/t/${order.token}/state`);
    while (expired.status !== 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      expired = await get(`${server.url}/t/${order.token}/state`);
    }
    expect(expired.status).toBe(404);
    expect(expired.text).toBe(unknown.text);
    expect((await get(`${server.url}/t/${order.token}`)).status).toBe(404);
    // The API still names the link (it is the order's), which now answers 404.
    expect((await dispatchApi(server.url, server.apiKey, "GET", "order", { uuid: order.uuid })).response.tracking_url).toBe(order.url);
  }, 90_000);

  it("refuses a rating once its window is over, and the page says so in the passenger's language", async () => {
    const [driver] = await freeDrivers(server.url, server.apiKey, 1);
    const order = await orderFor(server.url, server.apiKey, driver!, "16");
    const pickup = (await state(server.url, order.token)).pickup as { lat: number; lon: number };
    await driver!.ok("POST", "shift/start", { lat: pickup.lat + 0.005, lon: pickup.lon });
    await driver!.ok("POST", "orders/status", { uuid: order.uuid, status: "CONFIRMED" });
    await driver!.finish(order.uuid);
    // The window (half a second) closes: the view stops offering the rating.
    const deadline = Date.now() + 10_000;
    let view = await state(server.url, order.token);
    while (view.rating.can_rate && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      view = await state(server.url, order.token);
    }
    expect(view).toMatchObject({ phase: "done", rating: { can_rate: false, stars: null } });
    const late = await postJson(`${server.url}/t/${order.token}/rating`, { stars: 5 });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "NOT_ACCEPTABLE", reason: "the time to rate this trip is over" });
    expect((await get(`${server.url}/t/${order.token}?lang=en`)).text).toContain("The time to rate this trip is over.");
    expect((await get(`${server.url}/t/${order.token}?lang=ru`)).text).toContain("Время для оценки этой поездки истекло.");
    expect((await state(server.url, order.token)).rating.stars).toBeNull();
  });

  it("sends the passenger's SMS through the HTTP API; its delivery receipts mark them delivered or failed", async () => {
    const admin = await signInApi(server.url, server.adminEmail, server.adminPassword);
    const [driver] = await freeDrivers(server.url, server.apiKey, 1);
    const phone = uniquePhone();
    const created = await dispatchApi(server.url, server.apiKey, "POST", "order", { phone, street: "ул. Ленина", house: "18", moderation_required: "no", driver_id: driver!.callSign });
    expect(created.status, JSON.stringify(created.error)).toBe("DONE");
    const uuid = String(created.response.uuid);
    const board = await trpc<{ items: Array<{ id: number; uuid: string }> }>(server.url, admin, "orders.board", { filter: { group: "all", q: phone.slice(-7) }, limit: 10 });
    const orderId = board.data!.items.find((r) => r.uuid === uuid)!.id;
    type Sms = { event: string; state: string; providerIds: string[]; error: string | null };
    const smsOf = async () => (await trpc<Sms[]>(server.url, admin, "sms.order", { orderId })).data ?? [];
    const until = async (what: string, check: (list: Sms[]) => boolean) => {
      const deadline = Date.now() + 30_000;
      let list = await smsOf();
      while (!check(list) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        list = await smsOf();
      }
      expect(check(list), `${what}: ${JSON.stringify(list)}`).toBe(true);
      return list;
    };
    await driver!.ok("POST", "shift/start", { lat: 55.75, lon: 37.6 });
    await driver!.ok("POST", "orders/status", { uuid, status: "CONFIRMED" });
    const assigned = (await until("the assigned SMS sent", (l) => l.some((m) => m.event === "ASSIGNED" && m.state === "SENT"))).find((m) => m.event === "ASSIGNED")!;
    const apiId = assigned.providerIds[0]!;
    expect(sent.find((m) => m.id === apiId)?.to).toBe(phone);
    const receipt = (path: string, body: string, type = "application/x-www-form-urlencoded") =>
      fetch(`${server.url}/sms/receipt/${path}`, { method: "POST", headers: { "content-type": type }, body });

    // Refused: a wrong secret, no id, a malformed body, a content type no provider sends, an unknown id.
    const wrong = await receipt(randomBytes(18).toString("base64url"), `id=${apiId}&status=delivered`);
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    const missing = await receipt(SECRET, "status=delivered");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: "MISSING_PARAMETER", parameter: "id" } });
    expect((await receipt(SECRET, "{not json", "application/json")).status).toBe(400);
    expect((await receipt(SECRET, `id=${apiId}&status=delivered`, "text/plain")).status).toBe(415);
    expect((await receipt(SECRET, `id=${apiId}&status=deli%0Avered`)).status).toBe(400);
    const unknown = await receipt(SECRET, "id=sms-999999&status=delivered");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    expect((await smsOf()).find((m) => m.event === "ASSIGNED")!.state).toBe("SENT");

    // An intermediate status changes nothing; "delivered" delivers it.
    const accepted = await fetch(`${server.url}/sms/receipt/${SECRET}?id=${apiId}&status=sent`);
    expect(await accepted.json()).toEqual({ ok: true, state: "UNCHANGED" });
    const ok = await receipt(SECRET, `id=${apiId}&status=delivered&delivered=2026-11-26T12:00:00Z`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, state: "DELIVERED" });
    expect((await smsOf()).find((m) => m.event === "ASSIGNED")!.state).toBe("DELIVERED");

    // The "car is here" SMS: a JSON receipt saying it failed, naming it by our own id (the %id% it was sent with).
    await driver!.status(uuid, "AWAITING_CLIENT");
    const waiting = (await until("the waiting SMS sent", (l) => l.some((m) => m.event === "WAITING" && m.state === "SENT"))).find((m) => m.event === "WAITING")!;
    const ours = sent.find((m) => m.id === waiting.providerIds[0])!.ours;
    expect(ours).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await receipt(SECRET, JSON.stringify({ id: ours, status: "failed" }), "application/json");
    expect(await failed.json()).toEqual({ ok: true, state: "FAILED" });
    expect((await smsOf()).find((m) => m.event === "WAITING")).toMatchObject({ state: "FAILED", error: "receipt: failed" });
    await driver!.status(uuid, "IN_PROCESS");
    await driver!.ok("POST", "orders/complete", { uuid });
  });
});
