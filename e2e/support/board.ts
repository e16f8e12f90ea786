// Finding orders on the board in tests.
import type { Page, Locator } from "@playwright/test";
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
