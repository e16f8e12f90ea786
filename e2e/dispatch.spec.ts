// Automatic dispatch in the console: an administrator adds a distribution
// rule (reference data), a dispatcher opens an order, sees the candidates
// with their arrival times, offers the order to one of them by hand (the
// attempt appears on the card), and takes it back.
import { test, expect, signIn, signInAdmin } from "./support/fixtures";
import { env, userOf } from "./support/env";
import { apiCreateOrder, signInApi, trpc, uniquePhone } from "./support/console-api";
import { rowByPhone, waitLive } from "./support/board";

test("a distribution rule, then the dispatcher's override on the order card", async ({ page, shot }) => {
  const { baseUrl, apiKey, adminEmail, adminPassword } = env();
  const phone = uniquePhone();
  await apiCreateOrder(baseUrl, apiKey, { phone: `8${phone.slice(1)}`, street: "ул. Мира", house: "1", moderation_required: "no", need_notify: "no" });
  const admin = await signInApi(baseUrl, adminEmail, adminPassword);
  const board = await trpc<{ items: Array<{ id: number }> }>(baseUrl, admin, "orders.board", { filter: { group: "all", q: phone.slice(1) }, limit: 10 });
  const orderId = board.data!.items[0]!.id;
  const details = await trpc<{ region: { id: number; name: string } | null; service: { id: number }; lat: number; lon: number }>(baseUrl, admin, "orders.get", { id: orderId });
  const region = details.data!.region!;
  // A driver whose app is alive, on shift at the pickup: silent drivers (no app, a stale position) are no candidates
  // (server/dispatch/liveness.ts), and the demo's seeded drivers have no app running here.
  const dispatcherApi = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
  const offShift = await trpc<{ items: Array<{ id: number; active: boolean }> }>(baseUrl, dispatcherApi, "drivers.list", { state: "OFFLINE", limit: 100 });
  const live = (offShift.data?.items ?? []).find((d) => d.active)!;
  const issued = await trpc<{ key: string }>(baseUrl, admin, "referenceAdmin.issueDriverKey", { driverId: live.id }, "mutation");
  const shiftStart = await fetch(`${baseUrl}/driver-app/v1/shift/start`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${issued.data!.key}` },
    body: JSON.stringify({ lat: details.data!.lat, lon: details.data!.lon }),
  });
  expect(shiftStart.status).toBe(200);

  // The administrator: dispatcher-only distribution for the order's region.
  await signInAdmin(page);
  await page.goto("/reference/distribution");
  await page.getByRole("button", { name: "Добавить правило" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('select[name="serviceId"]').selectOption(String(details.data!.service.id));
  await dialog.locator('select[name="regionId"]').selectOption(String(region.id));
  await dialog.locator('select[name="mode"]').selectOption("MANUAL");
  await dialog.locator('input[name="acceptSeconds"]').fill("45");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Правило сохранено" })).toBeVisible();
  const row = page.getByTestId("distribution-rules").locator("tr", { hasText: region.name });
  await expect(row).toContainText("Только диспетчер");
  await shot("dispatch-distribution-rules");

  // The dispatcher: the order card's distribution.
  await page.context().clearCookies();
  await signIn(page, "DISPATCHER");
  await waitLive(page);
  await rowByPhone(page, phone).click();
  const card = page.getByTestId("order-dispatch");
  await expect(card).toBeVisible();
  await expect(card).toContainText("Заказ ещё никому не предлагали");
  const candidates = card.getByTestId("order-candidates");
  await expect(candidates.locator("tr").first()).toContainText("Подача");
  const callSign = (await candidates.locator("tr").first().locator("td").first().textContent())!.trim();
  await candidates.locator("tr").first().getByRole("button", { name: "Предложить" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Заказ предложен водителю" })).toBeVisible();
  const attempts = card.getByTestId("order-attempts");
  await expect(attempts).toContainText(callSign);
  await expect(attempts).toContainText("ждёт ответа");
  await expect(attempts).toContainText("диспетчер");
  await shot("dispatch-order-card-offered");
  await card.getByRole("button", { name: "Забрать у водителя" }).click();
  await expect(attempts).toContainText("снято");

  const rules = await trpc<Array<{ id: number; regionId: number | null }>>(baseUrl, admin, "dispatch.settings", undefined);
  const mine = rules.data!.find((r) => r.regionId === region.id)!;
  expect((await trpc(baseUrl, admin, "dispatch.deleteSettings", { id: mine.id }, "mutation")).error).toBeUndefined();
  await fetch(`${baseUrl}/driver-app/v1/shift/end`, { method: "POST", headers: { authorization: `Bearer ${issued.data!.key}` } });
});
