// The exchange desk against a server of its own that trades on an exchange
// (EXCHANGE_URL): the exchange is a stand-in in this test
// (tests/support/exchange/fake-exchange.ts) that records our calls, and this
// test plays its notifications to /participant/on/... as the real one would.
// A dispatcher sells an order from the desk (the exchange's sellOrder), the
// exchange registers and accepts it, an offer arrives and a dispatcher gives
// it to a driver (takeOffer); a sale the exchange fails to answer shows its
// failed delivery attempts and an exchange operator sends it again by hand.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { signInApi, trpc, uniquePhone, type Session } from "./support/console-api";
import { startServer, type StartedServer } from "../tests/support/server";
import { FakeExchange } from "../tests/support/exchange/fake-exchange";
import { until } from "../tests/support/wait";

test.describe.configure({ mode: "serial" });

let server: StartedServer;
let fake: FakeExchange;
let admin: Session;
let dispatcher: Session;
/** order ids whose POST /order the stand-in answers 503 */
const failing = new Set<string>();
const PASSWORD = "desk-e2e-password-1";
const users = {
  DISPATCHER: { email: "desk-dispatcher@e2e.local", name: "Диспетчер биржи" },
  EXCHANGE_OPERATOR: { email: "desk-operator@e2e.local", name: "Оператор биржи" },
} as const;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fake = await new FakeExchange().start();
  fake.override = (path, data) =>
    path === "order" && failing.has(String(data.id)) ? { status: 503, body: { errors: [{ status: 503, code: "ServiceUnavailable", title: "Unavailable", detail: "try later" }] } } : undefined;
  server = await startServer({
    env: {
      LANGUAGE: "ru",
      EXCHANGE_URL: fake.url,
      EXCHANGE_CLIENT_KEY: "xk_exchange-desk-e2e-client-key",
      EXCHANGE_CHECK_SECONDS: "0",
      EXCHANGE_JOB_INTERVAL_MS: "500",
    },
  });
  admin = await signInApi(server.url, server.adminEmail, server.adminPassword);
  for (const [role, u] of Object.entries(users)) {
    const created = await trpc(server.url, admin, "admin.users.create", { email: u.email, name: u.name, password: PASSWORD, roles: [role] }, "mutation");
    if (created.error) throw new Error(created.error.message);
  }
  dispatcher = await signInApi(server.url, users.DISPATCHER.email, PASSWORD);
});

test.afterAll(async () => {
  await server?.stop();
  await fake?.stop();
});

async function signInHere(page: Page, who: keyof typeof users): Promise<void> {
  await page.goto(`${server.url}/signin`);
  await page.locator('input[name="email"]').fill(users[who].email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
}

async function freeOrder(): Promise<number> {
  const created = await trpc<{ id: number; state: string }>(server.url, dispatcher, "orders.create", { phone: uniquePhone(), pickup: { street: "пр-т Мира", house: "1" }, destination: { street: "Ж/д вокзал Казанский", house: "" } }, "mutation");
  if (created.error) throw new Error(created.error.message);
  expect(created.data!.state).toBe("FREE");
  return created.data!.id;
}

/** A notification from the exchange to our /participant/on/<topic>. */
async function notify(topic: string, data: Record<string, unknown>): Promise<void> {
  const deliveryId = randomUUID();
  const res = await fetch(`${server.url}/participant/on/${topic}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-delivery-id": deliveryId },
    body: JSON.stringify({ meta: { deliveryId }, data }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}


test("a dispatcher sells an order from the desk; the exchange registers and accepts it", async ({ page, shot }) => {
  const orderId = await freeOrder();
  await signInHere(page, "DISPATCHER");
  await page.goto(`${server.url}/exchange-desk`);
  await expect(page.getByTestId("exchange-desk")).toContainText(fake.url);

  await page.getByRole("button", { name: "Продать заказ" }).click();
  const dialog = page.getByRole("dialog");
  const row = dialog.locator(`tr[data-order-id="${orderId}"]`);
  await expect(row).toContainText("пр-т Мира");
  await shot("exchange-desk-sell-dialog");
  await row.getByRole("button", { name: "Продать" }).click();
  await expect(page.getByRole("status").filter({ hasText: `№${orderId}` })).toBeVisible();
  await expect(row).toHaveCount(0);
  await dialog.getByRole("button", { name: "Закрыть" }).last().click();

  // Our call reached the exchange (through the outbox), under the order's id.
  await until("POST /order", () => fake.ok("order", orderId).length > 0);
  const sold = page.getByTestId("links-sold").locator(`tr[data-order-id="${orderId}"]`);
  await expect(sold).toHaveAttribute("data-phase", "SELLING");

  // The exchange answers: registered under its id, then accepted (offered to executors).
  const exchangeId = String(70_000 + (orderId % 10_000));
  await notify("order/registered", { id: exchangeId, orderId: String(orderId) });
  await notify("order/accepted", { orderId: String(orderId), id: exchangeId });
  await expect(sold).toHaveAttribute("data-phase", "ACCEPTED", { timeout: 10_000 });
  await expect(sold).toContainText(exchangeId);
  await expect(sold).toContainText("Выставлен");

  // Taken by another participant's driver: the executor shows, the local order follows.
  await notify("order/taken", {
    id: exchangeId,
    orderId: "ext-1",
    attributes: { time: { arrival: 7 }, executor: { callSign: "S-11", phone: "79030000011", brand: "Kia", model: "Rio", color: "белый", registrationNumber: "А111АА77" } },
  });
  await expect(sold).toHaveAttribute("data-phase", "TAKEN", { timeout: 10_000 });
  await expect(sold).toContainText("S-11");
  await expect(sold).toContainText("А111АА77");
  await expect(sold.locator("[data-state]").first()).toHaveAttribute("data-state", "SENT_TO_DRIVER");
  await shot("exchange-desk-sold");

  // The notifications we received are listed.
  await page.getByRole("tab", { name: "Полученные" }).click();
  const received = page.getByTestId("received-table");
  await expect(received.locator('tr[data-path="/on/order/registered"]')).toContainText(exchangeId);
  await expect(received.locator('tr[data-path="/on/order/taken"]')).toBeVisible();
  await shot("exchange-desk-received");
});

test("an offer from the exchange is given to one of our drivers", async ({ page, shot }) => {
  const exchangeId = `${Date.now() % 1_000_000}`;
  await notify("order/received", {
    id: exchangeId,
    type: "order",
    attributes: {
      from: { street: "ул. Садовая", house: "3", porch: "1", latitude: 55.752, longitude: 37.622 },
      to: { street: "ул. Речная", house: "8", latitude: 55.77, longitude: 37.64 },
      time: { registered: new Date().toISOString() },
      carClass: 1,
      fare: 450,
      note: "с багажом",
      status: 9,
    },
  });
  await signInHere(page, "DISPATCHER");
  await page.goto(`${server.url}/exchange-desk`);
  await page.getByRole("tab", { name: "Предложения" }).click();
  const offer = page.getByTestId("links-bought").locator("tr", { hasText: exchangeId });
  await expect(offer).toHaveAttribute("data-phase", "OFFERED");
  await expect(offer).toContainText("ул. Садовая");
  await shot("exchange-desk-offers");

  await offer.getByRole("button", { name: "Взять" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('select[name="driverId"]').selectOption({ index: 1 });
  await dialog.locator('input[name="arrival"]').fill("6");
  await dialog.getByRole("button", { name: "Назначить водителя" }).click();
  await expect(dialog).toHaveCount(0);
  await until("POST /order/take", () => fake.ok("order/take", exchangeId).length > 0);
  await page.getByRole("tab", { name: "Покупка" }).click();
  const bought = page.getByTestId("links-bought").locator("tr", { hasText: exchangeId });
  await expect(bought).toHaveAttribute("data-phase", "TAKEN");
  // CONFIRMED, and CONFIRMED_CLIENT_NOTIFIED (10) once the passenger's SMS went
  await expect(bought.locator("[data-state]").first()).toHaveAttribute("data-state", /^CONFIRMED(_CLIENT_NOTIFIED)?$/);
  await shot("exchange-desk-bought");
});

test("a sale the exchange fails to answer shows its attempts; an exchange operator sends it again", async ({ page, shot }) => {
  const orderId = await freeOrder();
  failing.add(String(orderId));
  const sold = await trpc(server.url, dispatcher, "exchangeDesk.sell", { orderId }, "mutation");
  expect(sold.error).toBeUndefined();
  await until("refused attempts", () => fake.calls.filter((c) => c.path === "order" && String(c.data.id) === String(orderId) && c.status === 503).length >= 2);

  // An exchange operator sees the exchange, not the sell action; the failed call with its attempts.
  await signInHere(page, "EXCHANGE_OPERATOR");
  await expect(page).toHaveURL(/\/exchange-desk$/);
  await expect(page.getByRole("button", { name: "Продать заказ" })).toHaveCount(0);
  await page.getByRole("tab", { name: "Отправленные" }).click();
  const message = page.getByTestId("sent-table").locator(`tr[data-topic="order"][data-order-id="${orderId}"]`);
  await expect(message).toHaveAttribute("data-status", "PENDING");
  await expect(message).toContainText("HTTP 503");
  await message.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("attempts-table")).toContainText("HTTP 503");
  await expect(dialog.getByTestId("message-details")).toContainText(`"id": "${orderId}"`);
  await expect(dialog.getByTestId("message-details")).not.toContainText("tok-");
  await shot("exchange-desk-message");
  await dialog.getByRole("button", { name: "Закрыть" }).last().click();
  await shot("exchange-desk-sent");

  // The exchange is back: sent again by hand, delivered at once.
  failing.delete(String(orderId));
  await message.getByRole("button", { name: "Повторить" }).click();
  await expect(page.getByRole("status").filter({ hasText: "отправлено снова" })).toBeVisible();
  await until("the retried POST /order", () => fake.ok("order", orderId).length > 0, 10_000);
  await expect(message).toHaveAttribute("data-status", "DELIVERED", { timeout: 10_000 });

  // Operators may not sell; the audit log has the retry.
  const operator = await signInApi(server.url, users.EXCHANGE_OPERATOR.email, PASSWORD);
  expect((await trpc(server.url, operator, "exchangeDesk.sell", { orderId }, "mutation")).status).toBe(403);
  const audit = await trpc<{ items: Array<{ action: string }> }>(server.url, admin, "admin.audit", { action: "exchangeDesk.", limit: 20 });
  expect(audit.data!.items.map((r) => r.action)).toEqual(expect.arrayContaining(["exchangeDesk.sell", "exchangeDesk.retry", "exchangeDesk.take"]));

  await page.getByRole("tab", { name: "Баланс" }).click();
  await expect(page.getByTestId("exchange-desk")).toContainText("Счёт ведёт биржа");
  await page.context().addCookies([{ name: "locale", value: "en", url: server.url }]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Order exchange" })).toBeVisible();
  await page.getByRole("tab", { name: "Sold" }).click();
  await expect(page.getByTestId("links-sold")).toContainText("Taken");
  await shot("exchange-desk-en");
});
