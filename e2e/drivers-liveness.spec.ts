// The drivers automatic dispatch passes over (docs/dispatch.md, "Silent
// drivers are not candidates"): the demo's drivers on shift have no app
// running, so the "Not offered" tab lists them with the reason.
import { test, expect, signInAdmin } from "./support/fixtures";

test("drivers: the Not offered tab lists drivers on shift whose app is silent, with the reason", async ({ page, shot }) => {
  await signInAdmin(page);
  await page.goto("/drivers");
  await expect(page.locator("table tbody tr").first()).toBeVisible();
  const tab = page.getByRole("tab", { name: /Без предложений/ });
  await tab.click();
  await expect(tab).toHaveAttribute("aria-selected", "true");
  const first = page.locator("table tbody tr").first();
  await expect(first).toBeVisible();
  await expect(first).toContainText("Приложение молчит");
  await shot("drivers-not-offered");
});
