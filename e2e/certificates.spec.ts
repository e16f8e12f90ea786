// The exchange operator's certificate authority in the console: the root and
// an intermediate authority are created, a participant user's PKCS#12 file is
// issued and downloaded (and opens with its password), then revoked. Its own
// server, with the demo exchange's participants.
import { readFileSync } from "node:fs";
import path from "node:path";
import forge from "node-forge";
import { test, expect, type Page } from "@playwright/test";
import { startServer, type StartedServer } from "../tests/support/server";

test.describe.configure({ mode: "serial" });

let server: StartedServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer({ env: { DEMO_EXCHANGE: "1", LANGUAGE: "ru" } });
});

test.afterAll(async () => {
  await server?.stop();
});

async function signInAsOperator(page: Page): Promise<void> {
  await page.goto(`${server.url}/signin`);
  await page.locator('input[name="email"]').fill(server.adminEmail);
  await page.locator('input[name="password"]').fill(server.adminPassword);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
}

test("authorities created, a participant's certificate issued as a PKCS#12 file and revoked", async ({ page }, testInfo) => {
  await signInAsOperator(page);
  await page.goto(`${server.url}/certificates`);
  await expect(page.getByRole("heading", { name: "Сертификаты доступа" })).toBeVisible();
  await expect(page.getByText("Корневого центра ещё нет")).toBeVisible();

  await page.getByRole("button", { name: "Создать корневой центр" }).first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Создать корневой центр" }).click();
  await expect(page.getByTestId("certificates-table")).toContainText("Корневой");

  await page.getByRole("button", { name: "Создать промежуточный центр" }).first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Создать промежуточный центр" }).click();
  await expect(page.getByTestId("certificates-table")).toContainText("Промежуточный");

  await page.getByRole("button", { name: "Выпустить сертификат" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('input[name="userName"]').fill("Иван Петров");
  await dialog.locator('input[name="password"]').fill("p12-password");
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Выпустить сертификат" }).click();
  const file = await downloading;
  const saved = path.join(testInfo.outputDir, file.suggestedFilename());
  await file.saveAs(saved);
  await expect(page.getByTestId("issued-certificate")).toContainText(file.suggestedFilename());

  // The file opens with its password and holds the user's certificate and the chain.
  const der = forge.util.createBuffer(readFileSync(saved).toString("binary"));
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), "p12-password");
  const certBag = forge.pki.oids.certBag as string;
  const certs: forge.pkcs12.Bag[] = p12.getBags({ bagType: certBag })[certBag] ?? [];
  const names = certs.map((bag) => forge.util.decodeUtf8(String(bag.cert?.subject.getField("CN")?.value ?? "")));
  expect(names).toContain("Иван Петров");
  expect(certs.length).toBeGreaterThanOrEqual(2);
  await page.getByRole("button", { name: "Готово" }).click();

  const row = page.getByTestId("certificates-table").locator("tr", { hasText: "Иван Петров" });
  await expect(row).toContainText("Действует");
  await page.screenshot({ path: path.join(testInfo.project.outputDir, "screenshots", "certificates.png") });
  page.once("dialog", (confirm) => void confirm.accept());
  await row.getByRole("button", { name: "Отозвать" }).click();
  await expect(row).toContainText("Отозван");
});

test("other roles cannot reach the certificate authority", async () => {
  const res = await fetch(`${server.url}/api/trpc/certificates.list`);
  expect(res.status).toBe(401);
});
