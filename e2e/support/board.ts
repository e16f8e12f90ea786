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
