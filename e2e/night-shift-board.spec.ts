// Issue 34's board that holds the shift, at 1366×768 and 1920×1080, in both
// languages: 15 and more rows visible, the moderation strip folded to one
// line (and gone during a search), columns sorted by keyboard, columns hiding
// with the card open (nothing cut off); a status by its typed code with a
// confirmed, reasoned final move ("completed" never offered without a
// driver); the advance-order time field; the parking queues and the fleet
// counters following a driver's app live.
import type { Locator, Page } from "@playwright/test";
import { test, expect, signIn } from "./support/fixtures";
import { env, userOf } from "./support/env";
import { apiCreateOrder, signInApi, trpc, uniquePhone } from "./support/console-api";
import { rowByPhone, waitLive } from "./support/board";

const WORDS = {
  ru: {
    state: "Состояние", age: "Ждёт", code: "Код состояния и Enter", ambiguous: "95к", confirm: "Завершить заказ", reasonMissing: "Укажите причину",
    preOrder: "Ко времени", plus30: "+30 мин", tomorrow: "Завтра 07:00", when: "Подача:", past: "Это время уже прошло", advance: "Время подачи",
    unfold: "Развернуть", onShift: "На смене", codeUnknown: "недоступен",
  },
  en: {
    state: "State", age: "Waits", code: "State code and Enter", ambiguous: "95c", confirm: "Finish the order", reasonMissing: "Give a reason",
    preOrder: "At a time", plus30: "+30 min", tomorrow: "Tomorrow 07:00", when: "Pickup:", past: "This time has passed", advance: "Pickup time",
    unfold: "Expand", onShift: "On shift", codeUnknown: "not available",
  },
} as const;
type Lang = keyof typeof WORDS;

const SCREENS = [
  { lang: "ru" as const, width: 1366, height: 768 },
  { lang: "en" as const, width: 1366, height: 768 },
  { lang: "en" as const, width: 1920, height: 1080 },
  { lang: "ru" as const, width: 1920, height: 1080 },
];

async function startIn(page: Page, lang: Lang, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.context().addCookies([{ name: "locale", value: lang, url: env().baseUrl }]);
  await signIn(page, "DISPATCHER");
  await expect(page).toHaveURL(/\/orders$/);
  await waitLive(page);
}

/** Rows wholly inside the grid's scrolled body. */
async function visibleRows(page: Page): Promise<number> {
  return page.getByTestId("order-grid").evaluate((grid) => {
    const body = grid.querySelector(".grid-body")!.getBoundingClientRect();
    return [...grid.querySelectorAll(".grid-body .grid-row")].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= body.top - 1 && b.bottom <= body.bottom + 1;
    }).length;
  });
}

/** Header cells that show and stick out of the grid on the right (cut off). */
async function cutOffColumns(page: Page): Promise<string[]> {
  return page.getByTestId("order-grid").evaluate((grid) => {
    const right = grid.getBoundingClientRect().right;
    return [...grid.querySelectorAll(".grid-head [role=columnheader]")]
      .filter((c) => getComputedStyle(c).visibility !== "hidden" && c.getBoundingClientRect().width > 0 && c.getBoundingClientRect().right > right + 1)
      .map((c) => c.className);
  });
}

async function codesOfRows(page: Page, n: number): Promise<number[]> {
  const states = await page.getByTestId("order-grid").locator(".grid-body .grid-row").evaluateAll((rows, k) =>
    rows
      .map((r) => ({ top: r.getBoundingClientRect().top, code: Number(r.querySelector(".badge-code")?.textContent ?? "NaN") }))
      .sort((a, b) => a.top - b.top)
      .slice(0, k)
      .map((r) => r.code), n);
  return states;
}

test.describe("the board at 1366×768 holds the shift", () => {
  test.beforeAll(async () => {
    // Enough active orders to fill the screen, and one on moderation for the strip.
    const { baseUrl, apiKey } = env();
    for (let i = 0; i < 20; i++) await apiCreateOrder(baseUrl, apiKey, { phone: uniquePhone(), street: "ул. Мира", house: String(1 + (i % 2)), moderation_required: "no" });
    await apiCreateOrder(baseUrl, apiKey, { phone: uniquePhone(), street: "ул. Ленина", house: "2" });
  });

  for (const s of SCREENS) {
    test(`rows, the folded moderation strip, sorting by keyboard, the card with no column cut off (${s.lang}, ${s.width}×${s.height})`, async ({ page, shot }) => {
      const w = WORDS[s.lang];
      await startIn(page, s.lang, s.width, s.height);
      const grid = page.getByTestId("order-grid");
      await expect(grid.locator(".grid-body .grid-row").first()).toBeVisible();
      const strip = page.getByTestId("moderation-queue");
      await expect(strip).toBeVisible();
      if (s.height < 900) {
        // Folded to one line at 1366×768; it unfolds and folds back by a button.
        await expect(strip).toHaveAttribute("data-folded", "true");
        await strip.getByRole("button", { name: w.unfold }).click();
        await expect(strip).toHaveAttribute("data-folded", "false");
        await strip.getByRole("button", { name: w.unfold === "Развернуть" ? "Свернуть" : "Collapse" }).click();
        await expect(strip).toHaveAttribute("data-folded", "true");
      }
      expect(await visibleRows(page)).toBeGreaterThanOrEqual(15);
      await expect(page.getByTestId("fleet-strip")).toBeVisible();
      await shot(`board-${s.lang}-${s.width}`);

      // Sorting by keyboard: the state header's button, Enter and Enter again.
      const stateHead = grid.getByRole("columnheader", { name: w.state });
      await stateHead.getByRole("button").focus();
      await page.keyboard.press("Enter");
      await expect(stateHead).toHaveAttribute("aria-sort", "ascending");
      const up = await codesOfRows(page, 12);
      expect(up).toEqual([...up].sort((a, b) => a - b));
      await page.keyboard.press("Enter");
      await expect(stateHead).toHaveAttribute("aria-sort", "descending");
      const down = await codesOfRows(page, 12);
      expect(down).toEqual([...down].sort((a, b) => b - a));
      // Space on the age header: the order moves to it.
      const ageHead = grid.getByRole("columnheader", { name: w.age });
      await ageHead.getByRole("button").focus();
      await page.keyboard.press(" ");
      await expect(ageHead).toHaveAttribute("aria-sort", "ascending");
      await expect(stateHead).toHaveAttribute("aria-sort", "none");

      // A search hides the strip; the card opens with no column cut off.
      await page.keyboard.press("/");
      await page.keyboard.type("ул. Мира");
      await expect(strip).toBeHidden();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("order-panel")).toBeVisible();
      expect(await cutOffColumns(page)).toEqual([]);
      expect(await grid.locator(".grid-body").evaluate((b) => b.scrollWidth - b.clientWidth)).toBeLessThanOrEqual(1);
      await shot(`board-card-${s.lang}-${s.width}`);
    });
  }
});

async function openOrder(page: Page, phone: string): Promise<Locator> {
  await page.keyboard.press("/");
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(phone.slice(-7));
  await expect(rowByPhone(page, phone)).toBeVisible();
  await expect(page.getByTestId("order-grid").locator(".grid-body .grid-row")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  const panel = page.getByTestId("order-panel");
  await expect(panel).toBeVisible();
  return panel;
}

for (const s of [SCREENS[0]!, SCREENS[2]!]) {
  test(`status by typed code: the 95s told apart, a final move confirmed with a required reason, no "completed" without a driver (${s.lang}, ${s.width}×${s.height})`, async ({ page, shot }) => {
    const w = WORDS[s.lang];
    const { baseUrl, apiKey } = env();
    const phone = uniquePhone();
    await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "5", moderation_required: "no" });
    await startIn(page, s.lang, s.width, s.height);
    const panel = await openOrder(page, phone);
    const orderId = Number(await rowByPhone(page, phone).getAttribute("data-order-id"));
    const code = panel.getByRole("textbox", { name: w.code });
    // "Completed" is not offered for an order without a driver, neither in the list nor by code.
    await expect(panel.locator('select[name="to"] option[value="DONE_SUCCESSFUL"]')).toHaveCount(0);
    await code.fill("100");
    await code.press("Enter");
    await expect(panel.getByRole("alert")).toContainText(w.codeUnknown);
    // 95 names two states: the card asks which, by a letter.
    await code.fill("95");
    await code.press("Enter");
    await expect(panel.getByRole("alert")).toContainText(w.ambiguous);
    await expect(panel.locator('select[name="to"] option[value="DONE_CANCELLED"]')).not.toHaveText(await panel.locator('select[name="to"] option[value="DONE_OPERATOR_REJECTED"]').innerText());
    await code.fill(s.lang === "ru" ? "95д" : "95d");
    await code.press("Enter");
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    // The reason is required: Enter on an empty one says so and moves nothing.
    await expect(dialog.getByRole("textbox")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("alert")).toContainText(w.reasonMissing);
    await shot(`status-confirm-${s.lang}-${s.width}`);
    await page.keyboard.type("двойной заказ / duplicate");
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();

    const session = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
    await expect.poll(async () => (await trpc<{ state: string }>(baseUrl, session, "orders.get", { id: orderId })).data?.state).toBe("DONE_OPERATOR_REJECTED");
    const details = await trpc<{ history: Array<{ toState: string; reason: string }>; cancelReason: string }>(baseUrl, session, "orders.get", { id: orderId });
    expect(details.data!.history.at(-1)).toMatchObject({ toState: "DONE_OPERATOR_REJECTED", reason: "двойной заказ / duplicate" });
  });
}

for (const s of [SCREENS[0]!, SCREENS[2]!]) {
  test(`the advance-order time: quick buttons, typed times, a past time refused (${s.lang}, ${s.width}×${s.height})`, async ({ page, shot }) => {
    const w = WORDS[s.lang];
    const { baseUrl } = env();
    await startIn(page, s.lang, s.width, s.height);
    await page.keyboard.press("n");
    await expect(page).toHaveURL(/\/orders\/new$/);
    const phone = uniquePhone();
    await page.keyboard.type(phone);
    await page.locator('input[name="pickup-street"]').fill("ул. Мира");
    await page.locator('input[name="pickup-house"]').fill("2");
    await page.getByRole("radio", { name: w.preOrder }).click();
    const field = page.getByRole("textbox", { name: w.advance });
    await expect(field).toBeFocused();
    const when = page.getByTestId("advance-when");
    // A time two hours ago on the city's clock (Moscow, as the demo city) is refused, in the console's words.
    const past = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Moscow", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(Date.now() - 2 * 3_600_000));
    const pastIsToday = new Date(Date.now() - 2 * 3_600_000).toLocaleDateString("en-GB", { timeZone: "Europe/Moscow" }) === new Date().toLocaleDateString("en-GB", { timeZone: "Europe/Moscow" });
    if (pastIsToday) {
      await field.fill(past);
      await expect(when).toContainText(w.past);
      await page.keyboard.press("Enter");
      await expect(field).toBeFocused();
      await expect(page).toHaveURL(/\/orders\/new$/);
    }
    await page.getByRole("button", { name: w.tomorrow }).click();
    await expect(when).toContainText(w.when);
    await expect(when).toContainText("07:00");
    await page.getByRole("button", { name: w.plus30 }).click();
    await expect(field).toHaveValue("+30");
    await expect(when).toContainText(w.when);
    await shot(`advance-time-${s.lang}-${s.width}`);
    const before = Date.now();
    await field.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: /создан|created/ })).toBeVisible();

    const session = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
    const recent = await trpc<{ addresses: Array<{ lastOrderId: number }> }>(baseUrl, session, "orders.recentAddresses", { phone });
    const orderId = recent.data!.addresses[0]!.lastOrderId;
    const order = await trpc<{ preOrderTime: string | null; state: string }>(baseUrl, session, "orders.get", { id: orderId });
    const at = new Date(order.data!.preOrderTime!).getTime();
    expect(at).toBeGreaterThanOrEqual(before + 29 * 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 31 * 60_000);
  });
}

async function driverApp(baseUrl: string, key: string, path: string, body: Record<string, unknown> = {}) {
  const res = await fetch(`${baseUrl}/driver-app/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

test("the parking queues and the fleet counters follow a driver's app live (ru, 1366×768)", async ({ page, shot }) => {
  const { baseUrl, adminEmail, adminPassword } = env();
  const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
  const admin = await signInApi(baseUrl, adminEmail, adminPassword);
  const list = await trpc<{ items: Array<{ id: number; callSign: string; active: boolean; positionAt: string | null }> }>(baseUrl, dispatcher, "drivers.list", { state: "OFFLINE", limit: 100 });
  const found = (list.data?.items ?? []).find((d) => d.active && d.positionAt && /^\d+$/.test(d.callSign));
  expect(found, "an off-shift demo driver with a position").toBeTruthy();
  const card = await trpc<{ lat: number; lon: number }>(baseUrl, dispatcher, "map.driver", { driverId: found!.id });
  const driver = { ...found!, lat: card.data!.lat, lon: card.data!.lon };
  const issued = await trpc<{ key: string }>(baseUrl, admin, "referenceAdmin.issueDriverKey", { driverId: driver.id }, "mutation");
  const key = issued.data!.key;

  await startIn(page, "ru", 1366, 768);
  const fleet = page.getByTestId("fleet-strip");
  const counter = (name: string) => fleet.locator(`[data-counter="${name}"] dd`);
  await expect(counter("onShift")).toHaveText(/^\d+$/);
  const server = async () => (await trpc<{ onShift: number; free: number; busy: number; away: number }>(baseUrl, dispatcher, "shift.fleet", {})).data!;

  await driverApp(baseUrl, key, "shift/start", { lat: driver.lat, lon: driver.lon });
  await driverApp(baseUrl, key, "queue/join");
  const chip = page.getByTestId("queues").locator(`[data-call-sign="${driver.callSign}"]`);
  await expect(chip).toBeVisible();
  // The counters are the server's (other drivers of the demo may move meanwhile: compare with a fresh count).
  await expect.poll(async () => Number(await counter("onShift").innerText()) - (await server()).onShift, { timeout: 15_000 }).toBe(0);
  await shot("fleet-queues-ru-1366");

  await driverApp(baseUrl, key, "queue/leave");
  await expect(chip).toBeHidden();
  await driverApp(baseUrl, key, "shift/end");
  await expect.poll(async () => Number(await counter("away").innerText()) - (await server()).away, { timeout: 15_000 }).toBe(0);
});

const QUEUE_WORDS = {
  ru: { offShift: "не на смене", onBreakBadge: "На перерыве", toStand: "на другую стоянку", off: "снять со стоянки", up: "выше в очереди" },
  en: { offShift: "not on shift", onBreakBadge: "On a break", toStand: "to another stand", off: "off the stand", up: "up the queue" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`the dispatcher puts a driver on a stand by call sign and Enter, moves and removes one; a break is counted (${lang}, 1366×768)`, async ({ page, shot }) => {
    const q = QUEUE_WORDS[lang];
    const { baseUrl, adminEmail, adminPassword } = env();
    const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
    const admin = await signInApi(baseUrl, adminEmail, adminPassword);
    const list = await trpc<{ items: Array<{ id: number; callSign: string; active: boolean; positionAt: string | null }> }>(baseUrl, dispatcher, "drivers.list", { state: "OFFLINE", limit: 100 });
    const offline = (list.data?.items ?? []).filter((d) => d.active && d.positionAt && /^\d+$/.test(d.callSign));
    expect(offline.length, "two off-shift demo drivers").toBeGreaterThanOrEqual(2);
    // A different driver per language (the tests may run one after the other on one server).
    const driver = offline[lang === "ru" ? 0 : 1]!;
    const stranger = offline[lang === "ru" ? 2 : 3] ?? offline.at(-1)!;
    const card = await trpc<{ lat: number; lon: number }>(baseUrl, dispatcher, "map.driver", { driverId: driver.id });
    const key = (await trpc<{ key: string }>(baseUrl, admin, "referenceAdmin.issueDriverKey", { driverId: driver.id }, "mutation")).data!.key;
    await driverApp(baseUrl, key, "shift/start", { lat: card.data!.lat, lon: card.data!.lon });

    await startIn(page, lang, 1366, 768);
    await page.getByTestId("stands-open").focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    const stands = dialog.getByTestId("stand-queues").locator("section.stand");
    const first = stands.first();
    const standId = await first.getAttribute("data-region");
    const input = first.getByRole("textbox");
    await expect(input).toBeFocused();

    // A driver off shift: refused with the reason, nobody placed.
    if (stranger.id !== driver.id) {
      await page.keyboard.type(stranger.callSign);
      await page.keyboard.press("Enter");
      await expect(first.getByRole("alert")).toContainText(q.offShift);
      await expect(first.getByRole("alert")).toContainText(stranger.callSign);
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.press("Backspace");
    }
    await page.keyboard.type(driver.callSign);
    await page.keyboard.press("Enter");
    await expect(first.locator(`li[data-call-sign="${driver.callSign}"]`)).toBeVisible();
    await expect(input).toHaveValue("");
    await shot(`stand-queues-${lang}-1366`);
    const server = async () => (await trpc<Array<{ regionId: number; drivers: Array<{ callSign: string }> }>>(baseUrl, dispatcher, "dispatch.queues", {})).data!;
    expect((await server()).find((x) => String(x.regionId) === standId)?.drivers.map((d) => d.callSign)).toContain(driver.callSign);

    // To another stand of the same city by the list (the list offers only those).
    const second = dialog.locator(`section.stand[data-city="${await first.getAttribute("data-city")}"]`).nth(1);
    const otherStand = await second.getAttribute("data-region");
    await first.locator(`li[data-call-sign="${driver.callSign}"]`).getByRole("combobox", { name: `${driver.callSign}: ${q.toStand}` }).selectOption(otherStand);
    await expect(second.locator(`li[data-call-sign="${driver.callSign}"]`)).toBeVisible();
    await expect(first.locator(`li[data-call-sign="${driver.callSign}"]`)).toHaveCount(0);
    // By keyboard an arrow only chooses the stand (a closed list changes at once); Enter moves the driver.
    const back = second.locator(`li[data-call-sign="${driver.callSign}"]`).getByRole("combobox");
    await back.focus();
    await page.keyboard.press("ArrowDown");
    await expect(back).toHaveValue(standId!);
    await expect(second.locator(`li[data-call-sign="${driver.callSign}"]`)).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(first.locator(`li[data-call-sign="${driver.callSign}"]`)).toBeVisible();
    await expect(second.locator(`li[data-call-sign="${driver.callSign}"]`)).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    const chip = page.getByTestId("queues").locator(`[data-region="${standId}"] [data-call-sign="${driver.callSign}"]`);
    await expect(chip).toBeVisible();
    await shot(`fleet-queues-${lang}-1366`);

    // A chip opens the dialog on its driver; the off button takes the driver off.
    await chip.click();
    const row = dialog.locator(`li[data-call-sign="${driver.callSign}"]`);
    await row.getByRole("button", { name: `${driver.callSign}: ${q.off}` }).click();
    await expect(row).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(chip).toBeHidden();

    // A break: counted, the driver's row in the Drivers page says so.
    const fleet = page.getByTestId("fleet-strip");
    const counter = (name: string) => fleet.locator(`[data-counter="${name}"] dd`);
    const counts = async () => (await trpc<{ onBreak: number; soonFree: number }>(baseUrl, dispatcher, "shift.fleet", {})).data!;
    await driverApp(baseUrl, key, "break/start");
    await expect.poll(async () => Number(await counter("onBreak").innerText()) - (await counts()).onBreak, { timeout: 15_000 }).toBe(0);
    await expect.poll(async () => (await counts()).onBreak, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await expect(counter("soonFree")).toHaveText(/^\d+$/);
    await shot(`fleet-break-${lang}-1366`);
    await page.goto(`/drivers`);
    await page.getByRole("searchbox").or(page.getByRole("textbox").first()).fill(driver.callSign);
    await expect(page.getByText(q.onBreakBadge).first()).toBeVisible();
    await driverApp(baseUrl, key, "break/end");
    await driverApp(baseUrl, key, "shift/end");
  });
}
