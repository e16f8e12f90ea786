// The participants' control panel in the browser, opened with the PKCS#12
// file the way a participant's browser would (Playwright's client
// certificates): its own server (TLS, the generated development set) on a
// database filled beforehand (tests/support/panel-fixtures.ts). Screenshots
// of every section in Russian and English go to test-results/screenshots/.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect, type Browser, type Page, type TestInfo } from "@playwright/test";
import { prepareDatabase, TEST_DB, type PreparedDb } from "../tests/support/exchange/db";
import { fillPanelFixture, P12_PASSWORD, type PanelFixture } from "../tests/support/panel-fixtures";
import { startTlsServer, type TlsServer } from "../tests/support/tls-server";

const SECRET = "panel-e2e-secret-panel-e2e-secret-0123456789";
// The fixtures seal keys in this process with the panel server's secret; the worker's own value comes back afterwards.
const outerSecret = process.env.APP_SECRET;
process.env.APP_SECRET = SECRET;

test.describe.configure({ mode: "serial" });

let server: TlsServer;
let prepared: PreparedDb;
let fixture: PanelFixture;
let dir: string;
const pfx: Record<string, string> = {};

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dir = mkdtempSync(path.join(tmpdir(), "taxi-panel-e2e-"));
  const made = await prepareDatabase(TEST_DB, fillPanelFixture);
  prepared = made.db;
  fixture = made.result;
  for (const [name, cert] of Object.entries(fixture.certs)) {
    pfx[name] = path.join(dir, `${name}.p12`);
    writeFileSync(pfx[name], cert.pfx);
  }
  server = await startTlsServer({ appSecret: SECRET, env: { DATA_DIR: path.join(dir, "data"), LANGUAGE: "ru", ...prepared.env } });
});

test.afterAll(async () => {
  await server?.stop();
  await prepared?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (outerSecret === undefined) delete process.env.APP_SECRET;
  else process.env.APP_SECRET = outerSecret;
});

/** A browser context holding one PKCS#12 file for the panel's origin (or none). */
async function withCertificate(browser: Browser, name: string | null) {
  return browser.newContext({
    // the development server certificate is signed by our own root, which this browser does not trust
    ignoreHTTPSErrors: true,
    viewport: { width: 1440, height: 900 },
    ...(name ? { clientCertificates: [{ origin: server.panelUrl, pfxPath: pfx[name] ?? "", passphrase: P12_PASSWORD }] } : {}),
  });
}

async function shot(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: path.join(testInfo.project.outputDir, "screenshots", `${name}.png`), fullPage });
}

test("a participant's certificate opens the panel on its own data, in Russian and English", async ({ browser }, testInfo) => {
  const context = await withCertificate(browser, "a");
  const page = await context.newPage();
  await page.goto(`${server.panelUrl}/panel`);

  await expect(page.getByTestId("participant-name")).toHaveText("Такси Север");
  await expect(page.getByRole("heading", { level: 1, name: "Такси Север" })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText(/1\s?427,50\s?₽/);
  await expect(page.getByText("Анна Смирнова")).toBeVisible();
  await expect(page.locator("[data-connection]").first()).toHaveText("На связи");
  await expect(page.getByText("Такси Юг").first()).toBeVisible(); // the counterparty of a completed sale
  await expect(page.getByText("Секретная улица Юга")).toHaveCount(0);
  await shot(page, testInfo, "panel-overview-ru");

  await page.getByRole("link", { name: "Заказы", exact: true }).click();
  await expect(page).toHaveURL(/\/panel\/orders$/);
  await expect(page.getByRole("heading", { name: "Заказы на бирже" })).toBeVisible();
  await expect(page.locator(`tr[data-order="${fixture.orders.aSoldDone}"]`)).toContainText("Выполнен");
  await expect(page.locator(`tr[data-order="${fixture.orders.bSecret}"]`)).toHaveCount(0);
  await shot(page, testInfo, "panel-orders-sold-ru");
  await page.getByRole("tab", { name: /Купленные/ }).click();
  await expect(page.locator(`tr[data-order="${fixture.orders.bSoldToA}"]`)).toContainText("ул. Южная");
  await page.locator(`tr[data-order="${fixture.orders.bSoldToA}"] a`).first().click();
  await expect(page.getByRole("heading", { name: `Заказ № ${fixture.orders.bSoldToA} на бирже` })).toBeVisible();
  await expect(page.getByText("Вы купили")).toBeVisible();
  await shot(page, testInfo, "panel-order-ru");

  await page.goto(`${server.panelUrl}/panel/orders/${fixture.orders.aSoldDone}`);
  await expect(page.getByText("комиссия с продажи").first()).toBeVisible();
  await shot(page, testInfo, "panel-order-completed-ru");

  await page.getByRole("link", { name: "Баланс", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Баланс и движение средств" })).toBeVisible();
  await expect(page.locator('tr[data-kind="COMMISSION"]')).toHaveCount(1);
  await shot(page, testInfo, "panel-balance-ru");

  await page.getByRole("link", { name: "Уведомления", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Уведомления вашему серверу" })).toBeVisible();
  await expect(page.locator('tr[data-delivery="PENDING"]')).toContainText("ECONNREFUSED");
  await page.locator('tr[data-delivery="DELIVERED"] details summary').first().click();
  await shot(page, testInfo, "panel-notifications-ru");

  await page.getByRole("link", { name: "Профиль", exact: true }).click();
  await expect(page.getByTestId("profile")).toContainText("dispatch@sever.test");
  await shot(page, testInfo, "panel-profile-ru");

  // another participant's order is not there for this certificate
  const foreign = await page.goto(`${server.panelUrl}/panel/orders/${fixture.orders.bSecret}`);
  expect(foreign?.status()).toBe(404);
  await expect(page.getByText("Секретная улица Юга")).toHaveCount(0);

  await page.goto(`${server.panelUrl}/panel`);
  await page.getByRole("button", { name: "EN" }).click();
  await expect(page.getByText("Exchange balance")).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await shot(page, testInfo, "panel-overview-en");
  await page.getByRole("link", { name: "Orders", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Exchange orders" })).toBeVisible();
  await shot(page, testInfo, "panel-orders-en");
  await context.close();
});

test("the other participant's certificate shows that participant's panel", async ({ browser }, testInfo) => {
  const context = await withCertificate(browser, "b");
  const page = await context.newPage();
  await page.goto(`${server.panelUrl}/panel`);
  await expect(page.getByTestId("participant-name")).toHaveText("Такси Юг");
  await expect(page.locator("[data-connection]").first()).toHaveText("Недоступен");
  await expect(page.getByText("Анна Смирнова")).toHaveCount(0);
  await shot(page, testInfo, "panel-overview-other-participant", false);
  await context.close();
});

for (const [name, reason] of [
  [null, "NO_CERTIFICATE"],
  ["foreign", "FOREIGN_AUTHORITY"],
  ["revoked", "REVOKED"],
  ["expired", "EXPIRED"],
] as const) {
  test(`the panel is refused: ${reason}`, async ({ browser }, testInfo) => {
    const context = await withCertificate(browser, name);
    const page = await context.newPage();
    const response = await page.goto(`${server.panelUrl}/panel`);
    expect(response?.status()).toBe(403);
    expect(response?.headers()["x-panel-refusal"]).toBe(reason);
    await expect(page.getByRole("heading", { name: "Доступ не разрешён" })).toBeVisible();
    await expect(page.getByText("Такси Север")).toHaveCount(0);
    await shot(page, testInfo, `panel-refused-${reason.toLowerCase()}`, false);
    await context.close();
  });
}
