// The client's card (issue 34) at 1366×768 in both languages: opened from an
// order's card, it shows the caller's orders (the one in progress first, a
// cancelled one with its reason), the counts and the usual addresses; an
// order number opens that order's card beside the list; a number typed in
// any form finds the same client, and text that is no phone is said so;
// "New order" starts the phone-order form with the number filled in; axe
// finds no serious or critical violation. Screenshots in both languages.
import AxeBuilder from "@axe-core/playwright";
import { test, expect, signIn } from "./support/fixtures";
import { env } from "./support/env";
import { apiCreateOrder, signInApi, trpc, uniquePhone } from "./support/console-api";
import { rowByPhone, waitLive } from "./support/board";

const WORDS = {
  ru: { title: "Карточка клиента", card: "Карточка клиента", totals: "Заказов: 2 · выполнено 0 · отменено 1", notPhone: "не номер телефона", newOrder: "Новый заказ", phoneLabel: "Телефон клиента", open: "Открыть" },
  en: { title: "Client's card", card: "Client's card", totals: "Orders: 2 · completed 0 · cancelled 1", notPhone: "is not a phone number", newOrder: "New order", phoneLabel: "Client's phone", open: "Open" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`the client's card (${lang})`, async ({ page, shot }) => {
    const w = WORDS[lang];
    const { baseUrl, apiKey } = env();
    const phone = uniquePhone();
    // Two orders of one caller: the first cancelled by the dispatcher with a reason, the second in progress.
    const first = await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1", moderation_required: "no" });
    await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Ленина", house: "4", moderation_required: "no" });
    const dispatcher = await signInApi(baseUrl, "dispatcher@e2e.local", "e2e-password-1");
    const board = await trpc<{ items: Array<{ id: number; uuid: string; version: number }> }>(baseUrl, dispatcher, "orders.board", { filter: { group: "all", q: phone.slice(-7) } });
    const cancelled = board.data?.items.find((o) => o.uuid === first.uuid);
    expect(cancelled, JSON.stringify(board.error ?? board.data)).toBeTruthy();
    const moved = await trpc(baseUrl, dispatcher, "orders.move", { orderId: cancelled!.id, to: "DONE_CANCELLED", expectedVersion: cancelled!.version, reason: "клиент передумал" }, "mutation");
    expect(moved.error).toBeUndefined();

    await page.setViewportSize({ width: 1366, height: 768 });
    await page.context().addCookies([{ name: "locale", value: lang, url: baseUrl }]);
    await signIn(page, "DISPATCHER");
    await waitLive(page);
    // From the order's card.
    await page.keyboard.press("/");
    await page.keyboard.type(phone.slice(-7));
    await rowByPhone(page, phone).first().click();
    await page.getByTestId("order-client-card").click();
    await expect(page.getByRole("heading", { level: 1, name: w.title })).toBeVisible();
    await expect(page.getByTestId("client-totals")).toHaveText(w.totals);
    const rows = page.getByTestId("client-orders").locator("tbody tr");
    await expect(rows).toHaveCount(2);
    // In progress first, then the cancelled one with its reason.
    await expect(rows.nth(1)).toHaveAttribute("data-order-id", String(cancelled!.id));
    await expect(rows.nth(1)).toContainText("клиент передумал");
    await expect(page.getByTestId("client-addresses")).toContainText("ул. Ленина 4");
    await shot(`client-card-${lang}-1366`);

    // An order number opens its card beside the list.
    await rows.nth(1).getByRole("button").click();
    await expect(page.getByTestId("order-panel")).toBeVisible();
    await expect(page.getByTestId("order-panel")).toContainText(String(cancelled!.id));
    await shot(`client-card-order-${lang}-1366`);
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
    await page.keyboard.press("Escape");

    // The number typed in another form finds the same client; text that is no phone is said so.
    const field = page.getByLabel(w.phoneLabel);
    await field.fill(`8 ${phone.slice(1, 4)} ${phone.slice(4, 7)}-${phone.slice(7, 9)}-${phone.slice(9)}`);
    await page.keyboard.press("Enter");
    // The card of the number as typed (a new address: the card starts over), the same client.
    await expect(page).toHaveURL(/phone=8(%20|\+)/);
    await expect(page.getByTestId("client-totals")).toHaveText(w.totals);
    await field.fill("позвоните мне");
    await page.getByRole("button", { name: w.open, exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: w.notPhone })).toBeVisible();

    // "New order" with the number filled in.
    await page.goto(`/clients?phone=${phone}`);
    await page.getByTestId("client-new-order").click();
    await expect(page).toHaveURL(/\/orders\/new\?phone=/);
  });
}
