// A phone order taken by a dispatcher: the caller's recent addresses, street
// suggestions, the live estimate, Enter to create, the order on the board.
import { test, expect, signIn } from "./support/fixtures";
import { env } from "./support/env";
import { apiCreateOrder, uniquePhone } from "./support/console-api";
import { rowByPhone, waitLive } from "./support/board";

test("a phone order with recent addresses, street suggestions and a live estimate", async ({ page, shot }) => {
  const { baseUrl, apiKey } = env();
  const phone = uniquePhone();
  // The caller has ridden with us before.
  await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1", dst_street: "Речной вокзал", moderation_required: "no" });

  await signIn(page, "DISPATCHER");
  await waitLive(page);
  await page.keyboard.press("n");
  await expect(page).toHaveURL(/\/orders\/new$/);
  const form = page.getByRole("form", { name: "Новый заказ по телефону" });
  const phoneInput = form.locator('input[name="phone"]');
  await expect(phoneInput).toBeFocused();
  await page.keyboard.type(`8 ${phone.slice(1, 4)} ${phone.slice(4)}`);

  const recent = page.getByTestId("recent-addresses");
  await expect(recent).toContainText("ул. Мира, 1");
  await expect(recent).toContainText("Речной вокзал");
  await page.keyboard.press("Alt+1");
  await expect(form.locator('input[name="pickup-street"]')).toHaveValue("ул. Мира");
  await expect(form.locator('input[name="pickup-house"]')).toHaveValue("1");

  const estimate = page.getByTestId("estimate-amount");
  await expect(estimate).toHaveText(/\d\s?₽/);
  const pickupOnly = await estimate.textContent();

  // The destination with the street suggestions, by keyboard only.
  await form.locator('input[name="destination-street"]').focus();
  await page.keyboard.type("речной вок");
  const suggestions = page.getByRole("listbox", { name: "Улица или место" });
  await expect(suggestions.getByRole("option").first()).toHaveText(/^Речной вокзал/);
  await expect(suggestions.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await shot("new-order-suggestions");
  await page.keyboard.press("Enter");
  await expect(form.locator('input[name="destination-street"]')).toHaveValue("Речной вокзал");
  await expect(estimate).not.toHaveText(pickupOnly ?? "");
  await expect(page.getByTestId("estimate")).toContainText("км");
  await form.locator('textarea[name="comment"]').fill("Третий подъезд");
  await form.locator('input[name="pickup-entrance"]').fill("3");
  await expect(page.locator(".estimate-stale")).toHaveCount(0);
  const quoted = (await estimate.textContent()) ?? "";
  await shot("new-order-estimate");

  // Enter creates the order; the caller's earlier order is still active at the same pickup, so the console asks first.
  await form.locator('input[name="pickup-entrance"]').press("Enter");
  const repeat = page.getByRole("dialog", { name: "Похоже на повторный звонок" });
  await expect(repeat).toBeVisible();
  await repeat.getByRole("button", { name: "Создать ещё один" }).click();
  const created = page.getByRole("status").filter({ hasText: /Заказ №\d+ создан/ });
  await expect(created).toBeVisible();
  const id = Number(/№(\d+)/.exec((await created.textContent()) ?? "")?.[1]);
  await expect(phoneInput).toHaveValue("");
  await expect(phoneInput).toBeFocused();

  // On the board: free (no moderation for the dispatcher's own orders), at the quoted price.
  await page.goto("/orders");
  const row = page.getByTestId("order-grid").locator(`.grid-row[data-order-id="${id}"]`);
  await expect(row).toHaveAttribute("data-state", "FREE");
  await expect(row.locator(".cell-amount")).toHaveText(quoted);
  await row.click();
  const panel = page.getByTestId("order-panel");
  await expect(panel).toContainText("Диспетчер");
  await expect(panel).toContainText("Третий подъезд");
  await expect(panel).toContainText("подъезд 3");
  await expect(panel).toContainText("Речной вокзал");
  await expect(rowByPhone(page, phone)).toHaveCount(2);
});

test("the form says what is missing instead of failing silently", async ({ page }) => {
  await signIn(page, "DISPATCHER");
  await page.goto("/orders/new");
  await page.locator('input[name="phone"]').press("Enter");
  await expect(page.locator('input[name="phone"]')).toHaveAttribute("aria-invalid", "true");
  await page.locator('input[name="phone"]').fill("+7 916 000-00-01");
  await page.locator('input[name="pickup-street"]').fill("Несуществующая улица");
  await page.locator('input[name="pickup-house"]').fill("1");
  await expect(page.getByTestId("estimate")).toContainText("Адрес не найден");
  await page.locator('input[name="pickup-house"]').press("Enter");
  await expect(page.getByTestId("create-error")).toContainText("Адрес не найден");
});

// Found by CI: a fast typist's street and Tab took the suggestion the list still showed for the text before
// ("ул. Ленина" became "ул. Мира"). The new text's suggestions are held back here, as on a slow night's server.
test("Tab and Enter take a suggestion only from the list of what is typed now", async ({ page }) => {
  await signIn(page, "DISPATCHER");
  // goto waits for the page's script (e2e/support/fixtures.ts): typed before it, "Мир" got no suggestions on a busy CI machine.
  await page.goto("/orders/new");
  const street = page.locator('input[name="pickup-street"]');
  await street.focus();
  await page.keyboard.type("Мир");
  const options = page.getByRole("listbox", { name: "Улица или место" }).getByRole("option");
  await expect(options.first()).toHaveText(/Мир/);

  const streets = /\/api\/trpc\/[^?]*reference\.streets/;
  let held = 0;
  await page.route(streets, async (route) => {
    held += 1;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue().catch(() => undefined);
  });
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Ленин");
  // The old list is still on screen while the new one loads; Tab leaves the typed text as it is.
  await expect(options.first()).toHaveText(/Мир/);
  await page.keyboard.press("Tab");
  await expect(street).toHaveValue("Ленин");
  await expect(page.locator('input[name="pickup-house"]')).toBeFocused();
  await expect.poll(() => held).toBeGreaterThan(0);
  // Back in the field once the new list has come, Enter takes its first suggestion.
  await street.focus();
  await expect(options.first()).toHaveText(/Ленин/);
  const first = (await options.first().locator("span").first().textContent()) ?? "";
  await page.keyboard.press("Enter");
  await expect(street).toHaveValue(first);
  await page.unroute(streets);
});
