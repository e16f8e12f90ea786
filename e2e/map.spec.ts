// The dispatcher's live map: drivers as markers coloured by state, a driver
// moved by their app (the driver-app interface, /driver-app/v1) moves on
// the map live, a click opens the driver's card, regions carry their counts,
// and an order's route is drawn. No tile server here: the plain base map.
import { test, expect, signIn } from "./support/fixtures";
import { env, userOf } from "./support/env";
import { signInApi, trpc, uniquePhone } from "./support/console-api";
import { waitLive } from "./support/board";
import { untilStill } from "./support/motion";

interface DriverRow {
  id: number;
  callSign: string;
  state: string;
  active: boolean;
  positionAt: Date | null;
}

async function driverApp(baseUrl: string, key: string, path: string, body: Record<string, unknown>) {
  const res = await fetch(`${baseUrl}/driver-app/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

test("drivers move live on the map, the card opens on a click, regions count, a route is drawn", async ({ page, shot }) => {
  const { baseUrl, adminEmail, adminPassword } = env();
  const dispatcher = await signInApi(baseUrl, userOf("DISPATCHER").email, userOf("DISPATCHER").password);
  const admin = await signInApi(baseUrl, adminEmail, adminPassword);

  // A free driver of the demo city with a position, and a fresh app key for them (shown once, from the console).
  const list = await trpc<{ items: DriverRow[] }>(baseUrl, dispatcher, "drivers.list", { state: "FREE", limit: 100 });
  const driver = list.data?.items.find((d) => d.active && d.positionAt && /^\d+$/.test(d.callSign));
  expect(driver, "a free demo driver").toBeTruthy();
  const issued = await trpc<{ key: string; callSign: string }>(baseUrl, admin, "referenceAdmin.issueDriverKey", { driverId: driver!.id }, "mutation");
  expect(issued.error).toBeUndefined();
  const key = issued.data!.key;

  await signIn(page, "DISPATCHER");
  await page.goto("/map");
  await waitLive(page);
  const marker = page.locator(`.drv[data-driver="${driver!.callSign}"]`);
  await expect(marker).toHaveAttribute("data-state", "FREE");
  await expect(page.locator(".drv").first()).toBeVisible();
  expect(await page.locator(".drv").count()).toBeGreaterThan(20);
  await expect(page.locator('.drv[data-state="BUSY"]').first()).toBeAttached();
  // Regions with their counts of free cars and waiting orders, on the plain base map (no tiles).
  await expect(page.locator(".rg-label").first()).toBeVisible();
  expect(await page.locator(".rg-label").count()).toBeGreaterThan(3);
  await expect(page.locator(".map-note")).toContainText("MAP_TILE_URL");
  await expect(page.locator(".leaflet-tile")).toHaveCount(0);
  await shot("map-overview");

  // The driver's app goes on shift where the driver stands, then reports a new position.
  const lat0 = Number(await marker.getAttribute("data-lat"));
  const lon0 = Number(await marker.getAttribute("data-lon"));
  await driverApp(baseUrl, key, "shift/start", { lat: lat0, lon: lon0 });
  // Look at the driver closely, so that a move of a few hundred metres shows.
  await page.locator(`[data-driver-item="${driver!.callSign}"]`).click();
  const card = page.getByTestId("driver-card");
  await expect(card).toContainText(driver!.callSign);
  await page.getByRole("button", { name: "Закрыть карточку" }).click();
  await untilStill(marker);
  const before = await marker.boundingBox();
  const lat1 = Number((lat0 + 0.004).toFixed(6));
  const lon1 = Number((lon0 + 0.006).toFixed(6));
  const started = Date.now();
  await driverApp(baseUrl, key, "position", { lat: lat1, lon: lon1, speed: 32, bearing: 45 });
  await expect(marker).toHaveAttribute("data-lat", String(lat1));
  console.log(`live map latency: ${Date.now() - started} ms from POST /driver-app/v1/position to the marker`);
  await expect(marker).toHaveAttribute("data-lon", String(lon1));
  const after = await marker.boundingBox();
  expect(before && after).toBeTruthy();
  // North-east: up and to the right on the screen.
  expect(after!.y).toBeLessThan(before!.y - 5);
  expect(after!.x).toBeGreaterThan(before!.x + 5);

  // A click on the marker: the card with car, call sign, phone, balance and the new position.
  await marker.click();
  await expect(card).toContainText(driver!.callSign);
  await expect(card).toContainText("Машина");
  await expect(card).toContainText("Телефон");
  await expect(card.getByTestId("driver-balance")).toContainText("₽");
  await expect(card.getByTestId("driver-position")).toContainText(lat1.toFixed(5));
  await expect(card.locator("[data-state]").first()).toHaveAttribute("data-state", "FREE");
  await shot("map-driver-card");

  // An order given to this driver becomes their current order; its route is drawn on the map.
  const created = await trpc<{ id: number }>(
    baseUrl,
    dispatcher,
    "orders.create",
    { phone: uniquePhone(), pickup: { street: "пр-т Мира", house: "1" }, destination: { street: "Ж/д вокзал Казанский", house: "" }, driverCallSign: driver!.callSign },
    "mutation",
  );
  expect(created.error, JSON.stringify(created.error)).toBeUndefined();
  const orderId = created.data!.id;
  await expect(card.getByTestId("driver-current-order")).toContainText(`№${orderId}`, { timeout: 10_000 });
  await expect(card.locator("[data-state]").first()).toHaveAttribute("data-state", "BUSY");
  await expect(marker).toHaveAttribute("data-state", "BUSY");
  await card.getByRole("button", { name: "Маршрут на карте" }).click();
  await expect(page.getByTestId("route-chip")).toContainText(`№${orderId}`);
  await expect(page.locator("[data-route-point]")).toHaveCount(2);
  await expect(page.locator('[data-route-point="1"]')).toHaveText("A");
  // Drawn along the streets, with its length and time by road.
  await expect(page.getByTestId("route-roads")).toContainText("км");
  await shot("map-route");

  // Hiding the free cars leaves the busy ones.
  await page.getByRole("button", { name: "Закрыть карточку" }).click();
  await page.locator('[data-legend="FREE"]').click();
  await expect(page.locator('.drv[data-state="FREE"]')).toHaveCount(0);
  await expect(page.locator('.drv[data-state="BUSY"]').first()).toBeAttached();
  await page.locator('[data-legend="FREE"]').click();

  // Back off line: the driver's order is given back first (by the dispatcher), then the shift ends.
  const order = await trpc<{ version: number }>(baseUrl, dispatcher, "orders.get", { id: orderId });
  await trpc(baseUrl, dispatcher, "orders.move", { orderId, to: "DONE_OPERATOR_REJECTED", expectedVersion: order.data!.version, reason: "e2e map" }, "mutation");
});

test("the map in English", async ({ page, shot }) => {
  await signIn(page, "DISPATCHER");
  await page.context().addCookies([{ name: "locale", value: "en", url: env().baseUrl }]);
  await page.goto("/map");
  await expect(page.getByRole("heading", { name: "Map", exact: true })).toBeVisible();
  await expect(page.locator('[data-legend="FREE"]')).toContainText("Free");
  await expect(page.locator(".rg-label").first()).toBeVisible();
  await shot("map-en");
});
