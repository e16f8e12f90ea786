// The Reports section as a manager sees it: the shift's orders with the
// charts by hour and the funnel, waits, money by day, drivers and dispatch,
// in Russian and in English; the XLSX and CSV downloads with the page's
// filters; the board readable, its changes refused. Screenshots under
// test-results/screenshots/reports-*.png.
import { test, expect, signIn } from "./support/fixtures";
import { env } from "./support/env";

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
  await page.getByTestId("report-tab-money").click();
  await expect(page.getByTestId("figure-revenue")).toBeVisible();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await shot("reports-money-en");

  // The board is readable to a manager.
  await page.goto("/orders");
  await expect(page.getByTestId("no-access")).toHaveCount(0);
  await shot("reports-manager-board");
});
