// "I'm back" keeps the shift's start (a server of its own, both databases).
// A driver set away after an offer let time out comes back with the notice's
// button, which starts the shift again (POST /shift/start): that resumes the
// open shift, so "on shift since" in the driver app (/me) and on the
// console's driver card stays the time the shift began. The demo city's
// drivers on shift have an open shift from the seed: before, they had none,
// so "I'm back" opened one at that moment and the shift seemed to begin then.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedServer } from "../support/server";
import { Console, DEFAULT_SETTINGS, DriverApp, dispatchApi, issueKey, openDispatchWorld, placeOrderAt, waitFor, type DispatchWorld } from "../support/dispatch-world";

let world: DispatchWorld | undefined;
let server: StartedServer;
let console_: Console;

interface Me {
  on_shift: boolean;
  shift_id: number | null;
  shift_started_at: string | null;
  dispatch: { away: boolean };
  service_ids: number[];
  position: { lat: number; lon: number };
}

async function me(app: DriverApp): Promise<Me> {
  return (await app.ok("GET", "me")).driver as Me;
}

beforeAll(async () => {
  world = await openDispatchWorld({ DISPATCH_TICK_MS: "200", DISPATCH_AWAY_AFTER_TIMEOUTS: "1" }, { quiet: false });
  ({ server, console: console_ } = world);
}, 300_000);

afterAll(() => world?.close());

describe("coming back from away", () => {
  it("keeps the shift's start: the seeded driver's shift, in /me and on the console's card, before and after \"I'm back\"", async () => {
    // A demo driver on shift, as the seed left them (no shift started through the app).
    const list = await console_.query<{ items: Array<{ id: number; callSign: string; active: boolean; positionAt: Date | null }> }>("drivers.list", { state: "FREE", limit: 100 });
    const driver = list.items.find((d) => d.active && d.positionAt && /^\d+$/.test(d.callSign))!;
    expect(driver, "a free demo driver").toBeTruthy();
    const app = new DriverApp(server.url, driver.callSign, await issueKey(server.url, driver.callSign));
    const before = await me(app);
    expect(before.on_shift).toBe(true);
    // On shift means an open shift, begun before this server started.
    expect(before.shift_started_at, "an open shift").not.toBeNull();
    const began = before.shift_started_at!;
    expect(Date.parse(began)).toBeLessThan(Date.now() - 60_000);
    const card = async () => (await console_.query<{ shiftStartedAt: Date | null }>("map.driver", { driverId: driver.id })).shiftStartedAt?.toISOString() ?? null;
    expect(await card()).toBe(began);

    // A dispatcher's offer let time out: with DISPATCH_AWAY_AFTER_TIMEOUTS=1 the driver is set away.
    const serviceId = before.service_ids[0]!;
    await console_.mutate("dispatch.saveSettings", { ...DEFAULT_SETTINGS, serviceId, mode: "MANUAL", acceptSeconds: 5 });
    const { uuid, id: orderId } = await placeOrderAt(server, console_, before.position, "9165550990", serviceId);
    await console_.mutate("dispatch.send", { orderId, driverId: driver.id });
    await waitFor("set away", async () => (await me(app)).dispatch.away, 30);

    // "I'm back": the notice's button starts the shift again. The same shift goes on.
    const back = (await app.ok("POST", "shift/start", { lat: before.position.lat, lon: before.position.lon })) as { shift_id: number; started_at: string; resumed: boolean };
    expect(back).toMatchObject({ shift_id: before.shift_id, started_at: began, resumed: true });
    const after = await me(app);
    expect(after).toMatchObject({ on_shift: true, shift_id: before.shift_id, shift_started_at: began, dispatch: { away: false } });
    expect(await card()).toBe(began);
    await dispatchApi(server.url, server.apiKey, "POST", "cancel_order", { uuid, reason: "the test is over" });
  });
});
