// Dispatch's rounds in one instance, the phones on another (DISPATCH_ROUNDS,
// docs/configuration.md): the instance serving a driver's app runs no round
// of its own, and an offer the other instance makes reaches the driver's
// offer stream on it through the event relay, without waiting for the
// stream's own 15-second note. The driver is played from the driver app
// interface's reference (docs/driver-app.md): the stream read with fetch and
// parsed as server-sent events. Two instances on one database: PostgreSQL only.
import { createParser } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { TEST_DB, type TestDatabase } from "./support/db";
import { closeAgents } from "./support/http";
import { dispatchClient } from "./support/dispatch";
import { appInstance, freshDatabase, template, type AppInstance } from "./support/instance";

let database: TestDatabase;
let rounds: AppInstance;
let phones: AppInstance;
let serviceId = 0;
let centre = { lat: 0, lon: 0 };
let callSign = "";
let key = "";

/** The offers the stream has announced, in order (null: none), and a way to close it. */
function openStream(base: string, appKey: string) {
  const offers: Array<{ at: number; uuid: string | null }> = [];
  const controller = new AbortController();
  const parser = createParser({
    onEvent: (event) => {
      if (event.event !== "offer") return;
      const body = JSON.parse(event.data) as { offer: { order: { uuid: string } } | null };
      offers.push({ at: Date.now(), uuid: body.offer?.order.uuid ?? null });
    },
  });
  const done = (async () => {
    const res = await fetch(`${base}/driver-app/v1/offer/stream`, { headers: { authorization: `Bearer ${appKey}` }, signal: controller.signal });
    expect(res.status).toBe(200);
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  })().catch((error: unknown) => {
    if (!(error instanceof Error && error.name === "AbortError")) throw error;
  });
  return { offers, close: async () => (controller.abort(), await done) };
}

async function until<T>(what: string, probe: () => T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function order(base: string, phone: string): Promise<string> {
  const reply = await dispatchClient(base, template().apiKey).post<{ uuid: string }>("order", {
    phone,
    street: "ул. Ленина",
    house: "1",
    lat: centre.lat + 0.002,
    lon: centre.lon + 0.002,
    service_id: serviceId,
    moderation_required: "no",
    need_notify: "no",
  });
  expect(reply.status).toBe("DONE");
  return reply.response.uuid;
}

async function statusCode(base: string, uuid: string): Promise<number> {
  return Number((await dispatchClient(base, template().apiKey).get<{ code: number }>("order/status", { uuid })).response.code);
}

describe.skipIf(TEST_DB !== "postgres")("dispatch's rounds in one instance, the phones on another", () => {
  beforeAll(async () => {
    database = await freshDatabase();
    callSign = await database.use(async (prisma, query) => {
      // A quiet city: the seed's open orders closed, every driver off shift; one driver of the first service.
      await query(`UPDATE orders SET state = 'DONE_REMOVED', status_code = 91, driver_id = NULL WHERE status_code < 90`);
      await query(`UPDATE driver SET state = 'OFFLINE'`);
      const city = await prisma.city.findFirstOrThrow({ orderBy: { id: "asc" }, select: { id: true, lat: true, lon: true } });
      centre = { lat: city.lat, lon: city.lon };
      const service = await prisma.service.findFirstOrThrow({ where: { cityId: city.id }, orderBy: { id: "asc" }, select: { id: true } });
      serviceId = service.id;
      await prisma.dispatchSetting.create({
        data: { serviceId, mode: "AUTO", strategy: "GREEDY", acceptSeconds: 60, attempts: 6, radiusKm: 50, fairnessWeight: 0, minBalance: -(10n ** 12n), freeLongMinutes: 60 },
      });
      const driver = await prisma.driver.findFirstOrThrow({ where: { cityId: city.id, active: true, services: { some: { serviceId } } }, orderBy: { id: "asc" }, select: { callSign: true } });
      return driver.callSign;
    });
    const env = { DISPATCH_TICK_MS: "100", RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" };
    rounds = await appInstance(database, { env: { ...env, DISPATCH_ROUNDS: "yes" } });
    phones = await appInstance(database, { env: { ...env, DISPATCH_ROUNDS: "no" } });
    await rounds.start();
    await phones.start();
    const provisioning = provisioningKeyFor(template().appSecret);
    const res = await fetch(`${phones.url}/driver-app/v1/keys`, { method: "POST", headers: { authorization: `Bearer ${provisioning}`, "content-type": "application/json" }, body: JSON.stringify({ call_sign: callSign }) });
    key = String(((await res.json()) as { app_key: string }).app_key);
    const shift = await fetch(`${phones.url}/driver-app/v1/shift/start`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ lat: centre.lat, lon: centre.lon, speed: 0, bearing: 0 }),
    });
    expect(shift.status).toBe(200);
  }, 300_000);

  afterAll(async () => {
    closeAgents();
    await rounds?.stop();
    await phones?.stop();
    await database?.drop();
  });

  it("the phones' instance makes no offer by itself; the other's offer reaches the driver's stream on it within seconds", async () => {
    const stream = openStream(phones.url, key);
    try {
      await until("the stream's first offer event", () => (stream.offers.length ? true : undefined), 10_000);
      expect(stream.offers.at(-1)!.uuid).toBeNull();

      // The rounds' instance stopped: an order made through the phones' instance stays free, offered to nobody,
      // for thirty of its ticks.
      await rounds.kill("SIGTERM");
      const first = await order(phones.url, "89165550001");
      await new Promise((r) => setTimeout(r, 3_000));
      expect(await statusCode(phones.url, first)).toBe(9);
      expect(stream.offers.some((o) => o.uuid === first)).toBe(false);

      // The rounds' instance back: its first round offers the order, and the driver's stream on the other instance
      // says so within seconds (the stream's own note comes every 15 s: this is the event relay's doing).
      await rounds.start();
      const started = Date.now();
      const offered = await until("the offer on the phones' stream", () => stream.offers.find((o) => o.uuid === first), 10_000);
      console.log(`dispatch-split: the offer reached the stream on the other instance ${offered.at - started} ms after the rounds' instance was up`);

      // The driver accepts through the phones' instance.
      const accept = await fetch(`${phones.url}/driver-app/v1/offer/accept`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ uuid: first }),
      });
      expect(accept.status).toBe(200);
      expect(await statusCode(phones.url, first)).not.toBe(9);
    } finally {
      await stream.close();
    }
  });
});
