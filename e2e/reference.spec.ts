// Reference data for administrators, each change a round trip through the
// page and the database: a rate's price typed in roubles (kept in kopecks),
// a region's polygon edited in the coordinate table and by dragging a
// vertex, with the simple-polygon check in the page and on the server, a
// street with houses, a driver with a car (enable, disable), the phone
// blacklist (an order from a listed phone is refused), an extra, a service;
// every change in the audit log. Changes that other tests could notice are
// put back at the end.
import { test, expect, signIn } from "./support/fixtures";
import { env, userOf } from "./support/env";
import { signInApi, trpc, uniquePhone, type Session } from "./support/console-api";
import { untilStill } from "./support/motion";
import type { RateRow } from "./support/rate-row";

const suffix = () => Date.now().toString(36).slice(-5);

async function admin(): Promise<Session> {
  return signInApi(env().baseUrl, userOf("ADMIN").email, userOf("ADMIN").password);
}


test("services and rates: roubles typed, kopecks kept, audited", async ({ page, shot }) => {
  const { baseUrl } = env();
  const session = await admin();
  await signIn(page, "ADMIN");
  await page.goto("/reference");
  await expect(page).toHaveURL(/\/reference\/services$/);
  await expect(page.getByTestId("services-table")).toContainText("Эконом");
  await shot("reference-services");

  // A service's description.
  const service = page.getByTestId("services-table").locator('tr[data-service="Комфорт"]').first();
  await service.getByRole("button", { name: "Изменить" }).click();
  const dialog = page.getByRole("dialog");
  const oldDescription = await dialog.locator('input[name="description"]').inputValue();
  await dialog.locator('input[name="description"]').fill(`Просторные машины ${suffix()}`);
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(service).toContainText("Просторные машины");
  await service.getByRole("button", { name: "Изменить" }).click();
  await dialog.locator('input[name="description"]').fill(oldDescription);
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog).toHaveCount(0);

  // A rate's pick-up price: 123,45 ₽ typed, 12345 kopecks stored.
  await page.getByRole("link", { name: "Тарифы" }).click();
  await expect(page).toHaveURL(/\/reference\/rates$/);
  const first = page.getByTestId("rates-table").locator("tbody tr").first();
  await expect(first).toBeVisible();
  const rates = await trpc<RateRow[]>(baseUrl, session, "referenceAdmin.rates", {});
  const original = rates.data![0]!;
  await first.getByRole("button", { name: "Изменить" }).click();
  await expect(dialog.locator('input[name="name"]')).toHaveValue(original.name);
  await dialog.locator('input[name="pickUp"]').fill("abc");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Подача");
  await dialog.locator('input[name="pickUp"]').fill("123,45");
  // One hour without the other is refused.
  await dialog.locator('input[name="startHour"]').fill("22");
  await dialog.locator('input[name="endHour"]').fill("");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Часы");
  await dialog.locator('input[name="startHour"]').fill(original.startHour === null ? "" : String(original.startHour));
  await dialog.locator('input[name="endHour"]').fill(original.endHour === null ? "" : String(original.endHour));
  await shot("reference-rate-dialog");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(first.locator('[data-field="pickUp"]')).toContainText("123,45");
  await page.reload();
  await expect(page.getByTestId("rates-table").locator("tbody tr").first().locator('[data-field="pickUp"]')).toContainText("123,45");
  const saved = await trpc<RateRow[]>(baseUrl, session, "referenceAdmin.rates", {});
  expect(saved.data!.find((r) => r.id === original.id)?.pickUp).toBe(12345);
  await shot("reference-rates");

  // Put the price back (other tests price orders).
  const { id, ...rest } = original;
  const back = await trpc(baseUrl, session, "referenceAdmin.saveRate", { id, ...pick(rest) }, "mutation");
  expect(back.error).toBeUndefined();

  const audit = await trpc<{ items: Array<{ action: string; entityId: string | null; details: { changes?: string[] } }> }>(baseUrl, session, "admin.audit", { action: "referenceAdmin.saveRate", limit: 10 });
  expect(audit.data!.items.some((r) => r.entityId === String(original.id) && r.details.changes?.includes("pickUp"))).toBe(true);
});

function pick(r: Omit<RateRow, "id">) {
  return {
    serviceId: r.serviceId,
    queueId: r.queueId,
    name: r.name,
    isBasic: r.isBasic,
    pickUp: r.pickUp,
    minFare: r.minFare,
    kmCost: r.kmCost,
    kmStart: r.kmStart,
    minuteCost: r.minuteCost,
    standCost: r.standCost,
    freeStandTime: r.freeStandTime,
    waitCost: r.waitCost,
    freeWaitTime: r.freeWaitTime,
    roundTo: r.roundTo,
    startHour: r.startHour,
    endHour: r.endHour,
  };
}

interface RegionRow {
  id: number;
  cityId: number;
  name: string;
  nameEn: string;
  polygon: Array<[number, number]>;
}

test("regions: vertices typed and dragged, a crossing polygon refused, the change saved", async ({ page, shot }) => {
  const { baseUrl } = env();
  const session = await admin();
  const regions = await trpc<RegionRow[]>(baseUrl, session, "referenceAdmin.regions", {});
  const region = regions.data![0]!;
  await signIn(page, "ADMIN");
  await page.goto("/reference/regions");
  await page.getByTestId("region-list").locator(`[data-region="${region.name}"]`).click();
  const form = page.getByTestId("region-form");
  await expect(form.locator('input[name="name"]')).toHaveValue(region.name);
  await expect(page.getByTestId("vertex-table").locator("tbody tr")).toHaveCount(region.polygon.length);
  await expect(page.locator("[data-vertex]")).toHaveCount(region.polygon.length);
  await expect(page.getByTestId("polygon-check")).toHaveText(/корректен/);

  // A vertex typed: a little to the north.
  const lat1 = Number((region.polygon[0]![0] + 0.0005).toFixed(6));
  await form.locator('input[name="lat-1"]').fill(String(lat1));
  await expect(form).toContainText("Есть несохранённые изменения");
  await expect(page.getByTestId("polygon-check")).toHaveText(/корректен/);
  await form.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Сохранено" })).toBeVisible();
  await expect(form).not.toContainText("Есть несохранённые изменения");
  await page.reload();
  await page.getByTestId("region-list").locator(`[data-region="${region.name}"]`).click();
  await expect(form.locator('input[name="lat-1"]')).toHaveValue(String(lat1));

  // Dragging a vertex on the map changes its coordinates.
  const lat2 = await form.locator('input[name="lat-2"]').inputValue();
  const vertex = page.locator('[data-vertex="2"]');
  // The map glides to the region after it is chosen: wait until the marker stands still.
  await untilStill(vertex);
  const box = (await vertex.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 6, box.y + box.height / 2 - 9, { steps: 6 });
  await page.mouse.move(box.x + box.width / 2 + 12, box.y + box.height / 2 - 18, { steps: 6 });
  await page.mouse.up();
  await expect(form.locator('input[name="lat-2"]')).not.toHaveValue(lat2);
  await expect(page.getByTestId("polygon-check")).toHaveText(/корректен/);
  await shot("reference-regions");

  // Vertex 1 thrown across the region makes sides cross: refused here, and by the server.
  const c = region.polygon.reduce((a, p) => [a[0] + p[0] / region.polygon.length, a[1] + p[1] / region.polygon.length], [0, 0]);
  const v1 = region.polygon[0]!;
  const across: [number, number] = [Number((c[0] + 2 * (c[0] - v1[0])).toFixed(6)), Number((c[1] + 2 * (c[1] - v1[1])).toFixed(6))];
  await form.locator('input[name="lat-1"]').fill(String(across[0]));
  await form.locator('input[name="lon-1"]').fill(String(across[1]));
  await expect(page.getByTestId("polygon-check")).toContainText("пересекаются");
  await expect(form.getByRole("button", { name: "Сохранить" })).toBeDisabled();
  await expect(page.locator(".vx-bad").first()).toBeVisible();
  await shot("reference-regions-invalid");
  const crossing = [across, ...region.polygon.slice(1)];
  const refused = await trpc(baseUrl, session, "referenceAdmin.saveRegion", { id: region.id, cityId: region.cityId, name: region.name, nameEn: region.nameEn, polygon: crossing }, "mutation");
  expect(refused.error?.code).toBe("BAD_REQUEST");
  expect(refused.error?.message).toContain("пересекаются");
  await form.getByRole("button", { name: "Отменить изменения" }).click();
  await expect(form.locator('input[name="lat-1"]')).toHaveValue(String(lat1));

  // Put the region back.
  const back = await trpc(baseUrl, session, "referenceAdmin.saveRegion", { id: region.id, cityId: region.cityId, name: region.name, nameEn: region.nameEn, polygon: region.polygon }, "mutation");
  expect(back.error).toBeUndefined();
  const audit = await trpc<{ items: Array<{ entityId: string | null; details: { ok: boolean } }> }>(baseUrl, session, "admin.audit", { action: "referenceAdmin.saveRegion", limit: 10 });
  expect(audit.data!.items.filter((r) => r.entityId === String(region.id)).map((r) => r.details.ok)).toEqual(expect.arrayContaining([true, false]));
});

test("streets: a new street with houses is found by the dispatchers' search; houses added", async ({ page, shot }) => {
  const { baseUrl } = env();
  const name = `Испытателей ${suffix()}`;
  await signIn(page, "ADMIN");
  await page.goto("/reference/streets");
  await page.getByRole("button", { name: "Новая улица" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('input[name="name"]').fill(name);
  await dialog.locator('textarea[name="houses"]').fill("1\n3\n5к1 55.7512 37.6123");
  await shot("reference-street-dialog");
  await dialog.getByRole("button", { name: "Создать" }).click();
  await expect(dialog).toHaveCount(0);
  const details = page.getByTestId("street-details");
  await expect(details).toContainText(`ул. ${name}`);
  await expect(details.getByTestId("houses-table").locator("tbody tr")).toHaveCount(3);
  await details.locator('textarea[name="newHouses"]').fill("7, 9");
  await details.getByRole("button", { name: "Добавить дома" }).click();
  await expect(details.getByTestId("houses-table").locator("tbody tr")).toHaveCount(5);
  await page.getByRole("searchbox").fill(name.split(" ")[0]!);
  await expect(page.getByTestId("streets-list")).toContainText(`ул. ${name}`);
  await shot("reference-streets");

  // Twice: refused.
  await page.getByRole("button", { name: "Новая улица" }).click();
  await dialog.locator('input[name="name"]').fill(name);
  await dialog.getByRole("button", { name: "Создать" }).click();
  await expect(dialog.getByRole("alert")).toContainText("уже есть");
  await dialog.getByRole("button", { name: "Отмена" }).click();

  // The dispatchers' street search finds it at once.
  const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
  const found = await trpc<Array<{ fullName: string }>>(baseUrl, dispatcher, "reference.streets", { q: name });
  expect(found.data?.map((s) => s.fullName)).toContain(`ул. ${name}`);
});

test("drivers: add with a car, edit, disable and enable; a taken call sign is refused", async ({ page, shot }) => {
  const callSign = `E${suffix()}`;
  await signIn(page, "ADMIN");
  await page.goto("/reference/drivers");
  await page.getByRole("button", { name: "Новый водитель" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('input[name="callSign"]').fill(callSign);
  await dialog.locator('input[name="phone"]').fill(`+${uniquePhone()}`);
  await dialog.locator('input[name="lastName"]').fill("Испытатель");
  await dialog.locator('input[name="firstName"]').fill("Пётр");
  await dialog.locator(".chip").first().click();
  await dialog.locator('input[name="brand"]').fill("Lada");
  await dialog.locator('input[name="model"]').fill("Vesta");
  await dialog.locator('input[name="color"]').fill("белый");
  await dialog.locator('input[name="regNumber"]').fill("е777ее77");
  await shot("reference-driver-dialog");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole("searchbox").fill(callSign);
  const row = page.locator(`tr[data-driver="${callSign}"]`);
  await expect(row).toContainText("Lada Vesta");
  await expect(row).toContainText("Е777ЕЕ77");
  await expect(row).toContainText("Работает");

  await row.getByRole("button", { name: "Изменить" }).click();
  await dialog.locator('input[name="model"]').fill("Largus");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(row).toContainText("Lada Largus");

  page.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: "Отключить" }).click();
  await expect(row).toContainText("Отключён");
  await row.getByRole("button", { name: "Включить" }).click();
  await expect(row).toContainText("Работает");
  // A key for the driver's app, shown once.
  await row.getByRole("button", { name: "Ключ приложения" }).click();
  await expect(page.getByTestId("driver-app-key")).toContainText("da_");
  await page.getByRole("button", { name: "Готово" }).click();
  await shot("reference-drivers");

  await page.getByRole("button", { name: "Новый водитель" }).click();
  await dialog.locator('input[name="callSign"]').fill(callSign);
  await dialog.locator('input[name="phone"]').fill(`+${uniquePhone()}`);
  await dialog.locator('input[name="firstName"]').fill("Двойник");
  await dialog.locator('input[name="brand"]').fill("Kia");
  await dialog.locator('input[name="model"]').fill("Rio");
  await dialog.locator('input[name="color"]').fill("серый");
  await dialog.locator('input[name="regNumber"]').fill("А001АА77");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog.getByRole("alert")).toContainText("уже занят");
});

test("the blacklist refuses orders from a listed phone; extras priced in roubles", async ({ page, shot }) => {
  const { baseUrl } = env();
  const phone = uniquePhone();
  await signIn(page, "ADMIN");
  await page.goto("/reference/blacklist");
  await page.locator('input[name="phone"]').fill(`8${phone.slice(1)}`);
  await page.locator('input[name="reason"]').fill("Ложные вызовы");
  await page.getByRole("button", { name: "Добавить в список" }).click();
  const row = page.locator(`tr[data-phone="+${phone}"]`); // stored in E.164
  await expect(row).toContainText("Ложные вызовы");
  await shot("reference-blacklist");

  const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
  const refused = await trpc(baseUrl, dispatcher, "orders.create", { phone, pickup: { street: "пр-т Мира", house: "1" } }, "mutation");
  expect(refused.error?.domainCode).toBe("BLACKLISTED");

  page.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: "Убрать" }).click();
  await expect(row).toHaveCount(0);
  const allowed = await trpc<{ id: number }>(baseUrl, dispatcher, "orders.create", { phone, pickup: { street: "пр-т Мира", house: "1" } }, "mutation");
  expect(allowed.error).toBeUndefined();
  const order = await trpc<{ version: number }>(baseUrl, dispatcher, "orders.get", { id: allowed.data!.id });
  await trpc(baseUrl, dispatcher, "orders.move", { orderId: allowed.data!.id, to: "DONE_OPERATOR_REJECTED", expectedVersion: order.data!.version, reason: "e2e" }, "mutation");

  // An extra of a service.
  const code = `E2E_${suffix().toUpperCase()}`;
  await page.getByRole("link", { name: "Доп. услуги" }).click();
  await page.getByRole("button", { name: "Новая доп. услуга" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('select[name="serviceId"]').selectOption({ index: 1 });
  await dialog.locator('input[name="code"]').fill(code);
  await dialog.locator('input[name="name"]').fill("Перевозка лыж");
  await dialog.locator('input[name="nameEn"]').fill("Ski rack");
  await dialog.locator('input[name="price"]').fill("149,90");
  await dialog.getByRole("button", { name: "Сохранить" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator(`tr[data-extra="${code}"]`)).toContainText("149,9");
  await shot("reference-extras");

  // In English.
  await page.context().addCookies([{ name: "locale", value: "en", url: baseUrl }]);
  await page.goto("/reference/regions");
  await expect(page.getByRole("link", { name: "Regions" })).toBeVisible();
  await page.getByTestId("region-list").locator("button").first().click();
  await expect(page.getByTestId("polygon-check")).toHaveText(/valid/);
  await shot("reference-regions-en");
});
