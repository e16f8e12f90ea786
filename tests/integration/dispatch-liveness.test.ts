// Silent drivers are not candidates (server/dispatch/liveness.ts, issue 30),
// over the product's interfaces on a server of its own: a driver whose
// position is older than DISPATCH_POSITION_MAX_AGE_SECONDS is never offered
// the order (its app is alive, and it is the nearest); a driver who lets
// DISPATCH_AWAY_AFTER_TIMEOUTS offers in a row time out is set away — the
// driver app's /me and the console's drivers list say so, and reports of the
// same spot do not bring the driver back — until the car moves. And the
// scarcity caps on the server's own rounds (server/dispatch/core/scarcity.ts):
// with free orders at least four times the free cars, a car beyond
// DISPATCH_DEEP_SCARCE_RADIUS_KM (default 2) is not offered them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedServer } from "../support/server";
import { Console, DEFAULT_SETTINGS, DriverApp, dispatchApi, offset, openDispatchWorld, placeOrderAt, waitFor, type DispatchWorld } from "../support/dispatch-world";

let world: DispatchWorld | undefined;
let server: StartedServer;
let console_: Console;
let drivers: DriverApp[];
let serviceId: number;
let centre: { lat: number; lon: number };
let phone = 9165550900;

const POSITION_MAX_AGE = 6;

interface Liveness {
  offered: boolean;
  away: boolean;
  away_since: string | null;
  stale_position: boolean;
  silent_app: boolean;
}

async function liveness(app: DriverApp): Promise<Liveness> {
  return ((await app.ok("GET", "me")).driver as { dispatch: Liveness }).dispatch;
}

async function order(at: { lat: number; lon: number }): Promise<{ uuid: string; id: number }> {
  phone += 1;
  return placeOrderAt(server, console_, at, String(phone), serviceId);
}

async function attempts(orderId: number) {
  return (await console_.query<{ attempts: Array<{ callSign: string; state: string }> }>("dispatch.order", { orderId })).attempts;
}

async function cancel(uuid: string) {
  await dispatchApi(server.url, server.apiKey, "POST", "cancel_order", { uuid, reason: "the test is over" });
}

/** Keeps a driver's position fresh (the same spot) while `during` runs, as a live app does. */
async function reporting<T>(app: DriverApp, at: { lat: number; lon: number }, during: () => Promise<T>): Promise<T> {
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      await app.at(at.lat, at.lon);
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  try {
    return await during();
  } finally {
    stop = true;
    await loop;
  }
}

beforeAll(async () => {
  world = await openDispatchWorld({ DISPATCH_TICK_MS: "200", DISPATCH_POSITION_MAX_AGE_SECONDS: String(POSITION_MAX_AGE), DISPATCH_AWAY_AFTER_TIMEOUTS: "2" });
  ({ server, console: console_ } = world);
  const city = world.city!;
  drivers = city.apps;
  serviceId = city.serviceId;
  centre = city.centre;
  // One offer per order and driver, and more attempts than drivers: an order left without candidates stays FREE.
  await console_.mutate("dispatch.saveSettings", { ...DEFAULT_SETTINGS, serviceId, acceptSeconds: 5, attempts: 10 });
}, 300_000);

afterAll(() => world?.close({ printDispatchLog: true }));

describe("silent drivers", () => {
  it("a driver with a stale position is never offered the order, though nearest and with a live app", async () => {
    const [stale, fresh] = drivers as [DriverApp, DriverApp];
    const near = offset(centre, 50);
    const far = offset(centre, 1500);
    await stale.ok("POST", "shift/start", near);
    await stale.at(near.lat, near.lon);
    // The app stays alive (calls /me) while the position ages past the setting.
    await waitFor("the position stale", async () => (await liveness(stale)).stale_position, POSITION_MAX_AGE * 4);
    expect(await liveness(stale)).toMatchObject({ offered: false, away: false, stale_position: true, silent_app: false });
    const listed = await console_.query<{ items: Array<{ callSign: string; dispatch: { stalePosition: boolean } | null }> }>("drivers.list", { notOffered: true, limit: 200 });
    expect(listed.items.find((d) => d.callSign === stale.callSign)?.dispatch?.stalePosition).toBe(true);

    await fresh.ok("POST", "shift/start", far);
    await reporting(fresh, far, async () => {
      const o = await order(centre);
      await fresh.offerOf(o.uuid);
      // The far driver refuses; the only other driver on shift is the stale one: nobody is offered it.
      await fresh.ok("POST", "offer/refuse", { uuid: o.uuid, reason: "далеко" });
      expect(await stale.offer(3)).toBeNull();
      expect((await attempts(o.id)).map((a) => [a.callSign, a.state])).toEqual([[fresh.callSign, "REFUSED"]]);
      // A fresh position makes the driver a candidate again: the order goes to them.
      await stale.at(near.lat, near.lon);
      await stale.offerOf(o.uuid);
      await stale.ok("POST", "offer/refuse", { uuid: o.uuid });
      await cancel(o.uuid);
    });
    await stale.ok("POST", "shift/end");
    await fresh.ok("POST", "shift/end");
  });

  it("a driver who lets offers time out in a row is set away; reporting the same spot keeps them away, moving brings them back", async () => {
    const [, , sleepy] = drivers as [DriverApp, DriverApp, DriverApp];
    const spot = offset(centre, 100);
    await sleepy.ok("POST", "shift/start", spot);
    await reporting(sleepy, spot, async () => {
      for (let i = 0; i < 2; i++) {
        const o = await order(centre);
        await sleepy.offerOf(o.uuid);
        // No answer: the deadline passes.
        await waitFor("the timeout", async () => (await attempts(o.id)).some((a) => a.state === "TIMED_OUT"), 20);
        await cancel(o.uuid);
      }
      const state = await liveness(sleepy);
      expect(state).toMatchObject({ offered: false, away: true, stale_position: false, silent_app: false });
      expect(state.away_since).not.toBeNull();
      const listed = await console_.query<{ items: Array<{ callSign: string; dispatch: { away: boolean } | null }>; notOffered: number }>("drivers.list", { notOffered: true, limit: 200 });
      expect(listed.items.find((d) => d.callSign === sleepy.callSign)?.dispatch?.away).toBe(true);
      expect(listed.notOffered).toBeGreaterThanOrEqual(1);

      // Away: the next order is not offered, whatever positions of the same spot arrive meanwhile.
      const o = await order(centre);
      expect(await sleepy.offer(3)).toBeNull();
      expect(await attempts(o.id)).toEqual([]);
      return o;
    }).then(async (o) => {
      // The car moves 300 m: the driver is back, and the order comes.
      const moved = offset(centre, 400);
      await sleepy.at(moved.lat, moved.lon);
      expect((await liveness(sleepy)).away).toBe(false);
      await sleepy.offerOf(o.uuid);
      await sleepy.ok("POST", "offer/accept", { uuid: o.uuid });
      await cancel(o.uuid);
    });
    await sleepy.ok("POST", "shift/end").catch(() => undefined);
  });

  it("an away driver comes back by starting the shift again", async () => {
    const [, , , other] = drivers as [DriverApp, DriverApp, DriverApp, DriverApp];
    const spot = offset(centre, -100);
    await other.ok("POST", "shift/start", spot);
    await reporting(other, spot, async () => {
      for (let i = 0; i < 2; i++) {
        const o = await order(centre);
        await other.offerOf(o.uuid);
        await waitFor("the timeout", async () => (await attempts(o.id)).some((a) => a.state === "TIMED_OUT"), 20);
        await cancel(o.uuid);
      }
      expect((await liveness(other)).away).toBe(true);
      await other.ok("POST", "shift/start", spot);
      expect(await liveness(other)).toMatchObject({ away: false, offered: true });
      const o = await order(centre);
      await other.offerOf(o.uuid);
      await cancel(o.uuid);
    });
    await other.ok("POST", "shift/end");
  });
});

describe("scarcity on the server's rounds", () => {
  it("four free orders against one free car 2.5 km away: not offered (the 2 km cap); three: offered (the 3 km radius)", async () => {
    const car = drivers[4]!;
    const spot = offset(centre, 2500);
    // The orders first, nobody on shift: they stay free (no candidate), four against the one car to come.
    const orders: Array<{ uuid: string; id: number }> = [];
    for (let i = 0; i < 4; i++) orders.push(await order(centre));
    await car.ok("POST", "shift/start", spot);
    await reporting(car, spot, async () => {
      expect(await car.offer(4)).toBeNull();
      for (const o of orders) expect(await attempts(o.id)).toEqual([]);
      // Three against one: scarce, not deeply: the settings' 3 km radius, and the car is offered one of them.
      await cancel(orders[0]!.uuid);
      const offer = await waitFor("an offer", () => car.offer(5).then((o) => o ?? undefined), 20);
      expect(orders.slice(1).map((o) => o.uuid)).toContain(offer.order.uuid);
      await car.ok("POST", "offer/refuse", { uuid: offer.order.uuid });
    });
    for (const o of orders.slice(1)) await cancel(o.uuid);
    await car.ok("POST", "shift/end");
  });
});
