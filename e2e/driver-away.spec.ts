// The driver's app when dispatch sets the driver away (docs/dispatch.md,
// "Silent drivers are not candidates"): on a phone, a driver lets
// DISPATCH_AWAY_AFTER_TIMEOUTS (3) offers in a row time out; the app then shows
// the notice (what happened, since when, how to come back) and the driver
// comes back by acting — the notice's big button starts the shift again —
// after which the server offers orders to the driver again. Photographed in
// Russian and English.
import { createHmac } from "node:crypto";
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { env, userOf } from "./support/env";
import { signInApi, trpc, uniquePhone, type Session } from "./support/console-api";
import { driverApi, phoneAt } from "./support/driver-phone";
import { painted } from "./support/motion";

/** docs/driver-app.md: the provisioning key derived from the server's APP_SECRET. */
const provisioningKey = () => `dp_${createHmac("sha256", env().appSecret).update("taxi-dispatch/driver-app/provisioning/v1").digest("base64url")}`;

interface Me {
  driver: { dispatch?: { away: boolean; away_since: string | null; offered: boolean } };
}

async function snap(page: Page, name: string): Promise<void> {
  await painted(page);
  await page.screenshot({ path: path.join(test.info().project.outputDir, "screenshots", `${name}.png`), scale: "css" });
}

async function attemptsOf(dispatcher: Session, orderId: number): Promise<Array<{ callSign: string; state: string }>> {
  return (await trpc<{ attempts: Array<{ callSign: string; state: string }> }>(env().baseUrl, dispatcher, "dispatch.order", { orderId })).data?.attempts ?? [];
}

test("the driver's app: set away after offers let time out, the notice in both languages, back by pressing the button", async ({ browser }) => {
  test.setTimeout(300_000);
  const { baseUrl } = env();
  const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);

  // An order kept from automatic dispatch (paused): only the dispatcher's offers reach the driver.
  const created = await trpc<{ id: number }>(baseUrl, dispatcher, "orders.create", { phone: uniquePhone(), clientName: "Ирина", pickup: { street: "пр-т Мира", house: "3" }, destination: { street: "Ж/д вокзал Казанский", house: "" } }, "mutation");
  expect(created.error, JSON.stringify(created.error)).toBeUndefined();
  const orderId = created.data!.id;
  expect((await trpc(baseUrl, dispatcher, "dispatch.pause", { orderId, paused: true }, "mutation")).error).toBeUndefined();
  const serviceId = (await trpc<{ service: { id: number } }>(baseUrl, dispatcher, "orders.get", { id: orderId })).data!.service.id;

  // A free demo driver of the service, not the one driver-app.spec.ts takes (the last of the list).
  const list = await trpc<{ items: Array<{ id: number; callSign: string; active: boolean; positionAt: string | null }> }>(baseUrl, dispatcher, "drivers.list", { state: "FREE", serviceId, limit: 100 });
  const free = (list.data?.items ?? []).filter((d) => d.active && d.positionAt && /^\d+$/.test(d.callSign));
  const driver = free.at(-3)!;
  expect(driver, "a free demo driver").toBeTruthy();
  const issued = await fetch(`${baseUrl}/driver-app/v1/keys`, { method: "POST", headers: { authorization: `Bearer ${provisioningKey()}`, "content-type": "application/json" }, body: JSON.stringify({ call_sign: driver.callSign }) });
  expect(issued.status).toBe(200);
  const key = String(((await issued.json()) as { app_key: string }).app_key);

  // The phone, standing still where the car is (a pocket: the same spot reported, which does not bring an away driver back).
  const at = (await driverApi<{ driver: { position: { lat: number; lon: number } } }>(key, "GET", "me")).body.driver.position;
  const phone = await phoneAt(browser, at);
  const app = await phone.newPage();
  await app.goto(`/driver/activate#key=${encodeURIComponent(key)}`);
  await app.waitForURL((url) => url.pathname === "/driver");
  await expect(app.getByTestId("driver-callsign")).toHaveText(driver.callSign);
  if (await app.getByTestId("shift-start").isVisible()) await app.getByTestId("shift-start").click();
  await expect(app.getByTestId("driver-state")).toHaveText("Свободен");
  await expect(app.getByTestId("shift-away")).toHaveCount(0);

  // Three offers in a row, each left to time out on the phone.
  const sheet = app.getByTestId("driver-offer");
  for (let n = 1; n <= 3; n += 1) {
    await expect.poll(async () => (await trpc(baseUrl, dispatcher, "dispatch.send", { orderId, driverId: driver.id }, "mutation")).error === undefined, { timeout: 30_000 }).toBe(true);
    await expect(sheet).toBeVisible();
    await expect(sheet).toBeHidden({ timeout: 60_000 });
    await expect.poll(async () => (await attemptsOf(dispatcher, orderId)).filter((a) => a.callSign === driver.callSign && a.state === "TIMED_OUT").length, { timeout: 30_000 }).toBe(n);
  }

  // Set away: the server says so, and the app shows the notice with the button.
  await expect.poll(async () => (await driverApi<Me>(key, "GET", "me")).body.driver.dispatch?.away, { timeout: 30_000 }).toBe(true);
  const notice = app.getByTestId("shift-away");
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText("Вы «отошли»: заказы не предлагаются");
  await expect(notice).toContainText("пропустили несколько предложений подряд");
  const back = notice.getByTestId("shift-away-back");
  await expect(back).toHaveText("Я на месте");
  // A thumb finds it: the full width of the card and tall.
  const box = (await back.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(48);
  await snap(app, "driver-away-ru");
  await app.getByRole("button", { name: "Switch to English" }).first().click();
  await expect(notice).toContainText("You are set away: no orders are offered");
  await expect(back).toHaveText("I'm back");
  await snap(app, "driver-away-en");
  await app.getByRole("button", { name: "Переключить на русский" }).first().click();
  await expect(back).toHaveText("Я на месте");

  // Back by acting: the button starts the shift again; the notice goes, and dispatch offers again.
  await back.tap();
  await expect(notice).toBeHidden();
  await expect(app.getByTestId("driver-state")).toHaveText("Свободен");
  await expect.poll(async () => (await driverApi<Me>(key, "GET", "me")).body.driver.dispatch?.away).toBe(false);
  await snap(app, "driver-away-back-ru");
  await expect.poll(async () => (await trpc(baseUrl, dispatcher, "dispatch.send", { orderId, driverId: driver.id }, "mutation")).error === undefined, { timeout: 30_000 }).toBe(true);
  await expect(sheet).toBeVisible();

  // Tidy: the offer refused, the order cancelled by the dispatcher.
  await sheet.getByRole("button", { name: "Отказаться" }).tap();
  await sheet.getByRole("button", { name: "Далеко" }).tap();
  await expect(sheet).toBeHidden();
  const current = await trpc<{ version: number }>(baseUrl, dispatcher, "orders.get", { id: orderId });
  await trpc(baseUrl, dispatcher, "orders.move", { orderId, to: "DONE_CANCELLED", expectedVersion: current.data!.version, reason: "e2e" }, "mutation");
  await phone.close();
});
