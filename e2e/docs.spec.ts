// The integrators' reference at /docs in the browser: rendered by Scalar from
// the served OpenAPI document, bundled (no request leaves this instance: no
// CDN, no fonts, no telemetry), within the content security policy, with the
// conventions beside it; try-it-out calls this instance with the integrator's key.
import { test, expect } from "./support/fixtures";
import { env } from "./support/env";

test("/docs renders the reference and the conventions, fetching nothing from outside, within the CSP", async ({ page, shot }) => {
  const { baseUrl } = env();
  const foreign: string[] = [];
  const violations: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(baseUrl) && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) foreign.push(r.url());
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.goto("/docs");
  await expect(page.getByText("Create an order from address fields", { exact: false }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Estimate the price of a trip", { exact: false }).first()).toBeVisible();
  await expect(page.locator("#times")).toContainText("pre_order_time_utc");
  await expect(page.locator("#callback-signature")).toBeVisible();
  await shot("docs");
  expect(foreign).toEqual([]);
  expect(violations).toEqual([]);
});
