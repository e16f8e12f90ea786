// The console's driver picker and a silent driver (docs/dispatch.md, "Silent
// drivers are not candidates"): the demo's drivers on shift have no app
// running, so automatic dispatch passes them over. A dispatcher who types such
// a driver's call sign and presses Enter is warned with the reason and asked;
// the order stays put until Enter is pressed again.
import { test, expect, signIn } from "./support/fixtures";
import { env } from "./support/env";
import { apiCreateOrder, signInApi, trpc, uniquePhone } from "./support/console-api";
import { moderationItem, rowByPhone, waitLive } from "./support/board";
import { givableDrivers } from "./support/givable-drivers";

interface Assignable {
  callSign: string;
  state: string;
  dispatch: { away: boolean; stalePosition: boolean; silentApp: boolean };
}

test("the driver picker warns before giving an order to a silent driver, and gives it on the second Enter", async ({ page, shot }) => {
  const { baseUrl, apiKey } = env();
  await signIn(page, "DISPATCHER");
  await waitLive(page);
  const session = await signInApi(baseUrl, "dispatcher@e2e.local", "e2e-password-1");
  const phone = uniquePhone();
  await apiCreateOrder(baseUrl, apiKey, { phone, street: "ул. Мира", house: "1" });
  const item = moderationItem(page, phone);
  await expect(item).toBeVisible();
  const id = Number(await rowByPhone(page, phone).getAttribute("data-order-id"));
  const order = await trpc<{ service: { id: number } }>(baseUrl, session, "orders.get", { id });
  const serviceId = order.data!.service.id;
  // A free driver automatic dispatch passes over (its app silent) whose call sign the search matches alone.
  const list = await trpc<Assignable[]>(baseUrl, session, "reference.assignableDrivers", { serviceId });
  let silent: Assignable | undefined;
  const givable = new Set(await givableDrivers(session, serviceId));
  for (const d of (list.data ?? []).filter((x) => x.state === "FREE" && x.dispatch.silentApp && givable.has(x.callSign))) {
    const matches = await trpc<unknown[]>(baseUrl, session, "reference.assignableDrivers", { serviceId, q: d.callSign });
    if (matches.data?.length === 1) {
      silent = d;
      break;
    }
  }
  expect(silent, "a free driver with a silent app").toBeDefined();

  await item.getByRole("button", { name: "Водителю…" }).click();
  const dialog = page.getByRole("dialog");
  await page.keyboard.type(silent!.callSign);
  await expect(dialog.locator("select.driver-list option")).toHaveCount(1);
  await expect(dialog.locator("select.driver-list option")).toContainText("⚠ Приложение молчит");
  const warning = dialog.getByTestId("driver-liveness-warning");
  await expect(warning).toContainText(`${silent!.callSign}: `);
  await expect(warning).toContainText("Приложение молчит");
  // Typing on drops that choice: while the new search's list is on its way (held here, as on a slow night),
  // Enter gives to nobody and says so; the old list's sole driver is not the one the longer text means.
  const search = /\/api\/trpc\/[^?]*reference\.assignableDrivers/;
  await page.route(search, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue().catch(() => undefined);
  });
  await page.keyboard.type("9");
  await expect(warning).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("alert")).toContainText("Выберите водителя");
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "ON_MODERATION");
  await page.unroute(search);
  // Back to the call sign: the sole match chooses again.
  await page.keyboard.press("Backspace");
  await expect(warning).toContainText(`${silent!.callSign}: `);
  // Enter asks instead of giving: the dialog stays, the order is still on moderation.
  await page.keyboard.press("Enter");
  await expect(warning).toContainText(`Всё равно отдать заказ ${silent!.callSign}?`);
  await expect(dialog).toBeVisible();
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "ON_MODERATION");
  await shot("picker-silent-driver");
  // Enter again: given.
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(rowByPhone(page, phone)).toHaveAttribute("data-state", "SENT_TO_DRIVER");
  await expect(rowByPhone(page, phone).locator(".cell-driver")).toHaveText(silent!.callSign);
});
