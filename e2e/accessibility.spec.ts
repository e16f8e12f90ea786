// Issue 34: an accessibility check (axe-core) of every console page finds no
// serious or critical violation. The board is checked with an order's card
// open too. Each violation is printed with its nodes, so a failure says what
// to fix.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { test, expect, signInAdmin } from "./support/fixtures";
import { waitLive } from "./support/board";

const PAGES = [
  "/orders",
  "/orders/new",
  "/map",
  "/drivers",
  "/clients",
  "/balances",
  "/exchange-desk",
  "/certificates",
  "/reference/services",
  "/reference/regions",
  "/reference/rates",
  "/reference/extras",
  "/reference/streets",
  "/reference/drivers",
  "/reference/blacklist",
  "/reference/distribution",
  "/reference/ages",
  "/reference/sms",
  "/settings/users",
  "/settings/api-keys",
  "/settings/audit",
  "/settings/roads",
];

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

test("every console page: no serious or critical accessibility violation", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInAdmin(page);
  await waitLive(page);
  const found: string[] = [];
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.locator("main h1, main h2").first()).toBeVisible();
    await page.waitForLoadState("networkidle").catch(() => undefined);
    for (const v of await seriousViolations(page)) found.push(`${path}: ${v}`);
  }
  // The board with an order's card open.
  await page.goto("/orders");
  await page.locator(".grid-row[data-order-id]").first().click();
  await expect(page.getByTestId("order-panel")).toBeVisible();
  for (const v of await seriousViolations(page)) found.push(`/orders (card open): ${v}`);
  // The stands' dialog (parking queues from the console).
  await page.keyboard.press("Escape");
  await page.getByTestId("stands-open").click();
  await expect(page.getByTestId("stand-queues")).toBeVisible();
  for (const v of await seriousViolations(page)) found.push(`/orders (stands' dialog): ${v}`);
  console.log(found.join("\n"));
  expect(found).toEqual([]);
});
