// The passenger's SMS in the console: the order card lists what the
// passenger was sent (an order confirmed through the dispatch API: the
// "assigned" SMS, sent by the log provider of the test server), and the
// administrator's editor of the texts per service, event and language shows
// the parts and encoding as one types and refuses an unknown placeholder.
// Screenshots in Russian and English.
import { test, expect, signInAdmin } from "./support/fixtures";
import { env } from "./support/env";
import { apiCreateOrder, uniquePhone } from "./support/console-api";
import { rowByPhone, waitLive } from "./support/board";

async function confirm(uuid: string): Promise<void> {
  const e = env();
  const res = await fetch(`${e.baseUrl}/api/order/status`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ api_key: e.apiKey, uuid, code: "2" }),
  });
  expect(((await res.json()) as { status: string }).status).toBe("DONE");
}

test("the order card shows the passenger's SMS; the editor of the texts, in both languages", async ({ page, shot }) => {
  const e = env();
  const phone = uniquePhone();
  let created: { uuid: string } | undefined;
  for (let driver = 110; driver < 140 && !created; driver++) {
    created = await apiCreateOrder(e.baseUrl, e.apiKey, { phone, street: "ул. Ленина", house: "2", moderation_required: "no", driver_id: String(driver) }).catch(() => undefined);
  }
  expect(created).toBeDefined();
  await confirm(created!.uuid);
  await signInAdmin(page);
  for (const lang of ["ru", "en"] as const) {
    await page.context().addCookies([{ name: "locale", value: lang, url: e.baseUrl }]);
    await page.goto("/");
    await waitLive(page);
    const filter = page.getByRole("searchbox").first();
    if (await filter.count()) await filter.fill(phone.slice(-7));
    await rowByPhone(page, phone).click();
    const card = page.getByTestId("order-sms");
    await expect(card.locator('li[data-event="ASSIGNED"]')).toBeVisible({ timeout: 30_000 });
    await expect(card.locator('li[data-event="ASSIGNED"]')).toHaveAttribute("data-state", "SENT");
    await expect(card).toContainText(lang === "ru" ? "отправлено" : "sent");
    await card.scrollIntoViewIfNeeded();
    await shot(`sms-order-card-${lang}`);

    await page.goto("/reference/sms");
    const editor = page.getByTestId("sms-templates");
    await expect(editor).toBeVisible();
    const assigned = editor.locator('[data-language="ru"][data-event="ASSIGNED"] textarea');
    await expect(assigned).toHaveValue(/%plate%/);
    await assigned.fill("К вам едет %car%, %plate% %secret%");
    await expect(editor.locator('[data-language="ru"][data-event="ASSIGNED"] [role="alert"]')).toContainText("secret");
    await expect(editor.locator('[data-language="ru"][data-event="ASSIGNED"] button.btn-primary')).toBeDisabled();
    await shot(`sms-templates-${lang}`);
  }
});
