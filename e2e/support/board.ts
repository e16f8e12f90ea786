// Finding orders on the board in tests.
import { expect, type Page, type Locator } from "@playwright/test";
import { formatPhone } from "../../shared/phone-format";

export function phoneText(phone: string): string {
  return formatPhone(phone);
}

/** The board's row of the order with this phone (a unique phone per test). */
export function rowByPhone(page: Page, phone: string): Locator {
  return page.getByTestId("order-grid").locator(".grid-row[data-order-id]", { hasText: formatPhone(phone) });
}

export function moderationItem(page: Page, phone: string): Locator {
  return page.getByTestId("moderation-queue").locator("li", { hasText: formatPhone(phone) });
}

export async function waitLive(page: Page): Promise<void> {
  await page.locator('[data-live="live"]').waitFor();
}

/** By keyboard alone: "/" to the board's search, the number, Enter to the grid (its one row), Enter to the order's card. */
export async function openOrderByKeyboard(page: Page, phone: string): Promise<void> {
  await page.keyboard.press("/");
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(phone.slice(-7));
  // The grid under the new search (the previous one may also show a single row).
  await expect(rowByPhone(page, phone)).toBeVisible();
  await expect(page.getByTestId("order-grid").locator(".grid-row[data-order-id]")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("order-panel")).toBeVisible();
}

/**
 * After a call sign and Enter in the order's card: a driver automatic dispatch passes over (away, a stale
 * position, a silent app: every driver of the e2e server, which runs no simulated phones) is asked about
 * first, the warning naming the driver; Enter again gives the order all the same.
 */
export async function giveAnywayIfAsked(page: Page, callSign: string, given: string): Promise<void> {
  const asked = page.getByTestId("give-liveness-warning");
  const done = page.getByRole("status").filter({ hasText: `${given} ${callSign}` });
  await expect(asked.or(done).first()).toBeVisible();
  if (await asked.isVisible()) {
    await expect(asked).toContainText(callSign);
    await page.keyboard.press("Enter");
  }
  await expect(done).toBeVisible();
}
