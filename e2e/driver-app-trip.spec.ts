// The driver's app on an iPhone-sized screen (390×844, touch): a METERED trip
// run from the phone — an offer accepted, the arrival, waiting past the rate's
// free minutes, the ride with the phone's positions (a stretch of it without
// connection, replayed on return), the completion — whose fare equals the
// rate's formula (docs/driver-app.md, "The taximeter") worked out here from
// the rate's numbers as the console publishes them, the distance the test
// drove and the moments the order's history recorded; messages both ways
// through the app's screens; a move replayed after the dispatcher took the
// order back, refused once and dropped; no serious accessibility violation on
// any screen. Every screen is photographed in both languages (into docs/ with
// DOCS_SCREENSHOTS=1: docs/driver-app.md shows them).
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect } from "./support/fixtures";
import { env, userOf } from "./support/env";
import { signInApi, trpc, uniquePhone, type Session } from "./support/console-api";
import { painted } from "./support/motion";
import { driverApi, metres, phoneAt, seriousViolations } from "./support/driver-phone";
import type { RateRow } from "./support/rate-row";


// The metered rate the test publishes for the order's service (kopecks; minutes): 60 ₽ boarding, 30 ₽ a km after
// the first 0, 10 ₽ a minute of the trip, one free minute of waiting then 12 ₽ a minute, at least 70 ₽, rounded up to
// the rouble.
const METERED = { pickUp: 6000, kmCost: 3000, kmStart: 0, minuteCost: 1000, freeWaitTime: 1, waitCost: 1200, minFare: 7000, roundTo: 100 };

/** The fare of docs/driver-app.md's table, in kopecks, from the rate's published numbers. */
function formula(rate: Pick<RateRow, "pickUp" | "kmCost" | "kmStart" | "minuteCost" | "freeWaitTime" | "waitCost" | "minFare" | "roundTo">, m: { metres: number; tripSeconds: number; waitingSeconds: number }): number {
  const boarding = rate.pickUp;
  const distance = Math.round(Math.max(0, m.metres / 1000 - rate.kmStart) * rate.kmCost);
  const time = Math.round((m.tripSeconds / 60) * rate.minuteCost);
  const waiting = Math.round(Math.max(0, m.waitingSeconds / 60 - rate.freeWaitTime) * rate.waitCost);
  const metered = boarding + distance + time + waiting;
  const sum = Math.max(metered, rate.minFare);
  return Math.ceil(sum / rate.roundTo) * rate.roundTo;
}

const SHOTS = process.env.DOCS_SCREENSHOTS === "1" ? path.resolve("docs/driver-app") : null;

async function snap(page: Page, name: string): Promise<void> {
  await painted(page);
  const dir = SHOTS ?? path.join(test.info().project.outputDir, "screenshots");
  // The whole screen from its top (a tap scrolls it; the fixed tabs stay at the bottom).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `${name}.png`), scale: "css", fullPage: true });
}

/** The screen as it stands: no serious accessibility violation, photographed in Russian, then in English, then back. */
async function check(page: Page, name: string, found: string[]): Promise<void> {
  for (const v of await seriousViolations(page)) found.push(`${name} (ru): ${v}`);
  await snap(page, `phone-${name}-ru`);
  // A dispatched click: an offer's sheet covers the header's switch (as it should).
  await page.getByRole("button", { name: "Switch to English" }).first().dispatchEvent("click");
  await expect(page.locator(".drv-root")).toHaveAttribute("lang", "en");
  for (const v of await seriousViolations(page)) found.push(`${name} (en): ${v}`);
  await snap(page, `phone-${name}-en`);
  await page.getByRole("button", { name: "Переключить на русский" }).first().dispatchEvent("click");
  await expect(page.locator(".drv-root")).toHaveAttribute("lang", "ru");
}

async function createOrder(dispatcher: Session): Promise<number> {
  const created = await trpc<{ id: number }>(env().baseUrl, dispatcher, "orders.create", { phone: uniquePhone(), clientName: "Ирина", pickup: { street: "пр-т Мира", house: "1" }, destination: { street: "Ж/д вокзал Казанский", house: "" } }, "mutation");
  expect(created.error, JSON.stringify(created.error)).toBeUndefined();
  return created.data!.id;
}

async function offerTo(dispatcher: Session, orderId: number, driverId: number): Promise<void> {
  const sent = await trpc(env().baseUrl, dispatcher, "dispatch.send", { orderId, driverId }, "mutation");
  expect(sent.error, JSON.stringify(sent.error)).toBeUndefined();
}

function rateInput(r: RateRow) {
  const { id, serviceId, queueId, name, isBasic, kind, pickUp, minFare, kmCost, kmStart, minuteCost, standCost, freeStandTime, waitCost, freeWaitTime, roundTo, startHour, endHour } = r;
  return { id, serviceId, queueId, name, isBasic, kind, pickUp, minFare, kmCost, kmStart, minuteCost, standCost, freeStandTime, waitCost, freeWaitTime, roundTo, startHour, endHour };
}

test("a metered trip on a phone: the fare is the rate's formula, offline stretch included; messages both ways; a move the dispatcher overtook is dropped; accessible screens", async ({ browser }) => {
  test.setTimeout(360_000);
  const { baseUrl, adminEmail, adminPassword } = env();
  const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
  const admin = await signInApi(baseUrl, adminEmail, adminPassword);
  const violations: string[] = [];

  // The order, and its service's rates made METERED for this test (put back at the end).
  const orderId = await createOrder(dispatcher);
  const serviceId = (await trpc<{ service: { id: number } }>(baseUrl, dispatcher, "orders.get", { id: orderId })).data!.service.id;
  const original = (await trpc<RateRow[]>(baseUrl, admin, "referenceAdmin.rates", { serviceId })).data!;
  expect(original.length).toBeGreaterThan(0);
  const phone = await (async () => {
    for (const r of original) {
      const saved = await trpc(baseUrl, admin, "referenceAdmin.saveRate", { ...rateInput(r), ...METERED, kind: "METERED" }, "mutation");
      expect(saved.error, JSON.stringify(saved.error)).toBeUndefined();
    }
    // A free demo driver of the service (not the last of the list: driver-app.spec.ts takes that one).
    const list = await trpc<{ items: Array<{ id: number; callSign: string; active: boolean; positionAt: string | null }> }>(baseUrl, dispatcher, "drivers.list", { state: "FREE", serviceId, limit: 100 });
    const free = (list.data?.items ?? []).filter((d) => d.active && d.positionAt && /^\d+$/.test(d.callSign));
    const driver = free.at(-2)!;
    expect(driver, "a free demo driver").toBeTruthy();
    const issued = await trpc<{ key: string }>(baseUrl, admin, "referenceAdmin.issueDriverKey", { driverId: driver.id }, "mutation");
    expect(issued.error).toBeUndefined();
    return { driver, key: issued.data!.key };
  })();
  const { driver, key } = phone;

  try {
    // The rate as the console publishes it: the numbers the fare is worked out from below.
    const published = (await trpc<RateRow[]>(baseUrl, admin, "referenceAdmin.rates", { serviceId })).data!;
    const rate = published.find((r) => r.id === original[0]!.id)!;
    expect(rate).toMatchObject({ kind: "METERED", ...METERED });

    const map = await driverApi<{ streets: Array<{ name: string; houses: Array<[string, number, number]> }> }>(key, "GET", "map");
    const [, pickupLat, pickupLon] = map.body.streets.find((s) => s.name === "пр-т Мира")!.houses.find((h) => h[0] === "1")!;
    const context = await phoneAt(browser, { lat: pickupLat + 0.0054, lon: pickupLon });
    const app = await context.newPage();
    const serverPosition = async () => (await driverApi<{ driver: { position: { lat: number; lon: number } } }>(key, "GET", "me")).body.driver.position;
    // The car drives: a new fix at least 5 s after the last (100 m in 5 s is 72 km/h). The phone stamps a fix with
    // the moment it is taken, so steps made faster would be jumps no car makes, which the meter rightly drops.
    let lastMove = 0;
    const moveTo = async (p: { lat: number; lon: number }) => {
      await new Promise((r) => setTimeout(r, Math.max(0, lastMove + 5_000 - Date.now())));
      lastMove = Date.now();
      await context.setGeolocation({ latitude: p.lat, longitude: p.lon, accuracy: 8 });
    };
    /** Moves the phone and waits until the app has reported the position (at its pace: 4 s while moving). */
    const driveTo = async (p: { lat: number; lon: number }) => {
      await moveTo(p);
      await expect.poll(async () => metres(await serverPosition(), p), { timeout: 20_000 }).toBeLessThan(0.5);
    };

    // The activation page before a key, then activation from the link.
    await app.goto("/driver/activate");
    await expect(app.locator(".drv-root")).toBeVisible();
    await check(app, "activate", violations);
    await app.goto(`/driver/activate#key=${encodeURIComponent(key)}`);
    await app.waitForURL((url) => url.pathname === "/driver");
    await expect(app.getByTestId("driver-callsign")).toHaveText(driver.callSign);

    // The shift: the services by their names, not their numbers.
    if (await app.getByTestId("shift-end").isVisible()) {
      await app.getByTestId("shift-end").tap();
      await expect(app.getByTestId("shift-start")).toBeVisible();
    }
    const services = (await driverApi<{ driver: { services: Array<{ id: number; name: string; name_en: string }> } }>(key, "GET", "me")).body.driver.services;
    expect(services.length).toBeGreaterThan(0);
    await expect(app.getByTestId("shift-services")).toHaveText(services.map((s) => s.name).join(", "));
    await check(app, "shift-off", violations);
    await app.getByTestId("shift-start").tap();
    await expect(app.getByTestId("driver-state")).toHaveText("Свободен");
    await expect.poll(async () => (await serverPosition()).lat).toBeCloseTo(pickupLat + 0.0054, 5);
    await check(app, "shift-on", violations);

    // The offer, accepted.
    await offerTo(dispatcher, orderId, driver.id);
    const sheet = app.getByTestId("driver-offer");
    await expect(sheet).toBeVisible();
    await expect(sheet.getByTestId("offer-pickup")).toContainText("пр-т Мира, 1");
    await check(app, "offer", violations);
    await sheet.getByRole("button", { name: "Принять" }).tap();
    await expect(sheet).toBeHidden();
    const trip = app.getByTestId("trip");
    await expect(trip).toHaveAttribute("data-order-state", /^CONFIRMED/);
    await expect(app.getByTestId("trip-map")).not.toHaveAttribute("data-route-points", "0");
    await check(app, "trip-to-pickup", violations);

    // To the pickup, then waiting there past the free minute.
    for (const f of [0.66, 0.33, 0]) await driveTo({ lat: pickupLat + 0.0054 * f, lon: pickupLon });
    await trip.getByTestId("move-AWAITING_CLIENT").tap();
    await expect(trip).toHaveAttribute("data-order-state", /^AWAITING_CLIENT/);
    await expect(app.getByTestId("trip-meter")).toBeVisible();
    const waited = async () => (await driverApi<{ orders: Array<{ id: number; meter: { waiting_seconds: number } | null }> }>(key, "GET", "orders")).body.orders.find((o) => o.id === orderId)?.meter?.waiting_seconds ?? 0;
    await expect.poll(waited, { timeout: 120_000, intervals: [5_000] }).toBeGreaterThanOrEqual(METERED.freeWaitTime * 60 + 15);
    // The app's own reading (refreshed every 15 s) shows the waiting charged.
    await expect(app.getByTestId("trip-meter").locator(".drv-breakdown")).toContainText("Ожидание", { timeout: 20_000 });
    await check(app, "trip-waiting", violations);

    // Aboard. A step off the pickup first, reported before the move, so that the track starts with the ride's first step.
    const south = (m: number) => ({ lat: pickupLat - m / 111_195.08, lon: pickupLon });
    await driveTo(south(20));
    await trip.getByTestId("move-IN_PROCESS").tap();
    await expect(trip).toHaveAttribute("data-order-state", "IN_PROCESS");
    const ride: Array<{ lat: number; lon: number }> = [];
    const reported: string[] = [];
    app.on("request", (r) => {
      if (/\/driver-app\/v1\/positions?$/.test(r.url())) reported.push(`${new Date().toISOString()} ${r.postData() ?? ""}`);
    });
    for (const m of [120, 220, 320]) {
      ride.push(south(m));
      await driveTo(south(m));
    }
    // The connection drops for three steps: the app queues them with their times.
    await context.setOffline(true);
    await expect(app.getByTestId("driver-net")).toHaveText("Нет связи");
    for (const [i, m] of [420, 520, 620].entries()) {
      ride.push(south(m));
      await moveTo(south(m));
      await expect(app.getByTestId("driver-pending")).toHaveText(`В очереди на отправку: ${i + 1}`, { timeout: 20_000 });
    }
    await check(app, "trip-offline", violations);
    expect(metres(await serverPosition(), south(320))).toBeLessThan(0.5);
    await context.setOffline(false);
    await expect(app.getByTestId("driver-pending")).toBeHidden({ timeout: 30_000 });
    for (const m of [720, 820]) {
      ride.push(south(m));
      await driveTo(south(m));
    }
    await expect(app.getByTestId("trip-meter")).toBeVisible();
    await check(app, "trip-aboard", violations);
    await trip.getByTestId("move-complete").tap();
    const notice = app.getByTestId("driver-notice");
    await expect(notice).toContainText("Поездка завершена");

    // The fare: the rate's formula for the metres driven (the track the phone reported, offline stretch included)
    // and the waiting and the trip between the moments the order's history recorded.
    const details = (await trpc<{ state: string; amount: number | null; history: Array<{ toState: string; at: Date }> }>(baseUrl, dispatcher, "orders.get", { id: orderId })).data!;
    expect(details.state).toBe("DONE_SUCCESSFUL");
    const when = (state: string) => new Date(details.history.find((h) => h.toState === state)!.at).getTime();
    let driven = 0;
    for (let i = 1; i < ride.length; i++) driven += metres(ride[i - 1]!, ride[i]!);
    const expected = formula(rate, {
      metres: Math.round(driven),
      waitingSeconds: Math.round((when("IN_PROCESS") - when("AWAITING_CLIENT")) / 1000),
      tripSeconds: Math.round((when("DONE_SUCCESSFUL") - when("IN_PROCESS")) / 1000),
    });
    expect(expected).toBeGreaterThan(rate.minFare); // the minimum did not decide it
    const shown = Number((await notice.textContent())!.replace(/[^\d,]/g, "").replace(",", "."));
    const stored = (await trpc<{ reading: unknown; fare: unknown }>(baseUrl, dispatcher, "meter.order", { orderId })).data;
    const inputs = { driven, reported, ride, history: details.history.map((h) => `${h.toState}@${new Date(h.at).toISOString()}`), stored };
    expect(Math.round(shown * 100), JSON.stringify(inputs)).toBe(expected);
    // The order's amount is the same (its commission too: one entry).
    const read = await driverApi<{ entries: Array<{ kind: string; order_id: number | null }> }>(key, "GET", "ledger");
    expect(read.body.entries.filter((e) => e.kind === "COMMISSION" && e.order_id === orderId)).toHaveLength(1);
    await check(app, "trip-done", violations);

    // Messages: the dispatcher writes to the driver (the app shows it), the driver answers from the app (the console's thread has it).
    const toDriver = `Заберите пассажира у подъезда ${Date.now() % 10_000}`;
    const sent = await trpc<{ sent: number }>(baseUrl, dispatcher, "messages.send", { to: { driverId: driver.id }, text: toDriver }, "mutation");
    expect(sent.data).toEqual({ sent: 1 });
    await expect(notice).toContainText(toDriver);
    await app.getByTestId("tab-messages").tap();
    await expect(app.getByTestId("messages").getByText(toDriver)).toBeVisible();
    const answer = `Понял, буду через 5 минут ${Date.now() % 10_000}`;
    await app.getByRole("textbox", { name: "Сообщение" }).fill(answer);
    await app.getByRole("button", { name: "Отправить" }).tap();
    await expect(app.getByTestId("messages").getByText(answer)).toBeVisible();
    await expect
      .poll(async () => ((await trpc<Array<{ sender: string; text: string }>>(baseUrl, dispatcher, "messages.recent", { driverId: driver.id })).data ?? []).find((m) => m.text === answer)?.sender)
      .toBe("DRIVER");
    await check(app, "messages", violations);
    await app.getByTestId("tab-more").tap();
    await expect(app.getByTestId("more-ledger")).toBeVisible();
    await check(app, "more", violations);

    // A move made offline that the dispatcher overtook: shown once, dropped, never sent again.
    const overtaken = await createOrder(dispatcher);
    await offerTo(dispatcher, overtaken, driver.id);
    await expect(sheet).toBeVisible();
    await sheet.getByRole("button", { name: "Принять" }).tap();
    await expect(sheet).toBeHidden();
    await expect(trip).toHaveAttribute("data-order-state", /^CONFIRMED/);
    const statusCalls: string[] = [];
    app.on("request", (r) => {
      if (r.url().endsWith("/driver-app/v1/orders/status")) statusCalls.push(r.postData() ?? "");
    });
    await context.setOffline(true);
    await expect(app.getByTestId("driver-net")).toHaveText("Нет связи");
    await trip.getByTestId("move-AWAITING_CLIENT").tap();
    await expect(app.getByTestId("driver-notice")).toContainText("Сохранено");
    await expect(trip).toHaveAttribute("data-order-state", "AWAITING_CLIENT");
    const taken = await trpc(baseUrl, dispatcher, "dispatch.takeBack", { orderId: overtaken, reason: "водитель не отвечает" }, "mutation");
    expect(taken.error, JSON.stringify(taken.error)).toBeUndefined();
    await context.setOffline(false);
    const conflict = app.getByTestId("driver-conflict");
    await expect(conflict).toContainText(`Заказ № ${overtaken}`, { timeout: 30_000 });
    await expect(conflict).toContainText("Диспетчерская не приняла «На месте»: заказ больше не ваш");
    await expect(conflict).toContainText("действие отменено");
    await expect(app.getByTestId("driver-notice")).toHaveCount(0);
    await expect(app.getByTestId("driver-pending")).toBeHidden();
    await expect(app.getByTestId("trip-none")).toBeVisible({ timeout: 20_000 });
    await check(app, "conflict", violations);
    // The queue is empty: the refused move was tried once and dropped.
    expect(statusCalls).toHaveLength(1);
    expect(JSON.parse(statusCalls[0]!)).toMatchObject({ status: "AWAITING_CLIENT", at: expect.any(String) });
    expect((await trpc<{ state: string }>(baseUrl, dispatcher, "orders.get", { id: overtaken })).data?.state).toMatch(/^FREE/);

    expect(violations, violations.join("\n")).toEqual([]);
    // Automatic dispatch may offer the order taken back to this driver again: refused, the shift ends.
    if (await sheet.isVisible()) {
      await sheet.getByRole("button", { name: "Отказаться" }).tap();
      await sheet.getByRole("button", { name: "Далеко" }).tap();
      await expect(sheet).toBeHidden();
    }
    await app.getByTestId("tab-shift").tap();
    await app.getByTestId("shift-end").tap();
    await expect(app.getByTestId("shift-start")).toBeVisible();
    await context.close();
  } finally {
    for (const r of original) await trpc(baseUrl, admin, "referenceAdmin.saveRate", rateInput(r), "mutation");
  }
});
