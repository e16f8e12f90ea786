// Two instances dispatching at once on one PostgreSQL: both run rounds every
// 50 ms over the same free orders and free drivers, drivers answer through
// either instance (accept, refuse, or let the offer time out), and the
// database must decide every race: never one order offered to two drivers at
// once, never one driver two orders at once, every SENT_TO_DRIVER of the
// history backed by exactly one offer, every confirmed order with exactly
// one accepted offer of its driver, and no driver holding two orders.
// The embedded PGlite is one process's database: PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { TEST_DB, type TestDatabase } from "./support/db";
import { closeAgents } from "./support/http";
import { appInstance, freshDatabase, template, type AppInstance } from "./support/instance";

const DRIVERS = 24;
const ORDERS = 60;

let database: TestDatabase;
let a: AppInstance;
let b: AppInstance;
let serviceId = 0;
let centre = { lat: 0, lon: 0 };
const keys: string[] = [];

async function driverCall(base: string, key: string, method: "GET" | "POST", path: string, body?: unknown) {
  const res = await fetch(`${base}/driver-app/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(method === "POST" ? { "content-type": "application/json" } : {}) },
    body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.skipIf(TEST_DB !== "postgres")("two instances dispatching at once on one PostgreSQL", () => {
  beforeAll(async () => {
    database = await freshDatabase();
    const callSigns = await database.use(async (prisma, query) => {
      // A quiet city: the seed's open orders closed, every driver off shift; then the suite's drivers.
      await query(`UPDATE orders SET state = 'DONE_REMOVED', status_code = 91, driver_id = NULL WHERE status_code < 90`);
      await query(`UPDATE driver SET state = 'OFFLINE'`);
      const city = await prisma.city.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true, lat: true, lon: true } });
      centre = { lat: city.lat, lon: city.lon };
      const service = await prisma.service.findFirstOrThrow({ where: { cityId: city.id }, orderBy: { id: "asc" }, select: { id: true } });
      serviceId = service.id;
      const drivers = await prisma.driver.findMany({
        where: { cityId: city.id, active: true, services: { some: { serviceId } } },
        orderBy: { id: "asc" },
        take: DRIVERS,
        select: { id: true, callSign: true },
      });
      await prisma.dispatchSetting.create({
        data: { serviceId, mode: "AUTO", strategy: "GREEDY", acceptSeconds: 5, attempts: 6, radiusKm: 50, fairnessWeight: 0, minBalance: -(10n ** 12n), freeLongMinutes: 60 },
      });
      return drivers.map((d) => d.callSign);
    });
    expect(callSigns).toHaveLength(DRIVERS);
    // The drivers here let a third of their offers time out on purpose: none is set away for it (DISPATCH_AWAY_AFTER_TIMEOUTS,
    // tested in dispatch-liveness.test.ts), so that every driver stays in the races this suite is about.
    const env = { DISPATCH_TICK_MS: "50", RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0", SIMULATE: "0", DISPATCH_AWAY_AFTER_TIMEOUTS: "0" };
    a = await appInstance(database, { env });
    b = await appInstance(database, { env });
    await Promise.all([a.start(), b.start()]);
    const provisioning = provisioningKeyFor(template().appSecret);
    for (const [i, callSign] of callSigns.entries()) {
      const res = await fetch(`${a.url}/driver-app/v1/keys`, { method: "POST", headers: { authorization: `Bearer ${provisioning}`, "content-type": "application/json" }, body: JSON.stringify({ call_sign: callSign }) });
      const key = String(((await res.json()) as { app_key: string }).app_key);
      keys.push(key);
      const spot = { lat: centre.lat + ((i % 6) - 3) * 0.004, lon: centre.lon + (Math.floor(i / 6) - 2) * 0.006 };
      expect((await driverCall(i % 2 ? a.url : b.url, key, "POST", "shift/start", spot)).status).toBe(200);
    }
  }, 300_000);

  afterAll(async () => {
    closeAgents();
    await a?.stop();
    await b?.stop();
    await database?.drop();
  });

  it("offers each order to one driver at a time and each driver one order at a time, whatever the races", async () => {
    // Orders through both instances at once.
    const uuids = await Promise.all(
      Array.from({ length: ORDERS }, async (_, i) => {
        const base = i % 2 ? a.url : b.url;
        const form = new URLSearchParams({
          api_key: template().apiKey,
          phone: `8916555${String(1000 + i).padStart(4, "0")}`,
          street: "ул. Ленина",
          house: "1",
          lat: String(centre.lat + ((i % 7) - 3) * 0.003),
          lon: String(centre.lon + ((i % 5) - 2) * 0.004),
          service_id: String(serviceId),
          moderation_required: "no",
          need_notify: "no",
        });
        const res = await fetch(`${base}/api/order`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
        const reply = (await res.json()) as { status: string; response: { uuid: string } };
        expect(reply.status).toBe("DONE");
        return reply.response.uuid;
      }),
    );
    expect(uuids).toHaveLength(ORDERS);
    // Drivers answer through either instance for a while: a third accept, a third refuse, a third let it time out.
    // At least 25 s, and on a loaded machine until enough answers of each kind and more offers than
    // orders are in (at most three minutes): the races need the offers, and a slow machine makes fewer.
    const until = Date.now() + 25_000;
    const hardStop = Date.now() + 180_000;
    let accepted = 0;
    let refused = 0;
    const offersSeen = new Set<number>();
    await Promise.all(
      keys.map(async (key, i) => {
        let turn = i;
        while (Date.now() < until || ((accepted <= 10 || refused <= 10 || offersSeen.size <= ORDERS) && Date.now() < hardStop)) {
          turn += 1;
          const base = turn % 2 ? a.url : b.url;
          const got = await driverCall(base, key, "GET", "offer?wait=2");
          const offer = got.body.offer as { offer_id: number; order: { uuid: string } } | null;
          if (!offer) continue;
          offersSeen.add(offer.offer_id);
          const choice = (turn * 7 + i) % 3;
          if (choice === 0) {
            const r = await driverCall(turn % 3 ? a.url : b.url, key, "POST", "offer/accept", { uuid: offer.order.uuid });
            if (r.status === 200) {
              accepted += 1;
              // Done with it at once, free for the next.
              const uuid = offer.order.uuid;
              await driverCall(base, key, "POST", "orders/status", { uuid, status: "AWAITING_CLIENT" });
              await driverCall(base, key, "POST", "orders/status", { uuid, status: "IN_PROCESS" });
              await driverCall(base, key, "POST", "orders/complete", { uuid });
            }
          } else if (choice === 1) {
            const r = await driverCall(base, key, "POST", "offer/refuse", { uuid: offer.order.uuid, reason: "test" });
            if (r.status === 200) refused += 1;
          } else {
            await new Promise((r) => setTimeout(r, 5_500));
          }
        }
      }),
    );
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
    expect(offersSeen.size).toBeGreaterThan(ORDERS);

    await database.use(async (_prisma, query) => {
      const offers = await query<{ n: number }>(`SELECT count(*)::int AS n FROM dispatch_offer`);
      expect(offers[0]!.n).toBeGreaterThan(ORDERS);
      // Never two offers of one order, or to one driver, at the same time.
      const overlapping = (column: string) =>
        query<{ n: number }>(
          `SELECT count(*)::int AS n FROM dispatch_offer x JOIN dispatch_offer y ON x.${column} = y.${column} AND x.id < y.id
            WHERE x.sent_at < COALESCE(y.answered_at, now()) AND y.sent_at < COALESCE(x.answered_at, now())`,
        );
      expect((await overlapping("order_id"))[0]!.n).toBe(0);
      expect((await overlapping("driver_id"))[0]!.n).toBe(0);
      // Attempt numbers are given under the order's lock: never twice the same for one order.
      const twice = await query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT order_id, attempt FROM dispatch_offer WHERE source <> 'CONFIRMATION' GROUP BY 1, 2 HAVING count(*) > 1) t`);
      expect(twice[0]!.n).toBe(0);
      // Every SENT_TO_DRIVER in the histories is an offer (the suite's orders are only dispatched), or a
      // driver's own take: an accept that arrives after the other instance closed its offer as timed out
      // finds the order free again and takes it (server/driver-app/order-commands.ts), which is no offer.
      const sent = await query<{ order_id: number; moves: number; offers: number }>(
        `SELECT h.order_id, count(*)::int AS moves, (SELECT count(*)::int FROM dispatch_offer f WHERE f.order_id = h.order_id AND f.kind = 'LIVE') AS offers
           FROM order_status_change h JOIN orders o ON o.id = h.order_id
          WHERE h.to_state = 'SENT_TO_DRIVER' AND h.reason <> 'taken in the driver app' AND o.uuid = ANY($1::uuid[]) GROUP BY h.order_id`,
        [uuids],
      );
      for (const row of sent) expect(row.moves, `order ${row.order_id}`).toBe(row.offers);
      // Every order a driver took has exactly one accepted offer, of that driver...
      const taken = await query<{ id: number; driver_id: number; accepted: number; of_driver: number }>(
        `SELECT o.id, o.driver_id,
                (SELECT count(*)::int FROM dispatch_offer f WHERE f.order_id = o.id AND f.state = 'ACCEPTED') AS accepted,
                (SELECT count(*)::int FROM dispatch_offer f WHERE f.order_id = o.id AND f.state = 'ACCEPTED' AND f.driver_id = o.driver_id) AS of_driver
           FROM orders o WHERE o.uuid = ANY($1::uuid[]) AND o.state NOT IN ('FREE', 'FREE_LONG', 'ORDER_ON_RADIO', 'SENT_TO_DRIVER')`,
        [uuids],
      );
      expect(taken.length).toBeGreaterThanOrEqual(accepted);
      // ...or none, when the driver took it themselves after the offer had timed out (the case above).
      const selfTaken = new Set(
        (await query<{ order_id: number }>(`SELECT DISTINCT order_id FROM order_status_change WHERE reason = 'taken in the driver app'`)).map((r) => r.order_id),
      );
      for (const row of taken) {
        const want = row.accepted === 0 && selfTaken.has(row.id) ? [row.id, 0, 0] : [row.id, 1, 1];
        expect([row.id, row.accepted, row.of_driver]).toEqual(want);
      }
      // No driver holds two orders.
      const doubled = await query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT driver_id FROM orders WHERE driver_id IS NOT NULL AND state IN ('SENT_TO_DRIVER', 'CONFIRMED', 'AWAITING_CLIENT', 'IN_PROCESS') GROUP BY 1 HAVING count(*) > 1) t`,
      );
      expect(doubled[0]!.n).toBe(0);
    });
  }, 420_000);
});
