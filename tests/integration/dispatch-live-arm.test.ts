// The live arm's short form (scripts/simulate-live.ts, docs/dispatch.md "The
// live arm"): a small day played over HTTP against a server of its own, with
// two silent drivers (on shift, then no call, the position frozen) standing
// right at the pickups, the nearest cars by far, and the demo's other drivers
// left on shift with no app. The server's liveness rules must keep them all
// out: every offer goes to the three live drivers about 1 km away.
import { describe, expect, it } from "vitest";
import { oneSeed } from "../../scripts/simulate-live";
import { demoCityRoads, nearestPlace } from "../../server/simulator/compare/roads";
import { CITY } from "../../server/simulator/compare/run";
import type { DayPlan, Passenger } from "../../server/simulator/compare/world";
import { testDb } from "../support/server";
import { freshDatabase, template } from "../reliability/support/instance";

// On PGlite only: the server it starts seeds the demo city itself (minutes on a loaded machine), and the
// liveness rules it exercises run on both databases in dispatch-liveness.test.ts (issue 35's suite time).
describe.skipIf(testDb() !== "pglite")("the live arm's short form", () => {
it("a silent driver at the pickup is never offered the order; live drivers farther away are", async () => {
  const roads = demoCityRoads({ sideMetres: CITY.sideMetres, placeCount: 500, hour: 12 });
  const pickups = [nearestPlace(roads, 7000, 7000), nearestPlace(roads, 6400, 6400)];
  // Drivers about 1 km away, one or two minutes' drive by the city's roads: the suite waits for them to reach the pickups in real time (at ×4).
  const destination = nearestPlace(roads, 7300, 7600);
  const passengers: Passenger[] = pickups.map((pickup, i) => ({ id: i + 1, at: 20 + i * 20, pickup, destination, patience: 1200, assignedPatience: 1200, boarding: 20 }));
  const plan: DayPlan = {
    passengers,
    driverStarts: [nearestPlace(roads, 7000, 8000), nearestPlace(roads, 7100, 5700), nearestPlace(roads, 6000, 7300)],
    regionOfPlace: roads.places.map(() => 1),
    minutes: 2,
  };
  const began = Date.now();
  const database = await freshDatabase();
  const result = await oneSeed(
    1,
    { seeds: [1], speedUp: 4, minutes: 2, load: "short", scale: 1, drivers: 3, perMinute: 1, silent: 2, lookSeconds: 20, db: testDb(), parallel: 1, log: (line) => { if (process.env.LIVE_ARM_LOG) console.log(`${((Date.now() - began) / 1000).toFixed(1)} s ${line}`); } },
    // On a copy of the run's seeded demo city (seeding it again took minutes of the suite).
    { plan, silentPlaces: pickups, playedOnly: true, database: { env: database.env, seeded: template() } },
  );
  expect(result.live.orders).toBe(2);
  expect(result.offers).toBeGreaterThanOrEqual(2);
  expect(result.offersToSilent).toBe(0);
  expect(result.offersToOthers).toBe(0);
  // Each order reached a live driver (accepted, or on to the radio after refusals): nobody waited on a dead phone.
  expect(result.unknown).toBe(0);
  await database.drop();
}, 900_000);
});
