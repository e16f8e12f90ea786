// Balances for accountants: exact totals, a driver's ledger, a credit with a
// reason that shows at the top of the ledger (applied once even when sent
// twice with the form's transaction id), validation, a company's account,
// the audit row, and the page in English.
import { test, expect, signIn } from "./support/fixtures";
import { env, userOf } from "./support/env";
import { signInApi, trpc } from "./support/console-api";
import { formatKopecksExact } from "../shared/money";

interface Totals {
  drivers: { sum: bigint };
  customers: { sum: bigint };
}

test("a credit shows in the driver's ledger, the totals follow exactly, a double submit applies once", async ({ page, shot }) => {
  const { baseUrl, adminEmail, adminPassword } = env();
  const accountant = await signInApi(baseUrl, userOf("ACCOUNTANT").email, userOf("ACCOUNTANT").password);
  const before = await trpc<Totals>(baseUrl, accountant, "balances.totals", undefined);
  expect(before.error).toBeUndefined();

  await signIn(page, "ACCOUNTANT");
  await expect(page).toHaveURL(/\/balances$/);
  await expect(page.getByTestId("total-drivers")).toHaveText(formatKopecksExact(before.data!.drivers.sum, "ru"));
  await expect(page.getByTestId("total-customers")).toHaveText(formatKopecksExact(before.data!.customers.sum, "ru"));

  // A driver found by call sign.
  const list = await trpc<{ items: Array<{ id: number; callSign: string; balance: bigint }> }>(baseUrl, accountant, "balances.drivers", { q: "11", limit: 20 });
  const driver = list.data!.items.find((d) => /^\d+$/.test(d.callSign))!;
  await page.getByRole("searchbox").fill(driver.callSign);
  const row = page.locator(`tr[data-account="${driver.callSign}"]`);
  await row.click();
  const ledger = page.getByTestId("ledger");
  await expect(ledger.getByTestId("ledger-title")).toContainText(driver.callSign);
  const current = await trpc<{ account: { balance: bigint } }>(baseUrl, accountant, "balances.driverLedger", { id: driver.id, limit: 10 });
  const balance0 = current.data!.account.balance;
  await expect(ledger.getByTestId("ledger-balance")).toHaveText(formatKopecksExact(balance0, "ru"));
  await shot("balances");

  // The form checks its fields.
  await ledger.getByRole("button", { name: "Пополнить" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('input[name="amount"]').fill("сто");
  await dialog.locator(".modal-foot").getByRole("button", { name: "Пополнить" }).click();
  await expect(dialog).toContainText("Введите сумму больше нуля");
  await expect(dialog).toContainText("Укажите основание");

  // 1 500,50 ₽ with a reason.
  const reason = `Премия за смену ${Date.now()}`;
  await dialog.locator('input[name="amount"]').fill("1 500,50");
  await dialog.locator('input[name="reason"]').fill(reason);
  await expect(dialog).toContainText(`После операции: ${formatKopecksExact(balance0 + 150050n, "ru")}`);
  await shot("balances-credit-dialog");
  await dialog.locator(".modal-foot").getByRole("button", { name: "Пополнить" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: driver.callSign })).toBeVisible();

  const top = ledger.getByTestId("ledger-table").locator("tbody tr").first();
  await expect(top).toContainText(reason);
  await expect(top).toContainText(`+${formatKopecksExact(150050n, "ru")}`);
  await expect(top).toContainText("E2E accountant");
  await expect(ledger.getByTestId("ledger-balance")).toHaveText(formatKopecksExact(balance0 + 150050n, "ru"));
  await expect(page.getByTestId("total-drivers")).toHaveText(formatKopecksExact(before.data!.drivers.sum + 150050n, "ru"));
  await shot("balances-after-credit");

  // A debit from the ledger's own button.
  await ledger.getByRole("button", { name: "Списать" }).click();
  await dialog.locator('input[name="amount"]').fill("50");
  await dialog.locator('input[name="reason"]').fill(`Штраф ${reason}`);
  await dialog.locator(".modal-foot").getByRole("button", { name: "Списать" }).click();
  await expect(ledger.getByTestId("ledger-table").locator("tbody tr").first()).toContainText(formatKopecksExact(-5000n, "ru"));
  await expect(ledger.getByTestId("ledger-balance")).toHaveText(formatKopecksExact(balance0 + 145050n, "ru"));

  // The same transaction id twice (a double submit, a retry after a lost reply): applied once.
  const txnId = `e2e-${Date.now()}-double`;
  const input = { account: "driver", id: driver.id, amount: 700, direction: "credit", reason: "Двойное нажатие", txnId };
  const [a, b] = await Promise.all([
    trpc<{ applied: boolean; balance: bigint }>(baseUrl, accountant, "balances.adjust", input, "mutation"),
    trpc<{ applied: boolean; balance: bigint }>(baseUrl, accountant, "balances.adjust", input, "mutation"),
  ]);
  expect([a.data?.applied, b.data?.applied].sort()).toEqual([false, true]);
  expect(a.data?.balance).toBe(b.data?.balance);
  const entries = await trpc<{ items: Array<{ reason: string }> }>(baseUrl, accountant, "balances.driverLedger", { id: driver.id, limit: 10 });
  expect(entries.data!.items.filter((e) => e.reason === "Двойное нажатие")).toHaveLength(1);

  // The operator's actions are in the audit log.
  const admin = await signInApi(baseUrl, adminEmail, adminPassword);
  const audit = await trpc<{ items: Array<{ action: string; entityId: string | null }> }>(baseUrl, admin, "admin.audit", { action: "balances.adjust", limit: 20 });
  expect(audit.data!.items.filter((r) => r.entityId === String(driver.id)).length).toBeGreaterThanOrEqual(3);

  // Another role is refused.
  const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
  expect((await trpc(baseUrl, dispatcher, "balances.adjust", { ...input, txnId: `${txnId}-x` }, "mutation")).status).toBe(403);
});

test("a company's account: credit and ledger; the page in English", async ({ page, shot }) => {
  await signIn(page, "ACCOUNTANT");
  await page.getByRole("tab", { name: "Организации" }).click();
  const first = page.getByTestId("accounts-table").locator("tbody tr").first();
  const name = (await first.getAttribute("data-account")) ?? "";
  await first.click();
  const ledger = page.getByTestId("ledger");
  await expect(ledger.getByTestId("ledger-title")).toHaveText(name);
  await ledger.getByRole("button", { name: "Пополнить" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('input[name="amount"]').fill("25000");
  await dialog.locator('input[name="reason"]').fill("Оплата по счёту № 17");
  await dialog.locator('input[name="reason"]').press("Enter");
  await expect(ledger.getByTestId("ledger-table").locator("tbody tr").first()).toContainText("Оплата по счёту № 17");
  await shot("balances-customers");

  await page.context().addCookies([{ name: "locale", value: "en", url: env().baseUrl }]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Balances" })).toBeVisible();
  await expect(page.getByText("Drivers' balances in total")).toBeVisible();
  await page.getByRole("tab", { name: "Companies" }).click();
  await page.getByTestId("accounts-table").locator("tbody tr").first().click();
  await expect(page.getByTestId("ledger-table")).toContainText("Operator");
  await shot("balances-en");
});
