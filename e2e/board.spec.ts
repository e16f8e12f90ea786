// The order board: orders from the dispatch API appear live, moderation
// (approve, to a driver, reject), status moves (allowed, refused, stale) with
// the history, the edit form's conflict handling, search.
import { test, expect, signIn } from "./support/fixtures";
import { env } from "./support/env";
import { apiCreateOrder, signInApi, trpc, uniquePhone } from "./support/console-api";
import { moderationItem, phoneText, rowByPhone, waitLive } from "./support/board";
import { nextStates } from "../server/orders/states";

test.beforeEach(async ({ page }) => {
  await signIn(page, "DISPATCHER");
  await expect(page).toHaveURL(/\/orders$/);
  await waitLive(page);
});

async function orderIdOf(page: import("@playwright/test").Page, phone: string): Promise<number> {
  return Number(await rowByPhone(page, phone).first().getAttribute("data-order-id"));
}

test("an order from the dispatch API appears live and is approved", async ({ page, shot }) => {
  const { baseUrl, apiKey } = env();
  const phone = uniquePhone();
  const started = Date.now();
  await apiCreateOrder(baseUrl, apiKey, { phone: `8${phone.slice(1)}`, street: "ул. Мира", house: "1", dst: "Аэропорт", comment: "Позвонить за 5 минут" });

  const item = moderationItem(page, phone);
  await expect(item).toBeVisible();
  const seenAfter = Date.now() - started;
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "ON_MODERATION");
  test.info().annotations.push({ type: "live latency", description: `${seenAfter} ms from POST /api/order to the row on the board` });
  console.log(`live latency: ${seenAfter} ms from POST /api/order to the order on the board`);
  expect(seenAfter).toBeLessThan(2_500);
  await shot("board-live-moderation");

  await item.getByRole("button", { name: "Одобрить" }).click();
  await expect(page.getByRole("status").filter({ hasText: "одобрен" })).toBeVisible();
  await expect(item).toHaveCount(0);
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "FREE");

  await rowByPhone(page, phone).click();
  const panel = page.getByTestId("order-panel");
  await expect(panel.locator(".panel-head [data-state]")).toHaveAttribute("data-state", "FREE");
  const history = panel.getByTestId("order-history");
  await expect(history).toContainText("Диспетчер: E2E dispatcher");
  await expect(history.locator("li").first()).toContainText("Свободный");
  await expect(panel).toContainText("Позвонить за 5 минут");
  await shot("board-order-panel");
});

test("rejecting asks for a reason and removes the order from the active ones", async ({ page, shot }) => {
  const { baseUrl, apiKey } = env();
  const phone = uniquePhone();
  await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1" });
  const item = moderationItem(page, phone);
  await item.getByRole("button", { name: "Отклонить" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Отклонить" }).click();
  await expect(dialog).toContainText("Укажите причину");
  await dialog.locator('input[name="reason"]').fill("Ложный вызов");
  await shot("board-reject-dialog");
  await dialog.getByRole("button", { name: "Отклонить" }).click();
  await expect(page.getByRole("status").filter({ hasText: "отклонён" })).toBeVisible();
  await expect(item).toHaveCount(0);
  await expect(rowByPhone(page, phone)).toHaveCount(0);

  await page.getByRole("tab", { name: /Завершённые/ }).click();
  await page.getByRole("searchbox", { name: /Телефон/ }).fill(phone);
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "DONE_OPERATOR_REJECTED");
  await rowByPhone(page, phone).click();
  await expect(page.getByTestId("order-history")).toContainText("Ложный вызов");
  await expect(page.getByTestId("order-panel")).toContainText("Причина снятия: Ложный вызов");
});

test("approving straight to a driver sends the order to that driver", async ({ page }) => {
  const { baseUrl, apiKey } = env();
  const phone = uniquePhone();
  await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1" });
  await moderationItem(page, phone).getByRole("button", { name: "Водителю…" }).click();
  const dialog = page.getByRole("dialog");
  const list = dialog.locator("select.driver-list");
  await expect(list.locator("option").first()).toBeAttached();
  const callSign = ((await list.locator("option").first().textContent()) ?? "").split(" · ")[0]!.trim();
  await list.selectOption({ index: 0 });
  await dialog.getByRole("button", { name: "Одобрить" }).click();
  // A driver whose app is silent (the demo's drivers have none running): the dialog asks once more (e2e/driver-picker-liveness.spec.ts).
  const asked = dialog.getByTestId("driver-liveness-warning").locator("strong");
  const given = page.getByRole("status").filter({ hasText: `водителю ${callSign}` });
  await expect(asked.or(given).first()).toBeVisible();
  if (await asked.isVisible()) await dialog.getByRole("button", { name: "Одобрить" }).click();
  await expect(given).toBeVisible();
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "SENT_TO_DRIVER");
  await expect(rowByPhone(page, phone).locator(".cell-driver")).toHaveText(callSign);
});

test("status moves: only allowed targets are offered, moves are recorded, refusals are explained", async ({ page, shot }) => {
  const { baseUrl, apiKey } = env();
  const phone = uniquePhone();
  await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1", moderation_required: "no" });
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "FREE");
  const id = await orderIdOf(page, phone);
  await rowByPhone(page, phone).click();
  const panel = page.getByTestId("order-panel");
  const target = panel.locator('select[name="to"]');

  // The choice is exactly the state machine's moves from FREE.
  await expect(target.locator("option")).toHaveCount(nextStates("FREE").length + 1);
  const offered = (await target.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter(Boolean);
  expect(offered).toEqual(nextStates("FREE"));
  expect(offered).not.toContain("IN_PROCESS");

  // An allowed move, with a driver.
  await target.selectOption("SENT_TO_DRIVER");
  await panel.locator("select.driver-list option").first().waitFor({ state: "attached" });
  await panel.locator("select.driver-list").selectOption({ index: 0 });
  await panel.locator('input[name="reason"]').fill("Клиент ждёт у подъезда");
  await shot("board-status-change");
  await panel.getByRole("button", { name: "Применить" }).click();
  // A silent driver: asked once more before giving.
  const asked = panel.getByTestId("driver-liveness-warning").locator("strong");
  await expect(asked.or(panel.locator('.panel-head [data-state="SENT_TO_DRIVER"]')).first()).toBeVisible();
  if (await asked.isVisible()) await panel.getByRole("button", { name: "Применить" }).click();
  await expect(panel.locator(".panel-head [data-state]")).toHaveAttribute("data-state", "SENT_TO_DRIVER");
  await expect(panel.getByTestId("order-history").locator("li").first()).toContainText("Отправлен водителю");
  await expect(panel.getByTestId("order-history").locator("li").first()).toContainText("Клиент ждёт у подъезда");
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "SENT_TO_DRIVER");

  // A move the state machine forbids, called directly: refused with a readable reason.
  const dispatcher = await signInApi(baseUrl, "dispatcher@e2e.local", "e2e-password-1");
  const current = await trpc<{ version: number }>(baseUrl, dispatcher, "orders.get", { id });
  const forbidden = await trpc(baseUrl, dispatcher, "orders.move", { orderId: id, to: "IN_PROCESS", expectedVersion: current.data!.version }, "mutation");
  expect(forbidden.status).toBe(422);
  expect(forbidden.error?.domainCode).toBe("FORBIDDEN_MOVE");
  expect(forbidden.error?.message).toContain("Нельзя перевести заказ из состояния «Отправлен водителю» (1) в «Выполняется» (4)");
  // A stale version: refused as a conflict.
  const stale = await trpc(baseUrl, dispatcher, "orders.move", { orderId: id, to: "CONFIRMED", expectedVersion: current.data!.version - 1 }, "mutation");
  expect(stale.status).toBe(409);
  expect(stale.error?.domainCode).toBe("CONFLICT");

  // In the UI, a refused move rolls the optimistic state back and says why.
  await page.route("**/api/trpc/orders.move**", async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as Record<string, { json: { expectedVersion: number } }>;
    for (const call of Object.values(body)) call.json.expectedVersion -= 1;
    await route.continue({ postData: JSON.stringify(body) });
  });
  await target.selectOption("CONFIRMED");
  await panel.getByRole("button", { name: "Применить" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Конфликт" });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole("button", { name: "Обновить" })).toBeVisible();
  await expect(panel.locator(".panel-head [data-state]")).toHaveAttribute("data-state", "SENT_TO_DRIVER");
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "SENT_TO_DRIVER");
  await shot("board-refused-move");
  await page.unroute("**/api/trpc/orders.move**");
});

test("an edit of an order changed meanwhile is refused, and the form reloads", async ({ page }) => {
  const { baseUrl, apiKey, adminEmail, adminPassword } = env();
  const phone = uniquePhone();
  await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1", moderation_required: "no" });
  await expect(rowByPhone(page, phone)).toBeVisible();
  const id = await orderIdOf(page, phone);
  await rowByPhone(page, phone).click();
  const panel = page.getByTestId("order-panel");
  await panel.locator('textarea[name="comment"]').fill("Подъезд со двора");

  // Someone else edits the order.
  const admin = await signInApi(baseUrl, adminEmail, adminPassword);
  const current = await trpc<{ version: number }>(baseUrl, admin, "orders.get", { id });
  const other = await trpc(baseUrl, admin, "orders.update", { orderId: id, expectedVersion: current.data!.version, comment: "Изменено другим диспетчером" }, "mutation");
  expect(other.status).toBe(200);
  await expect(panel.getByRole("status").filter({ hasText: "Заказ изменился" })).toBeVisible();

  await panel.getByRole("button", { name: "Сохранить" }).click();
  const error = panel.getByTestId("edit-error");
  await expect(error).toContainText("Конфликт");
  await error.getByRole("button", { name: "Обновить" }).click();
  await expect(panel.locator('textarea[name="comment"]')).toHaveValue("Изменено другим диспетчером");

  // Now the save goes through.
  await panel.locator('textarea[name="comment"]').fill("Подъезд со двора");
  await panel.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Заказ №${id} сохранён` })).toBeVisible();
  await expect(panel.locator(".comment").first()).toHaveText("Подъезд со двора");
});

test("search finds orders by phone and by order number; keys move through the list", async ({ page }) => {
  const { baseUrl, apiKey } = env();
  const phone = uniquePhone();
  await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1", moderation_required: "no" });
  await expect(rowByPhone(page, phone)).toBeVisible();
  const id = await orderIdOf(page, phone);

  await page.keyboard.press("/");
  await expect(page.getByRole("searchbox", { name: /Телефон/ })).toBeFocused();
  await page.keyboard.type(phone.slice(-7));
  await expect(page.getByTestId("order-grid").locator(".grid-row[data-order-id]")).toHaveCount(1);
  await expect(page.getByTestId("order-grid")).toContainText(phoneText(phone));

  await page.getByRole("searchbox", { name: /Телефон/ }).fill(`#${id}`);
  await expect(page.getByTestId("order-grid").locator(".grid-row[data-order-id]")).toHaveCount(1);
  await expect(page.getByTestId("order-grid").locator(`.grid-row[data-order-id="${id}"]`)).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("order-panel")).toContainText(`Заказ №${id}`);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("order-panel")).toHaveCount(0);
});
