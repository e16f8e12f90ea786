// Data minimisation, over real HTTP: a passenger's name and phone reach a
// driver only once the order is that driver's (accepted, not over), and the
// exchange's driver directory shows a driver's person only to the driver's
// own firm. Every reply of the walk is searched whole (not only the fields)
// for the passenger's phone and name.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { startReceiver, type Receiver } from "../support/exchange/receiver";
import type { TestDatabase } from "../reliability/support/db";
import { dispatchClient, type DispatchClient } from "../reliability/support/dispatch";
import { addExchangeParticipants, exchangeCall, type Participant } from "../reliability/support/exchange";
import { closeAgents, send } from "../reliability/support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "../reliability/support/instance";

const PASSENGER = { phone: "89160009911", digits: "9160009911", name: "Пассажирка Приватная" };
const SECRET_DRIVER = { phone: "+79040009922", digits: "9040009922", name: "Водитель Скрытный" };

let database: TestDatabase;
let app: AppInstance;
let api: DispatchClient;
let receiver: Receiver;
let firms: Participant[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  database = await freshDatabase();
  await database.use(async (prisma) => {
    firms = await addExchangeParticipants(prisma, ["FirmA", "FirmB"], receiver.url);
    await prisma.exchangeDriver.create({
      data: { participantId: firms[0]!.id, callSign: "PRIV-1", name: SECRET_DRIVER.name, phone: SECRET_DRIVER.phone, registrationNumber: "А001АА77", brand: "Kia", model: "Rio", color: "белый", carClass: 1 },
    });
  });
  app = await startInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" } });
  api = dispatchClient(app.url, template().apiKey);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await receiver?.stop();
  await database?.drop();
});

interface Reply {
  status: number;
  text: string;
  body: Record<string, unknown>;
}

async function driverApp(key: string, method: "GET" | "POST", path: string, body?: unknown): Promise<Reply> {
  const r = await send(app.url, {
    method,
    path: `/driver-app/v1/${path}`,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    timeoutMs: 60_000,
  });
  return { status: r.status, text: r.text, body: JSON.parse(r.text) as Record<string, unknown> };
}

function showsPassenger(reply: Reply): boolean {
  return reply.text.includes(PASSENGER.digits) || reply.text.includes(PASSENGER.name);
}

async function issueKey(callSign: string): Promise<string> {
  const r = await send(app.url, {
    method: "POST",
    path: "/driver-app/v1/keys",
    headers: { authorization: `Bearer ${provisioningKeyFor(template().appSecret)}`, "content-type": "application/json" },
    body: JSON.stringify({ call_sign: callSign }),
    timeoutMs: 60_000,
  });
  expect(r.status, r.text).toBe(200);
  return String((JSON.parse(r.text) as { app_key: string }).app_key);
}

describe("the driver app shows the passenger only to the order's driver", () => {
  it("walks every reply about a free, sent and someone else's order; the passenger appears on acceptance", async () => {
    // Two idle drivers of the main city, on shift at the pickup.
    const idle: string[] = [];
    for (let n = 120; n <= 164 && idle.length < 2; n++) {
      const r = await api.get<{ order_id: number | null; city_id: number }>("drivers", { code: String(n) });
      if (r.status === "DONE" && r.response.order_id === null && r.response.city_id === 1) idle.push(String(n));
    }
    expect(idle).toHaveLength(2);
    const [mine, other] = [await issueKey(idle[0]!), await issueKey(idle[1]!)];

    const created = await api.post<{ uuid: string }>("order", { phone: PASSENGER.phone, name: PASSENGER.name, street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no" });
    expect(created.status, JSON.stringify(created.error)).toBe("DONE");
    const free = created.response.uuid;
    const sent = await api.post<{ uuid: string }>("order", { phone: PASSENGER.phone, name: PASSENGER.name, street: "ул. Ленина", house: "4", moderation_required: "no", need_notify: "no", driver_id: idle[0]! });
    expect(sent.status, JSON.stringify(sent.error)).toBe("DONE");

    for (const key of [mine, other]) {
      const started = await driverApp(key, "POST", "shift/start", { lat: 55.7558, lon: 37.6173, speed: 0, bearing: 0 });
      expect(started.status, started.text).toBe(200);
    }

    // Before anyone took anything: the free orders near a driver, the driver's own list, the live offer.
    const replies: Array<[string, Reply]> = [];
    const offers = await driverApp(other, "GET", "offers", undefined);
    expect(offers.status, offers.text).toBe(200);
    expect(offers.text).toContain(free);
    replies.push(["offers", offers]);
    replies.push(["offers with advance orders", await driverApp(other, "GET", "offers?radius_km=100&limit=100&advance=yes")]);
    replies.push(["a sent order, not accepted: orders", await driverApp(mine, "GET", "orders")]);
    replies.push(["the live offer", await driverApp(mine, "GET", "offer")]);
    const received = await driverApp(mine, "POST", "orders/status", { uuid: sent.response.uuid, status: "RECEIVED_BY_DRIVER" });
    expect(received.status, received.text).toBe(200);
    replies.push(["received, not accepted", received]);
    replies.push(["someone else's order", await driverApp(other, "POST", "orders/status", { uuid: sent.response.uuid, status: "CONFIRMED" })]);
    replies.push(["completing someone else's order", await driverApp(other, "POST", "orders/complete", { uuid: sent.response.uuid })]);
    replies.push(["an unknown order", await driverApp(other, "POST", "orders/status", { uuid: randomUUID(), status: "CONFIRMED" })]);
    replies.push(["me", await driverApp(other, "GET", "me")]);
    for (const [what, reply] of replies) expect(showsPassenger(reply), `${what}: ${reply.text.slice(0, 300)}`).toBe(false);

    // Accepted: now it is the driver's order, and the driver may call the passenger.
    const confirmed = await driverApp(mine, "POST", "orders/status", { uuid: sent.response.uuid, status: "CONFIRMED" });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(showsPassenger(confirmed)).toBe(true);
    expect(showsPassenger(await driverApp(mine, "GET", "orders"))).toBe(true);
    // ...and only that driver.
    expect(showsPassenger(await driverApp(other, "GET", "offers?radius_km=100&limit=100&advance=yes"))).toBe(false);
    const taken = await driverApp(other, "POST", "orders/accept", { uuid: free });
    expect(taken.status, taken.text).toBe(200);
    expect(showsPassenger(taken)).toBe(true);
  });
});

describe("the exchange's driver directory", () => {
  it("shows a driver's name and phone only to the driver's own firm, and cannot be probed by them", async () => {
    const [own, stranger] = firms as [Participant, Participant];
    const listedByOwn = await exchangeCall(app.url, "drivers", own.token, { where: { callSign: "PRIV-1" } });
    expect(listedByOwn.status, listedByOwn.text).toBe(200);
    expect(listedByOwn.text).toContain(SECRET_DRIVER.digits);
    const id = (JSON.parse(listedByOwn.text) as { data: { drivers: Array<{ id: string }> } }).data.drivers[0]!.id;

    const listed = await exchangeCall(app.url, "drivers", stranger.token, { where: { callSign: "PRIV-1" } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.text).toContain("PRIV-1");
    const one = await send(app.url, { method: "GET", path: `/exchange/drivers/${id}`, headers: { authorization: `Bearer ${stranger.token}` }, timeoutMs: 60_000 });
    expect(one.status, one.text).toBe(200);
    for (const reply of [listed, one]) {
      expect(reply.text).not.toContain(SECRET_DRIVER.digits);
      expect(reply.text).not.toContain(SECRET_DRIVER.name);
    }
    // A filter or an order by the person's fields finds nothing of another firm's.
    for (const criteria of [{ where: { phone: SECRET_DRIVER.phone } }, { where: { name: { contains: "Скрытный" } } }, { where: { callSign: "PRIV-1" }, sort: "phone ASC" }]) {
      const probed = await exchangeCall(app.url, "drivers", stranger.token, criteria);
      expect(probed.status, probed.text).toBe(200);
      expect((JSON.parse(probed.text) as { data: { drivers: unknown[] } }).data.drivers, JSON.stringify(criteria)).toEqual([]);
    }
  });
});
