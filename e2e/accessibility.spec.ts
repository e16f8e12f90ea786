// Issue 34: an accessibility check (axe-core) of every console page finds no
// serious or critical violation. The board is checked with an order's card
// open too. Each violation is printed with its nodes, so a failure says what
// to fix.
import AxeBuilder from "@axe-core/playwright";
import type { Cookie, Page } from "@playwright/test";
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

// One test a page, each in its own time: on a slow machine a single test
// over 24 pages ran past any sensible timeout, and a failure named no page.
// The administrator signs in once; each test starts from that session's cookies.
let session: Cookie[] = [];

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  if (session.length > 0) return page.context().addCookies(session);
  await signInAdmin(page);
  session = await page.context().cookies();
});

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator("main h1, main h2").first()).toBeVisible();
  // The page's first data; a page with a live stream never idles, so not waited for longer.
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
}

function report(found: string[]): void {
  if (found.length > 0) console.log(found.join("\n"));
  expect(found).toEqual([]);
}

for (const path of PAGES) {
  test(`${path}: no serious or critical accessibility violation`, async ({ page }) => {
    await open(page, path);
    report((await seriousViolations(page)).map((v) => `${path}: ${v}`));
  });
}

test("the board with an order's card open, and the stands' dialog", async ({ page }) => {
  await open(page, "/orders");
  await waitLive(page);
  const found: string[] = [];
  await page.locator(".grid-row[data-order-id]").first().click();
  await expect(page.getByTestId("order-panel")).toBeVisible();
  for (const v of await seriousViolations(page)) found.push(`/orders (card open): ${v}`);
  // The stands' dialog (parking queues from the console).
  await page.keyboard.press("Escape");
  await page.getByTestId("stands-open").click();
  await expect(page.getByTestId("stand-queues")).toBeVisible();
  for (const v of await seriousViolations(page)) found.push(`/orders (stands' dialog): ${v}`);
  report(found);
});
