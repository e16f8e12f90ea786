// The passenger's tracking link on a phone (docs/tracking.md): the link from
// order information opens the page, the car moves as the driver's positions
// arrive (posted through the driver app interface, as docs/driver-app.md
// describes it) and the arrival time falls, cancelling before the car
// arrives (refused after boarding), the fare and the rating after the trip,
// and an expired link. Screenshots in Russian and English.
import { createHmac } from "node:crypto";
import { test, expect } from "./support/fixtures";
import { env } from "./support/env";
import { uniquePhone } from "./support/console-api";
import { startServer, type StartedServer } from "../tests/support/server";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

/** docs/driver-app.md: "dp_" + base64url(HMAC-SHA256(APP_SECRET, "taxi-dispatch/driver-app/provisioning/v1")), with the
 * global setup's server's secret (not process.env.APP_SECRET, which another spec in this worker may have set for its own server). */
const provisioningKey = () => `dp_${createHmac("sha256", env().appSecret).update("taxi-dispatch/driver-app/provisioning/v1").digest("base64url")}`;

/** A request sent again after the per-address rate limit's Retry-After, as a polite client does (the suite's other
 * specs share this address, and looking for free drivers makes many calls in a row). */
async function politely(send: () => Promise<Response>): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (res.status !== 429 || attempt >= 15) return res;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get("retry-after") ?? "1")));
  }
}

class Driver {
  constructor(
    readonly base: string,
    readonly callSign: string,
    readonly key: string,
  ) {}

  async call(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await politely(() =>
      fetch(`${this.base}/driver-app/v1/${path}`, {
        method,
        headers: { authorization: `Bearer ${this.key}`, ...(method === "POST" ? { "content-type": "application/json" } : {}) },
        body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
      }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async ok(method: "GET" | "POST", path: string, body?: unknown): Promise<Record<string, unknown>> {
    const r = await this.call(method, path, body);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  }
}

async function api(base: string, apiKey: string, method: "GET" | "POST", path: string, params: Record<string, string>) {
  const form = new URLSearchParams({ api_key: apiKey, ...params });
  const res = await fetch(method === "GET" ? `${base}/api/${path}?${form}` : `${base}/api/${path}`, {
    method,
    headers: method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {},
    body: method === "POST" ? form.toString() : undefined,
  });
  const reply = (await res.json()) as { status: string; response: Record<string, unknown>; error?: unknown };
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return reply.response;
}

/** Drivers holding no order (their shift ends), from the end of the city's list. */
async function freeDrivers(base: string, apiKey: string, count: number): Promise<Driver[]> {
  const listed = (await api(base, apiKey, "GET", "drivers", { city_id: "1" })).drivers as Array<{ code: string }>;
  const out: Driver[] = [];
  // Why each driver passed over was not taken: the failure says so, should none be found.
  const passedOver: string[] = [];
  for (const { code } of listed.reverse()) {
    const issued = await politely(() => fetch(`${base}/driver-app/v1/keys`, { method: "POST", headers: { authorization: `Bearer ${provisioningKey()}`, "content-type": "application/json" }, body: JSON.stringify({ call_sign: code }) }));
    if (issued.status !== 200) {
      passedOver.push(`${code}: key HTTP ${issued.status} ${await issued.text()}`);
      continue;
    }
    const driver = new Driver(base, code, String(((await issued.json()) as { app_key: string }).app_key));
    const ended = await driver.call("POST", "shift/end");
    if (ended.status !== 200) {
      passedOver.push(`${code}: shift/end HTTP ${ended.status} ${JSON.stringify(ended.body)}`);
      continue;
    }
    const balance = ((await driver.ok("GET", "me")).driver as { balance: number }).balance;
    if (balance < 0) {
      passedOver.push(`${code}: balance ${balance}`);
      continue;
    }
    out.push(driver);
    if (out.length === count) break;
  }
  expect(out, `${listed.length} drivers listed; passed over: ${passedOver.slice(0, 12).join("; ")}`).toHaveLength(count);
  return out;
}

/** An order sent to the driver, accepted by them from `north` degrees north of the pickup; its link's path. */
async function acceptedOrder(base: string, apiKey: string, driver: Driver, house: string, north: number) {
  const created = await api(base, apiKey, "POST", "order", { phone: uniquePhone(), name: "Пассажир Тестовый", street: "ул. Ленина", house, moderation_required: "no", need_notify: "no", driver_id: driver.callSign });
  const uuid = String(created.uuid);
  const link = String((await api(base, apiKey, "GET", "order", { uuid })).tracking_url);
  const path = new URL(link).pathname;
  const state = (await (await fetch(`${base}${path}/state`)).json()) as { pickup: { lat: number; lon: number } };
  const pickup = state.pickup;
  await driver.ok("POST", "shift/start", { lat: pickup.lat + north, lon: pickup.lon + north / 2 });
  await driver.ok("POST", "orders/status", { uuid, status: "CONFIRMED" });
  return { uuid, path, pickup };
}

let drivers: Driver[] = [];

test.beforeAll(async () => {
  const e = env();
  drivers = await freeDrivers(e.baseUrl, e.apiKey, 2);
});

test("the link shows the car coming; it moves with the driver's positions and the arrival time falls", async ({ page, shot }) => {
  const e = env();
  const driver = drivers[0]!;
  const order = await acceptedOrder(e.baseUrl, e.apiKey, driver, "10", 0.02);
  await page.goto(order.path);
  await expect(page.getByTestId("phase")).toHaveText("Машина едет к вам");
  const car = page.getByTestId("car-marker");
  await expect(car).toBeVisible();
  const arrival = page.getByTestId("arrival");
  await expect(arrival).toHaveAttribute("data-seconds", /^\d+$/);
  const before = Number(await arrival.getAttribute("data-seconds"));
  await expect(page.getByTestId("plate")).not.toBeEmpty();
  await expect(page.getByTestId("call")).toHaveAttribute("href", `${order.path}/call`);
  // The car drives nearer: two positions, each seen on the map.
  for (const [k, north] of [0.012, 0.004].entries()) {
    const at = { lat: order.pickup.lat + north, lon: order.pickup.lon + north / 2 };
    await driver.ok("POST", "position", { lat: at.lat, lon: at.lon, speed: 35, bearing: 200 });
    await expect(car, `position ${k + 1}`).toHaveAttribute("data-lat", at.lat.toFixed(6));
    await expect(car).toHaveAttribute("data-lon", at.lon.toFixed(6));
  }
  await expect.poll(async () => Number(await arrival.getAttribute("data-seconds"))).toBeLessThan(before);
  await shot("tracking-coming-ru");
  await page.goto(`${order.path}?lang=en`);
  await expect(page.getByTestId("phase")).toHaveText("Your car is on its way");
  await expect(page.getByTestId("arrival")).toContainText("Arrives in");
  await shot("tracking-coming-en");

  // The car arrives, the passenger boards: no more cancelling, on the page or behind it.
  await driver.ok("POST", "orders/status", { uuid: order.uuid, status: "AWAITING_CLIENT" });
  await expect(page.getByTestId("phase")).toHaveText("Your car is waiting");
  await expect(page.getByTestId("cancel")).toHaveCount(0);
  await driver.ok("POST", "orders/status", { uuid: order.uuid, status: "IN_PROCESS" });
  await expect(page.getByTestId("phase")).toHaveText("On the way");
  const refused = await page.request.post(`${order.path}/cancel`, { data: { reason: "late" } });
  expect(refused.status()).toBe(409);

  // After the trip: the fare and the rating, once.
  await driver.ok("POST", "orders/complete", { uuid: order.uuid });
  await page.goto(order.path);
  await expect(page.getByTestId("phase")).toHaveText("Поездка завершена");
  await expect(page.getByTestId("fare")).toContainText("₽");
  await expect(page.getByTestId("call")).toHaveCount(0);
  await page.getByLabel("4 из 5").check();
  await page.getByLabel("Комментарий (необязательно)").fill("Вежливый водитель");
  await shot("tracking-rate-ru");
  await page.getByRole("button", { name: "Отправить оценку" }).click();
  await expect(page.getByTestId("rating-done")).toContainText("Спасибо за оценку!");
  await page.goto(`${order.path}?lang=en`);
  await expect(page.getByTestId("rating-done")).toContainText("Thank you for your rating!");
  await shot("tracking-done-en");
  expect((await page.request.post(`${order.path}/rating`, { data: { stars: 1 } })).status()).toBe(409);
  await driver.ok("POST", "shift/end");
});

test("cancelling before the car arrives, with a reason", async ({ page, shot }) => {
  const e = env();
  const driver = drivers[1]!;
  const order = await acceptedOrder(e.baseUrl, e.apiKey, driver, "12", 0.01);
  await page.goto(`${order.path}?lang=en`);
  await expect(page.getByTestId("phase")).toHaveText("Your car is on its way");
  await page.getByTestId("cancel").click();
  await page.getByLabel("The wait is too long").check();
  await shot("tracking-cancel-en");
  await page.getByRole("button", { name: "Cancel the order" }).click();
  await expect(page.getByTestId("phase")).toHaveText("Order cancelled");
  await expect(page.getByTestId("cancel")).toHaveCount(0);
  const status = await api(e.baseUrl, e.apiKey, "GET", "order/status", { uuid: order.uuid });
  expect(status.code).toBe(95);
  await page.goto(order.path);
  await expect(page.getByTestId("phase")).toHaveText("Заказ отменён");
  await shot("tracking-cancelled-ru");
  await driver.ok("POST", "shift/end");
});

test.describe("an expired link", () => {
  let server: StartedServer;
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    // TRACKING_LINK_HOURS=0: a link stops working as soon as its order is final.
    // The global setup's secret, from which this spec derives the provisioning key, whatever process.env holds.
    server = await startServer({ env: { LANGUAGE: "ru", TRACKING_LINK_HOURS: "0", APP_SECRET: env().appSecret } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("answers not found once the order is final, like any unknown link", async ({ page, shot }) => {
    const [driver] = await freeDrivers(server.url, server.apiKey, 1);
    const order = await acceptedOrder(server.url, server.apiKey, driver!, "14", 0.01);
    await page.goto(`${server.url}${order.path}`);
    await expect(page.getByTestId("phase")).toHaveText("Машина едет к вам");
    await api(server.url, server.apiKey, "POST", "cancel_order", { uuid: order.uuid, reason: "test" });
    // The open page learns it from its stream and shows what everyone now gets.
    await expect(page.getByRole("heading", { name: "Ссылка не найдена" })).toBeVisible();
    const reply = await page.request.get(`${server.url}${order.path}`);
    expect(reply.status()).toBe(404);
    await shot("tracking-expired");
  });
});
