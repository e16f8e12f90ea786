// Parking queues moved from the console at once (dispatch.queuePut and
// queueRemove through tRPC on the started server, on whichever database
// TEST_DB names): on PostgreSQL the transactions really overlap (the unit
// test's embedded database runs them one after another). Drivers put on one
// stand together, then all moved to its head together, each keep exactly one
// place and the places are 1..n without a gap or a repeat; two dispatchers
// moving the same driver to two stands at once leave the driver on one.
import { inject } from "vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../support/api";
import { signInApi, trpc, type Session } from "../../e2e/support/console-api";

interface RegionQueue {
  regionId: number;
  drivers: Array<{ driverId: number; callSign: string; position: number }>;
}

let session: Session;
let stands: number[] = [];
let drivers: Array<{ id: number; callSign: string }> = [];

async function queues(): Promise<RegionQueue[]> {
  const r = await trpc<RegionQueue[]>(baseUrl(), session, "dispatch.queues", {});
  expect(r.error).toBeUndefined();
  return r.data!;
}

beforeAll(async () => {
  session = await signInApi(baseUrl(), inject("adminEmail"), inject("adminPassword"));
  const lookups = await trpc<{ regions: Array<{ id: number; cityId: number }>; services: Array<{ id: number; cityId: number }> }>(baseUrl(), session, "reference.lookups", undefined);
  expect(lookups.error).toBeUndefined();
  const service = lookups.data!.services[0]!;
  stands = lookups.data!.regions.filter((r) => r.cityId === service.cityId).map((r) => r.id);
  expect(stands.length).toBeGreaterThanOrEqual(2);
  const list = await trpc<Array<{ id: number; callSign: string; state: string }>>(baseUrl(), session, "reference.assignableDrivers", { serviceId: service.id });
  expect(list.error).toBeUndefined();
  // Free drivers standing in no queue (other files' drivers are left alone).
  const queued = new Set((await queues()).flatMap((q) => q.drivers.map((d) => d.driverId)));
  drivers = list.data!.filter((d) => d.state === "FREE" && !queued.has(d.id)).slice(0, 8);
  expect(drivers.length, "free drivers in the demo city").toBeGreaterThanOrEqual(4);
});

afterAll(async () => {
  for (const d of drivers) await trpc(baseUrl(), session, "dispatch.queueRemove", { driverId: d.id }, "mutation");
});

describe("parking queues moved by several dispatchers at once", () => {
  it("drivers put on one stand together, then all moved to its head together: one place each, 1..n", async () => {
    const stand = stands[0]!;
    const put = await Promise.all(drivers.map((d) => trpc(baseUrl(), session, "dispatch.queuePut", { callSign: d.callSign, regionId: stand }, "mutation")));
    for (const r of put) expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    const moved = await Promise.all(drivers.map((d) => trpc(baseUrl(), session, "dispatch.queuePut", { driverId: d.id, regionId: stand, position: 1 }, "mutation")));
    for (const r of moved) expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    const all = await queues();
    const mine = drivers.map((d) => all.flatMap((q) => q.drivers.filter((p) => p.driverId === d.id).map((p) => ({ ...p, regionId: q.regionId }))));
    for (const places of mine) {
      expect(places).toHaveLength(1);
      expect(places[0]!.regionId).toBe(stand);
    }
    const positions = all.find((q) => q.regionId === stand)!.drivers.map((p) => p.position).sort((a, b) => a - b);
    expect(positions).toEqual(positions.map((_, i) => i + 1));
  });

  it("one driver moved to two stands at once stands on exactly one of them", async () => {
    const d = drivers[0]!;
    const [a, b] = [stands[0]!, stands[1]!];
    for (let round = 0; round < 5; round++) {
      const replies = await Promise.all([a, b].map((regionId) => trpc(baseUrl(), session, "dispatch.queuePut", { driverId: d.id, regionId }, "mutation")));
      for (const r of replies) expect(r.error, JSON.stringify(r.error)).toBeUndefined();
      const places = (await queues()).flatMap((q) => q.drivers.filter((p) => p.driverId === d.id).map(() => q.regionId));
      expect(places).toHaveLength(1);
      expect([a, b]).toContain(places[0]);
    }
  });
});
