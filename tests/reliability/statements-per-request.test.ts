// The database statements the hot requests of the dispatch API cost, counted
// by the server itself (taxi_db_statements_total, docs/metrics.md) on a
// fresh instance on PostgreSQL. On these machines a round trip costs about
// what a small statement's work does, so a statement added to every order
// (a subscriber of order.created reading through the ORM, say) cuts order
// creation's throughput at once: one did, from 1.15 statements an order to
// 6.15 and from ~800 to ~150 orders a second (docs/performance.md). The
// budgets sit above what these paths cost now (measured in the benchmark,
// `DB statements / request`) and below one more statement a request; the
// instance's own background work over the same time is taken off.
// PostgreSQL only: PGlite runs no pool whose connections are counted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB, type TestDatabase } from "./support/db";
import { dispatchClient, priceToken, type DispatchClient } from "./support/dispatch";
import { Console } from "../support/dispatch-world";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { closeAgents, send } from "./support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "./support/instance";
import http from "node:http";

const METRICS_TOKEN = "statements-metrics-token-0123456789";
const REQUESTS = 200;
const CONCURRENCY = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(TEST_DB !== "postgres")("database statements per request (PostgreSQL)", () => {
  let database: TestDatabase;
  let app: AppInstance;
  let api: DispatchClient;

  beforeAll(async () => {
    database = await freshDatabase();
    app = await startInstance(database, { env: { METRICS_TOKEN, RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0", DISPATCH_ROUNDS: "no", OUTBOX_POLL_MS: "60000", EXCHANGE_JOB_INTERVAL_MS: "600000" } });
    // the start's own work (the exchange's demo participants, the first sweeps) done
    let last = await statements();
    for (let i = 0; i < 30; i += 1) {
      await sleep(500);
      const now = await statements();
      if (now - last <= 2) break;
      last = now;
    }
    api = dispatchClient(app.url, template().apiKey);
  });

  afterAll(async () => {
    closeAgents();
    await app?.stop();
    await database?.drop();
  });

  async function metricsText(): Promise<string> {
    const r = await send(app.url, { method: "GET", path: "/metrics", headers: { authorization: `Bearer ${METRICS_TOKEN}` }, timeoutMs: 10_000 });
    if (r.status !== 200) throw new Error(`/metrics answered ${r.status}`);
    return r.text;
  }
  function valueIn(text: string, name: string): number {
    const m = new RegExp(`^${name} (\\d+)`, "m").exec(text);
    if (!m) throw new Error(`no ${name} in /metrics`);
    return Number(m[1]);
  }
  // (function declarations: used in beforeAll above)
  async function counter(name: string): Promise<number> {
    return valueIn(await metricsText(), name);
  }
  async function statements(): Promise<number> {
    return counter("taxi_db_statements_total");
  }
  /** The statements sent so far, less the event relay's NOTIFYs when `withoutRelay` (one read of /metrics). */
  async function statementsBut(withoutRelay: boolean): Promise<number> {
    const text = await metricsText();
    return valueIn(text, "taxi_db_statements_total") - (withoutRelay ? valueIn(text, "taxi_event_relay_notifies_total") : 0);
  }

  /**
   * Statements a request: `request` `count` times, `concurrency` at once, less the instance's idle statements over
   * as long. `withoutRelay`: the event relay's NOTIFYs not counted. They are at most one every 20 ms, whatever the
   * requests (server/events/pg-relay.ts), so requests sent one at a time pay one each when each takes longer than
   * that, as the position reports did beside the other suites (1.43–1.58 statements a report, 1.10 alone).
   */
  async function perRequest(request: (i: number) => Promise<boolean>, count = REQUESTS, concurrency = CONCURRENCY, withoutRelay = false): Promise<number> {
    // the instance's own work (sweeps, the outbox's polls, the metrics read) over 2 s
    const idleStart = await statementsBut(withoutRelay);
    await sleep(2_000);
    const idlePerMs = ((await statementsBut(withoutRelay)) - idleStart - 1) / 2_000;
    const before = await statementsBut(withoutRelay);
    const started = Date.now();
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) if (!(await request(next++))) failed += 1;
      }),
    );
    await sleep(500); // what the requests set going (a batch of call links, the relay) lands
    const spent = (await statementsBut(withoutRelay)) - before - 1 - idlePerMs * (Date.now() - started);
    expect(failed).toBe(0);
    return spent / count;
  }

  /**
   * `count` drivers on shift at the city's centre (call signs `prefix`0.., phones `phones` + 1000..), each with a
   * key from the provisioning call (a call that marks no app: the drivers are not seen until their app calls).
   */
  async function driversWithKeys(prefix: string, firstName: string, phones: string, count: number): Promise<{ callSigns: string[]; keys: string[] }> {
    const callSigns = await database.use(async (prisma) => {
      const city = await prisma.city.findFirstOrThrow({ select: { id: true, lat: true, lon: true } });
      const service = await prisma.service.findFirstOrThrow({ where: { cityId: city.id }, select: { id: true } });
      return Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const driver = await prisma.driver.create({
            data: { cityId: city.id, callSign: `${prefix}${i}`, firstName, phone: `${phones}${String(1000 + i)}`, state: "FREE", lat: city.lat, lon: city.lon, positionAt: new Date(), services: { create: { serviceId: service.id } } },
            select: { callSign: true },
          });
          return driver.callSign;
        }),
      );
    });
    const provisioning = provisioningKeyFor(template().appSecret);
    const keys: string[] = [];
    for (const callSign of callSigns) {
      const issued = await send(app.url, { method: "POST", path: "/driver-app/v1/keys", headers: { authorization: `Bearer ${provisioning}`, "content-type": "application/json" }, body: JSON.stringify({ call_sign: callSign }) });
      expect(issued.status, issued.text).toBe(200);
      keys.push(String((JSON.parse(issued.text) as { app_key: string }).app_key));
    }
    return { callSigns, keys };
  }

  it("order creation, address form: under 2 (the insert, the calls' link in batches, the relay)", async () => {
    const notifiesFrom = await counter("taxi_event_relay_notifies_total");
    const from = Date.now();
    const cost = await perRequest(async (i) => {
      const r = await api.post("order", { phone: `8916${String(5_000_000 + i)}`, street: "ул. Ленина", house: String(2 + (i % 4)), name: "Счёт" });
      return r.status === "DONE";
    });
    const notifies = (await counter("taxi_event_relay_notifies_total")) - notifiesFrom;
    console.log(`order creation, address form: ${cost.toFixed(2)} statements an order; ${notifies} NOTIFYs in ${Date.now() - from} ms`);
    expect(cost).toBeLessThan(2);
    expect(notifies).toBeGreaterThan(0); // the relay counts what it sends
  });

  it("order creation, token form: under 2", async () => {
    const tokens: string[] = [];
    for (let i = 0; i < REQUESTS; i += 1) tokens.push(await priceToken(api, String(2 + (i % 4))));
    const cost = await perRequest(async (i) => {
      const r = await api.post("order", { phone: `8916${String(6_000_000 + i)}`, token: tokens[i] });
      return r.status === "DONE";
    });
    console.log(`order creation, token form: ${cost.toFixed(2)} statements an order`);
    expect(cost).toBeLessThan(2);
  });

  it("the estimate (pre_cost): under 0.08 (its houses, streets, rates and the key come from memory; the key once when it runs out of the cache, not once a request in flight)", async () => {
    const cost = await perRequest(async (i) => {
      const r = await api.get("order/pre_cost", { phone: "89161234567", way_points: JSON.stringify([{ street: "ул. Ленина", house: String(2 + (i % 4)) }, { lat: 55.78, lon: 37.6 }]) });
      return r.status === "DONE";
    });
    console.log(`pre_cost: ${cost.toFixed(2)} statements an estimate`);
    expect(cost).toBeLessThan(0.08);
  });

  it("an order's move (a cancel through the API): under 6 (the transaction, the order's lock, the move with its history and what its subscribers need to know, the relay)", async () => {
    const uuids: string[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      const created = await api.post<{ uuid: string }>("order", { phone: `8916${String(7_000_000 + i)}`, street: "ул. Ленина", house: String(2 + (i % 4)) });
      expect(created.status).toBe("DONE");
      uuids.push(created.response.uuid);
    }
    await sleep(500); // the orders' own batches (the calls' links, the relay) land before the count
    const cost = await perRequest(async (i) => (await api.post("cancel_order", { uuid: uuids[i] })).status === "DONE");
    console.log(`order move (cancel): ${cost.toFixed(2)} statements a move`);
    expect(cost).toBeLessThan(6);
  });

  it("an order's move that frees its driver (a cancel of an order the dispatcher gave a driver): under 6, as a cancel without one (the driver's state, and the driver as the consoles' maps are told, in the move's own statement: 6.23 when the maps' driver was read after it)", async () => {
    const count = 100;
    const uuids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const created = await api.post<{ uuid: string }>("order", { phone: `8916${String(8_000_000 + i)}`, street: "ул. Ленина", house: String(2 + (i % 4)), moderation_required: "no" });
      expect(created.status).toBe("DONE");
      uuids.push(created.response.uuid);
    }
    // A driver each, on shift and free (set up in the database: how a driver comes on shift is the driver app's
    // suites'); then the dispatcher's call sign and Enter gives each order to its driver, who is then busy.
    const orders = await database.use(async (prisma) => {
      const rows = await prisma.order.findMany({ where: { uuid: { in: uuids } }, select: { id: true, uuid: true, version: true, serviceId: true } });
      const city = await prisma.city.findFirstOrThrow({ select: { id: true } });
      return Promise.all(
        rows.map(async (order, i) => {
          const driver = await prisma.driver.create({
            data: { cityId: city.id, callSign: `СЧ${i}`, firstName: "Счёт", phone: `+7916900${String(1000 + i)}`, state: "FREE", balance: 10_000_000n, lat: 55.75, lon: 37.61, services: { create: { serviceId: order.serviceId } } },
            select: { id: true, callSign: true },
          });
          return { ...order, driver };
        }),
      );
    });
    const operator = await Console.open(app.url, template().adminEmail, template().adminPassword);
    for (const order of orders) {
      const given = await operator.mutate<{ state: string }>("orders.giveToDriver", { orderId: order.id, expectedVersion: order.version, callSign: order.driver.callSign });
      expect(given.state).toBe("SENT_TO_DRIVER");
    }
    const busy = () => database.use((prisma) => prisma.driver.count({ where: { id: { in: orders.map((o) => o.driver.id) }, state: "BUSY" } }));
    expect(await busy()).toBe(count);
    await sleep(500);
    const cost = await perRequest(async (i) => (await api.post("cancel_order", { uuid: orders[i]!.uuid })).status === "DONE", count);
    console.log(`order move freeing its driver (cancel): ${cost.toFixed(2)} statements a move`);
    // Each driver was freed by the cancel itself: with the rounds off (DISPATCH_ROUNDS=no) no offer times out and
    // no sweep withdraws one (the next round's sweep would withdraw these, still live, in production).
    expect(await busy()).toBe(0);
    expect(cost).toBeLessThan(6);
  });

  it("a driver's position report, one at a time: under 1.5 besides the relay's NOTIFYs (the batch's statement, with the app's mark of being seen in it: 2 when the mark was a statement of its own)", async () => {
    const count = 60;
    const { callSigns, keys } = await driversWithKeys("ПЗ", "Позиция", "+7916901", count);
    const seen = () => database.use(async (prisma) => (await prisma.driver.findMany({ where: { callSign: { in: callSigns } }, orderBy: { id: "asc" }, select: { appSeenAt: true } })).map((d) => d.appSeenAt?.getTime() ?? 0));
    expect(Math.max(...(await seen()))).toBe(0);
    const report = async (i: number, lat: number) => {
      const r = await send(app.url, { method: "POST", path: "/driver-app/v1/position", headers: { authorization: `Bearer ${keys[i]}`, "content-type": "application/json" }, body: JSON.stringify({ lat, lon: 37.62, speed: 20, bearing: 90 }) });
      return r.status === 200;
    };
    // A first report each: the key is then in the instance's cache (a minute), as a phone's is after its first call,
    // and the app's mark is stored; 10 s later the marks are due again, as every other report's is in a fleet
    // reporting every 5 s.
    for (let i = 0; i < count; i += 1) expect(await report(i, 55.75)).toBe(true);
    const first = await seen();
    expect(first.every((t) => t > 0)).toBe(true);
    await sleep(10_500);
    // One at a time: reports that arrive together share a statement, which would hide a statement a report.
    const notifiesFrom = await counter("taxi_event_relay_notifies_total");
    const cost = await perRequest((i) => report(i, 55.751 + i / 10_000), count, 1, true);
    const notifies = ((await counter("taxi_event_relay_notifies_total")) - notifiesFrom) / count;
    console.log(`position report: ${cost.toFixed(2)} statements a report besides the relay's NOTIFYs, and ${notifies.toFixed(2)} NOTIFYs`);
    // Every app's mark is newer all the same.
    const second = await seen();
    for (let i = 0; i < count; i += 1) expect(second[i]).toBeGreaterThan(first[i]!);
    expect(cost).toBeLessThan(1.5);
    // Off shift the report is refused and its statement writes nothing: the app's call is marked all the same.
    const off = callSigns[0]!;
    await database.use((prisma) => prisma.driver.update({ where: { callSign: off }, data: { state: "OFFLINE", appSeenAt: null } }));
    await sleep(10_500); // the instance's own note of the mark written above is due again
    const refused = await send(app.url, { method: "POST", path: "/driver-app/v1/position", headers: { authorization: `Bearer ${keys[0]}`, "content-type": "application/json" }, body: JSON.stringify({ lat: 55.75, lon: 37.62, speed: 0, bearing: 0 }) });
    expect(refused.status, refused.text).toBe(409);
    expect((JSON.parse(refused.text) as { error: { code: string } }).error.code).toBe("CONFLICT");
    expect(await database.use((prisma) => prisma.driver.findUniqueOrThrow({ where: { callSign: off }, select: { appSeenAt: true } }))).toMatchObject({ appSeenAt: expect.any(Date) });
  });

  it("an offer stream opened, with no offer and no message: under 1.5 besides the relay's NOTIFYs (the key, the live offer and the newest message in one statement; 3 when the newest message and the messages were statements of their own)", async () => {
    const count = 40;
    const { keys } = await driversWithKeys("ПТ", "Поток", "+7916902", count);
    // A phone's stream, as EventSource opens it, read up to its first event (the offer: none), then closed.
    const target = new URL(app.url);
    const open = (i: number) =>
      new Promise<boolean>((resolve) => {
        const req = http.get({ host: target.hostname, port: target.port, path: "/driver-app/v1/offer/stream", headers: { authorization: `Bearer ${keys[i]}`, accept: "text/event-stream" } }, (res) => {
          let seen = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            seen += chunk;
            if (/event: offer\ndata: \{"offer":null\}/.test(seen)) {
              req.destroy();
              resolve(res.statusCode === 200);
            }
          });
          res.on("end", () => resolve(false));
        });
        req.on("error", () => resolve(false));
        req.setTimeout(10_000, () => req.destroy());
      });
    // A first stream each: the key is in the instance's cache and the app's mark stored, as a phone's are when its
    // stream closes after its five minutes and it opens the next.
    for (let i = 0; i < count; i += 1) expect(await open(i)).toBe(true);
    const cost = await perRequest((i) => open(i), count, 1, true);
    console.log(`offer stream opened: ${cost.toFixed(2)} statements a stream, besides the relay's NOTIFYs`);
    expect(cost).toBeLessThan(1.5);
  });

  it("an order's read: under 1.2", async () => {
    const created = await api.post<{ uuid: string }>("order", { phone: "89167000000", street: "ул. Ленина", house: "3" });
    expect(created.status).toBe("DONE");
    const cost = await perRequest(async () => (await api.get("order", { uuid: created.response.uuid })).status === "DONE");
    console.log(`order read: ${cost.toFixed(2)} statements a read`);
    expect(cost).toBeLessThan(1.2);
  });
});
