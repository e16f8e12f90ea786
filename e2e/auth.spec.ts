// Signing in per role, the language switch, and refusals for the wrong role:
// in the UI (navigation and a 403 page) and on direct tRPC calls.
import { test, expect, signIn, signInAdmin } from "./support/fixtures";
import { env, userOf, type Role } from "./support/env";
import { signInApi, trpc } from "./support/console-api";

test.describe("sign-in", () => {
  test("the sign-in page is Russian by default and switches to English", async ({ page, shot }) => {
    await page.goto("/orders");
    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByRole("heading", { name: "Вход в диспетчерскую" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "ru");
    await shot("signin-ru");

    await page.getByRole("button", { name: "EN" }).click();
    await expect(page.getByRole("heading", { name: "Sign in to dispatch" })).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "locale")?.value).toBe("en");
    await shot("signin-en");
    await page.getByRole("button", { name: "RU" }).click();
    await expect(page.getByRole("heading", { name: "Вход в диспетчерскую" })).toBeVisible();
  });

  test("a wrong password is refused with a readable message", async ({ page }) => {
    await page.goto("/signin");
    await page.locator('input[name="email"]').fill(userOf("DISPATCHER").email);
    await page.locator('input[name="password"]').fill("not-the-password");
    await page.locator('button[type="submit"]').click();
    await expect(page.getByRole("alert").filter({ hasText: "Неверная почта или пароль" })).toBeVisible();
    await expect(page).toHaveURL(/\/signin/);
  });

  test("the session cookie is httpOnly and SameSite, and sign-out ends it", async ({ page }) => {
    await signIn(page, "DISPATCHER");
    const session = (await page.context().cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");
    // 12 hours at most
    expect(session!.expires * 1000 - Date.now()).toBeLessThanOrEqual(12 * 3600 * 1000 + 60_000);

    await page.getByRole("button", { name: "Выйти" }).click();
    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByRole("status")).toContainText("Вы вышли");
    await page.goto("/orders");
    await expect(page).toHaveURL(/\/signin/);
  });
});

const HOME: Record<Role, { path: RegExp; nav: string[]; hidden: string[] }> = {
  ADMIN: { path: /\/settings\/users$/, nav: ["Справочники", "Настройки", "Балансы"], hidden: ["Заказы", "Биржа"] },
  DISPATCHER: { path: /\/orders$/, nav: ["Заказы", "Карта", "Водители", "Биржа"], hidden: ["Балансы", "Сертификаты", "Настройки"] },
  ACCOUNTANT: { path: /\/balances$/, nav: ["Балансы"], hidden: ["Заказы", "Настройки", "Биржа"] },
  EXCHANGE_OPERATOR: { path: /\/exchange-desk$/, nav: ["Биржа", "Сертификаты"], hidden: ["Заказы", "Балансы", "Настройки"] },
  MANAGER: { path: /\/reports$/, nav: ["Отчёты", "Заказы", "Карта", "Водители"], hidden: ["Балансы", "Настройки", "Биржа", "Сертификаты"] },
};

for (const role of Object.keys(HOME) as Role[]) {
  test(`${role.toLowerCase()} lands on their section and sees only their navigation`, async ({ page, shot }) => {
    await signIn(page, role);
    await expect(page).toHaveURL(HOME[role].path);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const item of HOME[role].nav) await expect(nav.getByRole("link", { name: item })).toBeVisible();
    for (const item of HOME[role].hidden) await expect(nav.getByRole("link", { name: item })).toHaveCount(0);
    await shot(`home-${role.toLowerCase()}`);
  });
}

test("the wrong role gets a refusal page, not the data", async ({ page, shot }) => {
  await signIn(page, "ACCOUNTANT");
  await page.goto("/orders");
  await expect(page.getByTestId("no-access")).toContainText("Нет доступа");
  await expect(page.getByTestId("no-access")).toContainText("Диспетчер");
  await expect(page.getByTestId("order-grid")).toHaveCount(0);
  await shot("no-access-accountant-orders");

  await page.goto("/settings/users");
  await expect(page.getByTestId("no-access")).toBeVisible();
  await expect(page.getByTestId("users-table")).toHaveCount(0);
});

test("direct tRPC calls are refused for the wrong role, and for nobody", async () => {
  const { baseUrl } = env();
  const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
  const accountant = await signInApi(baseUrl, userOf("ACCOUNTANT").email, userOf("ACCOUNTANT").password);

  const users = await trpc(baseUrl, dispatcher, "admin.users.list", undefined);
  expect(users.status).toBe(403);
  expect(users.error?.code).toBe("FORBIDDEN");
  expect(users.error?.message).toContain("Администратор");

  const createUser = await trpc(baseUrl, dispatcher, "admin.users.create", { email: "x@e2e.local", name: "X", password: "password-123", roles: ["ADMIN"] }, "mutation");
  expect(createUser.status).toBe(403);

  const board = await trpc(baseUrl, accountant, "orders.board", { filter: { group: "active" } });
  expect(board.status).toBe(403);
  expect(board.error?.code).toBe("FORBIDDEN");

  const anonymous = await trpc(baseUrl, null, "orders.board", { filter: { group: "active" } });
  expect(anonymous.status).toBe(401);
  expect(anonymous.error?.code).toBe("UNAUTHORIZED");

  const allowed = await trpc<{ items: unknown[] }>(baseUrl, dispatcher, "orders.board", { filter: { group: "active" } });
  expect(allowed.status).toBe(200);
  expect(Array.isArray(allowed.data?.items)).toBe(true);
});

test("a disabled user is out at once, even with a valid session", async ({ page }) => {
  const { baseUrl, adminEmail, adminPassword } = env();
  const admin = await signInApi(baseUrl, adminEmail, adminPassword);
  const email = `temp-${Date.now()}@e2e.local`;
  const created = await trpc<{ id: number }>(baseUrl, admin, "admin.users.create", { email, name: "Temporary", password: "temp-password-1", roles: ["DISPATCHER"] }, "mutation");
  expect(created.status).toBe(200);
  const temp = await signInApi(baseUrl, email, "temp-password-1");
  expect((await trpc(baseUrl, temp, "orders.counts", undefined)).status).toBe(200);

  await signInAdmin(page);
  await page.goto("/settings/users");
  page.once("dialog", (d) => void d.accept());
  await page.locator(`tr[data-email="${email}"]`).getByRole("button", { name: "Отключить" }).click();
  await expect(page.locator(`tr[data-email="${email}"]`)).toContainText("Отключён");

  const after = await trpc(baseUrl, temp, "orders.counts", undefined);
  expect(after.status).toBe(401);
  // and a disabled user cannot sign in again
  await expect(signInApi(baseUrl, email, "temp-password-1")).rejects.toThrow();
});
