// The region hint (GET /driver-app/v1/hint, server/dispatch/hint-service.ts,
// issue 30) on a server of its own: the coverage rule (core/hint.ts) on
// live data. A free car some five minutes' drive from thirty recent pickups, no other car
// in town, is sent to one of them; a car standing among them gets none;
// while an order waits without a car longer than the rule's guard nobody is
// steered, and the hint comes back once it is gone. A driver off shift or on
// a break gets null; a call without a key is refused in the driver
// interface's error form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedServer } from "../support/server";
import { Console, DEFAULT_SETTINGS, DriverApp, dispatchApi, openDispatchWorld, postOrderAt, type DispatchWorld } from "../support/dispatch-world";
import { COVERAGE_RULE } from "../../server/dispatch/core/hint";
import { haversineMetres } from "../../server/geo/distance";

let world: DispatchWorld | undefined;
let server: StartedServer;
let console_: Console;
let drivers: DriverApp[];
let serviceId: number;
let phone = 9165553100;

interface Point {
  lat: number;
  lon: number;
}
interface Hint {
  region_id: number;
  region_name: string;
  target: Point;
  drive_minutes: number;
  drive_seconds: number;
  reason: { rule: string; pickups: number; window_minutes: number; saves_seconds: number; recent_orders: number; free_drivers: number };
}

async function hintOf(app: DriverApp): Promise<Hint | null> {
  return (await app.ok("GET", "hint")).hint as Hint | null;
}

async function order(at: Point): Promise<string> {
  phone += 1;
  return postOrderAt(server, at, String(phone), serviceId);
}

async function cancel(uuid: string): Promise<void> {
  const reply = await dispatchApi(server.url, server.apiKey, "POST", "cancel_order", { uuid, reason: "the hint test's demand" });
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
}

beforeAll(async () => {
  world = await openDispatchWorld({
    DISPATCH_TICK_MS: "500",
    DISPATCH_HINT_MIN_IDLE_SECONDS: "0",
    // Every call computes the city afresh: each step below sees the world it arranged.
    DISPATCH_HINT_REFRESH_SECONDS: "0",
  });
  ({ server, console: console_ } = world);
  const city = world.city!;
  drivers = city.apps;
  serviceId = city.serviceId;
  // Nobody is offered the suite's orders: the one left open waits without a car.
  await console_.mutate("dispatch.saveSettings", { ...DEFAULT_SETTINGS, serviceId, mode: "MANUAL" });
}, 300_000);

afterAll(() => world?.close());

describe("the region hint", () => {
  it("sends a far free car to the recent pickups, not a car among them, nobody while an order waits without a car", async () => {
    const [spare, local, resting] = drivers as [DriverApp, DriverApp, DriverApp];
    const map = (await spare.ok("GET", "map")) as { city: Point; streets: Array<{ houses: Array<[string, number, number]> }> };
    const houses = map.streets.flatMap((s) => s.houses.map(([, lat, lon]) => ({ lat, lon })));
    // The demand: thirty orders at the houses within 400 m of the house nearest the city's centre.
    const hub = houses.reduce((a, b) => (haversineMetres(b, map.city) < haversineMetres(a, map.city) ? b : a));
    const near = houses.filter((h) => haversineMetres(h, hub) < 400);
    const pickups = Array.from({ length: 30 }, (_, i) => near[i % near.length]!);
    // The spare car: a house some four to eight minutes' drive away along the roads (within the rule's ten).
    const drive = async (from: Point) => ((await spare.ok("GET", "route", undefined, { from_lat: String(from.lat), from_lon: String(from.lon), to_lat: String(hub.lat), to_lon: String(hub.lon) })) as { on_roads: boolean; seconds: number });
    let far: Point | undefined;
    for (const h of houses.filter((x) => haversineMetres(x, hub) > 800 && haversineMetres(x, hub) < 3_000).sort((a, b) => Math.abs(haversineMetres(a, hub) - 1_300) - Math.abs(haversineMetres(b, hub) - 1_300)).slice(0, 40)) {
      const r = await drive(h);
      if (r.on_roads && r.seconds >= 240 && r.seconds <= 480) {
        far = h;
        break;
      }
    }
    expect(far, "a house four to eight minutes from the hub").toBeDefined();

    // Off shift: null.
    expect(await hintOf(spare)).toBeNull();
    await spare.ok("POST", "shift/start", far);
    await spare.at(far!.lat, far!.lon);
    // On a break: null, whatever the demand.
    await resting.ok("POST", "shift/start", far);
    await resting.at(far!.lat, far!.lon);
    await resting.ok("POST", "break/start");

    // Thirty passengers by the hub (cancelled at once: demand, and no order waits without a car).
    for (const p of pickups) await cancel(await order(p));

    const hint = await hintOf(spare);
    expect(hint, "the far car's hint").not.toBeNull();
    expect(hint!.reason).toMatchObject({ rule: "coverage", window_minutes: COVERAGE_RULE.windowMinutes, free_drivers: 0 });
    expect(hint!.reason.pickups).toBeGreaterThanOrEqual(30);
    expect(hint!.reason.recent_orders).toBeGreaterThanOrEqual(1);
    expect(hint!.reason.saves_seconds).toBeGreaterThanOrEqual(COVERAGE_RULE.minGainSeconds);
    expect(hint!.drive_seconds).toBeGreaterThan(0);
    expect(hint!.drive_seconds).toBeLessThanOrEqual(COVERAGE_RULE.maxDriveSeconds);
    expect(hint!.drive_minutes).toBeGreaterThanOrEqual(1);
    // Toward one of the thirty: where the demand is, not any pickup of the seed's.
    expect(pickups.some((p) => haversineMetres(p, hint!.target) < 1), JSON.stringify(hint!.target)).toBe(true);
    expect(await hintOf(resting)).toBeNull();

    // A car standing among the pickups is where the rule wants it: no hint.
    await local.ok("POST", "shift/start", hub);
    await local.at(hub.lat, hub.lon);
    expect(await hintOf(local)).toBeNull();
    await local.ok("POST", "shift/end");
    expect(await hintOf(spare), "the far car's hint again").not.toBeNull();

    // An order waiting without a car longer than the guard: cars are short, nobody is steered.
    const waiting = await order(hub);
    await new Promise((resolve) => setTimeout(resolve, (COVERAGE_RULE.backlogSeconds + 2) * 1000));
    expect(await hintOf(spare), "no hint while an order waits").toBeNull();
    await cancel(waiting);
    expect(await hintOf(spare), "the hint back once it is gone").not.toBeNull();

    // Without a key: the driver interface's 401.
    const anonymous = await fetch(`${server.url}/driver-app/v1/hint`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: unknown }).error).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) });

    await resting.ok("POST", "break/end");
    for (const app of [spare, resting]) await app.ok("POST", "shift/end");
    // Off shift: null, whatever was computed before.
    expect(await hintOf(spare)).toBeNull();
  }, 120_000);
});
