// Issue 34 at the phone order form: a caller who rings again while their car
// is on its way is asked about before a second order is saved (the same
// phone, a pickup near one of its active orders), in both languages and both
// screen sizes; a number too short to dial says so.
import { test, expect, signIn } from "./support/fixtures";
import { env } from "./support/env";
import { apiCreateOrder, uniquePhone } from "./support/console-api";
import { rowByPhone, waitLive } from "./support/board";

const SCREENS = [
  { lang: "ru" as const, width: 1366, height: 768, form: "Новый заказ по телефону", title: "Похоже на повторный звонок", keep: "Не создавать", create: "Создать ещё один", created: /Заказ №\d+ создан/, tooShort: "Слишком короткий номер" },
  { lang: "en" as const, width: 1920, height: 1080, form: "New phone order", title: "This looks like a repeat call", keep: "Do not create", create: "Create another", created: /Order #\d+ created/, tooShort: "The number is too short" },
];

for (const screen of SCREENS) {
  test(`a repeat call is asked about before a second order is saved (${screen.lang}, ${screen.width}×${screen.height})`, async ({ page, shot }) => {
    const { baseUrl, apiKey } = env();
    const phone = uniquePhone();
    await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1", moderation_required: "no" });
    await page.setViewportSize({ width: screen.width, height: screen.height });
    await page.context().addCookies([{ name: "locale", value: screen.lang, url: baseUrl }]);
    await signIn(page, "DISPATCHER");
    await waitLive(page);
    await page.keyboard.press("n");
    const form = page.getByRole("form", { name: screen.form });
    await expect(form.locator('input[name="phone"]')).toBeFocused();

    // A five-digit number: too short, not "required".
    await page.keyboard.type("12345");
    await page.keyboard.press("Enter");
    await expect(form.locator('input[name="phone"]')).toHaveAttribute("aria-invalid", "true");
    await expect(form).toContainText(screen.tooShort);

    await form.locator('input[name="phone"]').fill(`8${phone.slice(1)}`);
    await form.locator('input[name="pickup-street"]').fill("ул. Мира");
    await form.locator('input[name="pickup-house"]').fill("1");
    await form.locator('input[name="pickup-house"]').press("Enter");
    const dialog = page.getByRole("dialog", { name: screen.title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("duplicates")).toContainText("ул. Мира, 1");
    // The safe answer has the focus: Enter by habit saves nothing.
    await expect(dialog.getByRole("button", { name: screen.keep })).toBeFocused();
    await shot(`repeat-call-${screen.lang}-${screen.width}`);
    await page.keyboard.press("Enter");
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: screen.created })).toHaveCount(0);

    // Asked again, and this time another order is wanted.
    await form.locator('input[name="pickup-house"]').press("Enter");
    await dialog.getByRole("button", { name: screen.create }).click();
    await expect(page.getByRole("status").filter({ hasText: screen.created })).toBeVisible();
    await page.goto("/orders");
    await expect(rowByPhone(page, phone)).toHaveCount(2);
  });
}
