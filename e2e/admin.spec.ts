// Administration: users with roles, API keys (shown once, callback template,
// revocation that the dispatch API honours at once), and the audit log of it all.
import { test, expect, signInAdmin } from "./support/fixtures";
import { env } from "./support/env";
import { signInApi } from "./support/console-api";

test("users: create with roles; the new user can sign in to their section", async ({ page, shot }) => {
  await signInAdmin(page);
  await page.goto("/settings/users");
  await page.getByRole("button", { name: "Новый пользователь" }).click();
  const dialog = page.getByRole("dialog");
  const email = `night-${Date.now()}@e2e.local`;
  await dialog.locator('input[name="email"]').fill(email);
  await dialog.locator('input[name="name"]').fill("Ночная смена");
  await dialog.locator('input[name="password"]').fill("night-shift-1");
  await dialog.getByText("Бухгалтер").click();
  await shot("settings-users-create");
  await dialog.getByRole("button", { name: "Создать" }).click();
  const row = page.locator(`tr[data-email="${email}"]`);
  await expect(row).toContainText("Диспетчер");
  await expect(row).toContainText("Бухгалтер");
  await expect(row).toContainText("Активен");
  await shot("settings-users");

  // The same email twice is refused in the dialog.
  await page.getByRole("button", { name: "Новый пользователь" }).click();
  await dialog.locator('input[name="email"]').fill(email);
  await dialog.locator('input[name="name"]').fill("Ещё раз");
  await dialog.locator('input[name="password"]').fill("night-shift-1");
  await dialog.getByRole("button", { name: "Создать" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Конфликт");
  await dialog.getByRole("button", { name: "Отмена" }).click();
});

test("API keys: issued once, callback template checked, revocation honoured by the dispatch API", async ({ page, shot }) => {
  const { baseUrl } = env();
  await signInAdmin(page);
  await page.goto("/settings/api-keys");
  await page.getByRole("button", { name: "Выпустить ключ" }).first().click();
  const dialog = page.getByRole("dialog");
  const name = `Чат-бот ${Date.now()}`;
  await dialog.locator('input[name="name"]').fill(name);
  await dialog.locator('input[name="callbackTemplate"]').fill("not a url");
  await dialog.getByRole("button", { name: "Выпустить ключ" }).click();
  await expect(dialog.getByRole("alert")).toContainText("callbackTemplate");
  await dialog.locator('input[name="callbackTemplate"]').fill("https://bot.example/status?uuid=%uuid%&code=%status_code%");
  await dialog.getByRole("button", { name: "Выпустить ключ" }).click();
  const key = ((await page.getByTestId("issued-key").locator("code").textContent()) ?? "").trim();
  expect(key).toMatch(/^tk_/);
  // A key issued with a callback gets the secret that signs its callbacks, shown once beside it.
  await expect(page.getByTestId("callback-secret").locator("code")).toContainText("cbsec_");
  await shot("settings-api-key-issued");
  await page.getByRole("button", { name: "Готово" }).click();

  const row = page.locator(`tr[data-key-name="${name}"]`);
  await expect(row).toContainText("https://bot.example/status?uuid=%uuid%");
  await expect(row).toContainText("Действует");
  await expect(row).not.toContainText(key);
  await shot("settings-api-keys");

  const withKey = async () =>
    (await (await fetch(`${baseUrl}/api/order/pre_cost?${new URLSearchParams({ api_key: key, src_street: "ул. Мира", src_house: "1" })}`)).json()) as {
      status: string;
      error?: { code: string };
    };
  expect((await withKey()).status).toBe("DONE");

  page.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: "Отозвать" }).click();
  await expect(row).toContainText("Отозван");
  const refused = await withKey();
  expect(refused.status).toBe("ERROR");
  expect(refused.error?.code).toBe("BAD_API_KEY");
});

test("the audit log records operator actions, refused ones too", async ({ page, shot }) => {
  await expect(signInApi(env().baseUrl, env().adminEmail, "wrong-password")).rejects.toThrow();
  await signInAdmin(page);
  await page.goto("/settings/audit");
  const table = page.getByTestId("audit-table");
  await expect(table.locator('tr[data-action="admin.apiKeys.issue"]').first()).toBeVisible();
  await expect(table.locator('tr[data-action="admin.apiKeys.revoke"]').first()).toBeVisible();
  await expect(table.locator('tr[data-action="admin.users.create"]').first()).toBeVisible();
  await expect(table.locator('tr[data-action="auth.signIn"]').first()).toBeVisible();
  await expect(table.locator('tr[data-action="auth.signInFailed"]').first()).toBeVisible();
  // Refused actions are kept with their reason (the bad callback template above).
  await page.getByRole("searchbox").fill("admin.apiKeys");
  await expect(table.locator("tr.row-refused").first()).toContainText("BAD_PARAMETER");
  await page.getByRole("searchbox").fill("");
  await shot("settings-audit");
});

test("the road network page shows each city's roads", async ({ page, shot }) => {
  await signInAdmin(page);
  await page.goto("/settings/roads");
  const table = page.getByTestId("roads-table");
  const moscow = table.locator("tbody tr").filter({ hasText: "Москва" });
  await expect(moscow).toBeVisible();
  // The demo's main city: thousands of segments, some one-way, kept in this instance's memory.
  const cells = moscow.locator("td");
  expect(Number(await cells.nth(2).innerText())).toBeGreaterThan(5_000);
  expect(Number(await cells.nth(3).innerText())).toBeGreaterThan(0);
  await expect(cells.nth(5)).not.toHaveText("нет");
  await shot("settings-roads");
});

test("every page of the console renders (screenshots)", async ({ page, shot }) => {
  await signInAdmin(page);
  for (const [path, name] of [
    ["/orders", "page-orders"],
    ["/orders/new", "page-new-order"],
    ["/drivers", "page-drivers"],
    ["/map", "page-map"],
    ["/balances", "page-balances"],
    ["/exchange-desk", "page-exchange"],
    ["/reference", "page-reference"],
  ] as const) {
    await page.goto(path);
    await expect(page.locator("main h1").first()).toBeVisible();
    if (path === "/orders") await expect(page.locator(".grid-row[data-order-id]").first()).toBeVisible();
    if (path === "/drivers") await expect(page.locator("table tbody tr").first()).toBeVisible();
    await shot(name);
  }
  await page.goto("/drivers");
  await expect(page.locator("table tbody tr").first()).toBeVisible();
  await page.getByRole("button", { name: "EN" }).click();
  await expect(page.locator("main h1").first()).toHaveText("Drivers");
  await shot("page-drivers-en");
  await page.goto("/orders");
  await expect(page.locator("main h1").first()).toHaveText("Orders");
  await expect(page.locator(".grid-row[data-order-id]").first()).toBeVisible();
  await expect(page.getByTestId("moderation-queue")).toContainText("On moderation");
  await shot("page-orders-en");
  await page.getByRole("button", { name: "RU" }).click();
  await expect(page.locator("main h1").first()).toHaveText("Заказы");
});
