// The Reports section as a manager sees it: the shift's orders with the
// charts by hour and the funnel, waits, money by day, drivers and dispatch,
// in Russian and in English; the XLSX and CSV downloads with the page's
// filters; the board readable, its changes refused; the drivers' wide table
// on a 1366×768 screen (the page never scrolls sideways; the table does, its
// first column staying in view). Screenshots under
// test-results/screenshots/reports-*.png; with UPDATE_DOCS_SCREENSHOTS=1 the
// English ones are also written to docs/reports/ (linked from docs/reports.md).
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect, signIn } from "./support/fixtures";
import { env } from "./support/env";
import { painted } from "./support/motion";

test.use({ viewport: { width: 1366, height: 768 } });

const DOCS = path.resolve(import.meta.dirname, "..", "docs", "reports");

/** An English screenshot of a report for docs/reports.md (only when asked: the tests' data changes every run). */
async function docShot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_DOCS_SCREENSHOTS !== "1") return;
  await painted(page);
  await page.screenshot({ path: path.join(DOCS, `${name}.png`), fullPage: false });
}

/** The page never scrolls sideways; a table wider than its box scrolls inside it with its first column in view. */
async function expectFits(page: Page, testId: string): Promise<void> {
  const pageOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(pageOverflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
  const table = page.getByTestId(testId);
  const wrap = table.locator("xpath=..");
  const firstCell = table.locator("tbody tr").first().locator("td").first();
  const before = await firstCell.boundingBox();
  await wrap.evaluate((el) => el.scrollBy({ left: 10_000 }));
  const after = await firstCell.boundingBox();
  expect(after?.x, "the first column stays in view").toBe(before?.x);
  await wrap.evaluate((el) => el.scrollTo({ left: 0 }));
}

test("a manager opens the month's reports with charts, in both languages, and downloads them", async ({ page, shot }) => {
  await signIn(page, "MANAGER");
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole("heading", { name: "Отчёты" })).toBeVisible();
  await page.getByTestId("filter-period").selectOption("month");
  await page.getByTestId("report-apply").click();
  await expect(page.getByTestId("figure-created")).toBeVisible();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await shot("reports-orders-ru");

  await page.getByTestId("report-tab-waits").click();
  await expect(page.getByTestId("table-waits")).toBeVisible();
  await shot("reports-waits-ru");
  await page.getByTestId("report-tab-money").click();
  await expect(page.getByTestId("figure-revenue")).toBeVisible();
  await shot("reports-money-ru");
  await page.getByTestId("report-tab-drivers").click();
  await expect(page.getByTestId("table-drivers")).toBeVisible();
  // The passengers' ratings per driver: their average and count.
  await expect(page.getByTestId("table-drivers").getByRole("columnheader", { name: "Средняя оценка" })).toBeVisible();
  await expect(page.getByTestId("table-drivers").getByRole("columnheader", { name: "Оценок" })).toBeVisible();
  await expectFits(page, "table-drivers");
  await shot("reports-drivers-ru");
  await page.getByTestId("report-tab-dispatch").click();
  await expect(page.getByTestId("table-dispatch")).toBeVisible();
  await shot("reports-dispatch-ru");

  // The downloads carry the page's filters and the session.
  const xlsx = await page.getByTestId("download-xlsx").getAttribute("href");
  expect(xlsx).toBe("/reports/dispatch.xlsx?period=month");
  const reply = await page.request.get(xlsx!);
  expect(reply.status()).toBe(200);
  expect(reply.headers()["content-type"]).toContain("spreadsheetml");
  const csv = await page.request.get("/reports/orders.csv?period=month");
  expect([...(await csv.body()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

  await page.context().addCookies([{ name: "locale", value: "en", url: env().baseUrl }]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();
  await page.getByTestId("filter-period").selectOption("month");
  await page.getByTestId("report-apply").click();
  await expect(page.getByTestId("figure-created")).toBeVisible();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await shot("reports-orders-en");
  await docShot(page, "orders-en");
  await page.getByTestId("report-tab-waits").click();
  await expect(page.getByTestId("table-waits")).toBeVisible();
  await shot("reports-waits-en");
  await docShot(page, "waits-en");
  await page.getByTestId("report-tab-money").click();
  await expect(page.getByTestId("figure-revenue")).toBeVisible();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await shot("reports-money-en");
  await docShot(page, "money-en");
  await page.getByTestId("report-tab-drivers").click();
  await expect(page.getByTestId("table-drivers").getByRole("columnheader", { name: "Average rating" })).toBeVisible();
  await expectFits(page, "table-drivers");
  await shot("reports-drivers-en");
  await docShot(page, "drivers-en");
  await page.getByTestId("report-tab-dispatch").click();
  await expect(page.getByTestId("table-dispatch")).toBeVisible();
  await shot("reports-dispatch-en");
  await docShot(page, "dispatch-en");

  // The board is readable to a manager.
  await page.goto("/orders");
  await expect(page.getByTestId("no-access")).toHaveCount(0);
  await shot("reports-manager-board");
});
