// Our exchange as a participant written from the reference sees it
// (tests/support/exchange/reference-participant.ts reuses none of our code).
// Two such participants, provisioned with a key and a server but no
// services: the exchange learns what they execute when they log in. One
// sells, the other is offered, takes, updates, completes, cancels, gives
// orders back; the token goes where each participant puts it. Every
// notification must have the reference's shape and be safe to apply twice.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedServer } from "../support/server";
import { prepareDatabase, startOn, TEST_DB, type PreparedDb } from "../support/exchange/db";
import { addParticipants } from "../support/exchange/fixtures";
import { until } from "../support/exchange/http";
import { ReferenceParticipant, type RefDriver, type RefEvent, type RefReply } from "../support/exchange/reference-participant";

const driver = (callSign: string, carClass: number): RefDriver => ({
  id: `drv-${callSign}`,
  callSign,
  name: "Пётр Петрович Петров",
  phone: "79995550000",
  registrationNumber: "О777ОО77",
  brand: "Skoda",
  model: "Octavia",
  modelCode: "",
  color: "серый",
  colorCode: "",
  carage: "2021",
  connectBy: "app",
  carClass,
  options: [1],
});

let server: StartedServer;
let prepared: PreparedDb;
let seller: ReferenceParticipant;
let buyer: ReferenceParticipant;
let X = "";
let next = 5000;

const attributes = (carClass: number) => ({
  client: { phone: "79161112233", name: "Мария" },
  from: { street: "ул. Ленина", house: "1", latitude: 55.75, longitude: 37.62 },
  to: { street: "пр. Мира", house: "10", latitude: 55.78, longitude: 37.63 },
  carClass,
  fare: 250.5,
  note: "reference",
});

function ok(r: RefReply): RefReply {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r;
}

/** The seller registers an order (its own id: digits, as the events carry it as an Integer); the exchange's id. */
async function sell(carClass = 2): Promise<{ own: number; id: string }> {
  const own = next++;
  const r = ok(await seller.call("POST", "order", { id: String(own), type: "order", attributes: attributes(carClass) }));
  const data = r.body.data as { id: string; orderId: string };
  expect(data.orderId).toBe(String(own));
  return { own, id: String(data.id) };
}

const eventsOf = (p: ReferenceParticipant, id: string, count: number): Promise<RefEvent[]> =>
  until(`${count} events of ${id} at ${p.name}`, () => (p.events(id).length >= count ? p.events(id) : undefined));

function take(id: string, callSign = "R-2") {
  return buyer.call("POST", "order/take", {
    id,
    orderId: `buyer-${id}`,
    attributes: { time: { arrival: 6 }, executor: { callSign, phone: "79995550000", registrationNumber: "О777ОО77", brand: "Skoda", model: "Octavia", color: "серый" } },
  });
}

beforeAll(async () => {
  const keys = { seller: `xk_${randomBytes(16).toString("hex")}`, buyer: `xk_${randomBytes(16).toString("hex")}` };
  // Ports first: the exchange is told the participants' URLs when they are provisioned.
  seller = await new ReferenceParticipant("seller", { exchange: "", key: keys.seller, services: [{ id: 1, name: "Такси", description: "" }], drivers: [] }).start();
  // The buyer's service names a car class ("Комфорт" is class 2's name); its drivers are of class 2.
  buyer = await new ReferenceParticipant("buyer", {
    exchange: "",
    key: keys.buyer,
    services: [{ id: 7, name: "Комфорт", description: "машины среднего класса" }],
    drivers: [driver("R-1", 2), driver("R-2", 2)],
  }).start();
  const made = await prepareDatabase(TEST_DB, async (prisma) => {
    await prisma.carClass.createMany({
      data: [
        { id: "1", nameEn: "Economy", nameRu: "Эконом" },
        { id: "2", nameEn: "Comfort", nameRu: "Комфорт" },
        { id: "3", nameEn: "Business", nameRu: "Бизнес" },
      ],
      skipDuplicates: true,
    });
    return addParticipants(prisma, [
      { name: "seller", url: seller.url, key: keys.seller },
      { name: "buyer", url: buyer.url, key: keys.buyer, deposit: 1_000_000n },
    ]);
  });
  prepared = made.db;
  server = await startOn(prepared, { EXCHANGE_COMMISSION_BP: "500" });
  X = `${server.url}/exchange`;
  (seller.options as { exchange: string }).exchange = X;
  (buyer.options as { exchange: string }).exchange = X;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await seller?.stop();
  await buyer?.stop();
  await prepared?.drop();
});

describe("a participant written from the reference, on our exchange", () => {
  it("is offered orders from the moment its session opens, by the class its data names", async () => {
    await seller.login();
    await buyer.login();
    // At once: no periodic check has run (EXCHANGE_CHECK_SECONDS is 0 here).
    const first = await sell(2);
    expect(await eventsOf(seller, first.id, 2)).toEqual(["order/registered", "order/accepted"]);
    expect(await eventsOf(buyer, first.id, 1)).toEqual(["order/received"]);
    const offer = buyer.orders.get(first.id)!;
    expect(offer).toMatchObject({ offered: true, status: 9 });
    expect(offer.client).toBeUndefined(); // offers do not show whom to pick up
    // Once its services are read, class 1 (no driver, no service of it) is not offered to it.
    await until("services and drivers read", () => buyer.served.includes("GET /services") && buyer.served.includes("POST /drivers"));
    const other = await sell(1);
    await until("class 1 refused", () => seller.notifications.some((n) => n.event === "order/refused" && n.data.orderId === other.own));
    expect(buyer.events(other.id)).toEqual([]);
  });

  it("reads the reference's GET calls with the token in the body, the query or a Bearer header", async () => {
    const profiles = ok(await buyer.call("GET", "profiles", undefined, "meta"));
    expect((profiles.body.data as { profiles: unknown[] }).profiles).toHaveLength(2);
    const classes = ok(await buyer.call("GET", "drivers/classes", undefined, "query"));
    expect((classes.body.data as { classes: Array<{ id: string }> }).classes.map((c) => c.id)).toEqual(["1", "2", "3"]);
    ok(await buyer.call("GET", "drivers/options", undefined, "bearer"));
    const found = ok(await buyer.call("POST", "drivers", { where: { callSign: { like: "R-_" }, carClass: { greaterThanOrEqual: 2 } }, sort: "callSign DESC" }));
    const drivers = (found.body.data as { drivers: Array<{ id: string; callSign: string }> }).drivers;
    expect(drivers.map((d) => d.callSign)).toEqual(["R-2", "R-1"]);
    const one = ok(await buyer.call("GET", `drivers/${drivers[0]!.id}`, undefined, "query"));
    expect((one.body.data as { driver: { callSign: string } }).driver.callSign).toBe("R-2");
    expect((await buyer.call("GET", "version")).body).toEqual({ jsonapi: { version: "1.0.0" } });
  });

  it("takes, learns whom to pick up, reports its driver, updates, completes", async () => {
    const { own, id } = await sell(2);
    await eventsOf(buyer, id, 1);
    const taken = ok(await take(id));
    expect(taken.body.data).toMatchObject({ id: Number(id), attributes: { client: { phone: "79161112233", name: "Мария" } } });
    expect(await eventsOf(seller, id, 3)).toEqual(["order/registered", "order/accepted", "order/taken"]);
    expect(seller.orders.get(id)).toMatchObject({ arrival: 6, executor: { callSign: "R-2" }, status: 1 });
    expect(seller.orders.get(`own:${own}`)).toMatchObject({ registered: id, accepted: true });
    // As the executor it sees the client in order/get, and in updated.
    const got = ok(await buyer.call("POST", "order/get", { id }, "bearer"));
    expect(got.body.data).toMatchObject({ type: "order", id, attributes: { client: { phone: "79161112233" }, status: 1 } });
    // Its driver's state, as the reference describes (meta.token).
    ok(await buyer.call("POST", "driver/update", { id: "drv-R-2", attributes: { callSign: "R-2", latitude: "55.751", longitude: "37.621", status: 2, speed: "20", bearing: "90" } }));
    await until("driver/update at the seller", () => seller.notifications.some((n) => n.event === "driver/update"));
    for (const status of [2, 10, 3, 4]) ok(await buyer.call("POST", "order/update", { id, attributes: { status } }, "query"));
    expect((await eventsOf(seller, id, 7)).slice(3)).toEqual(["order/updated", "order/updated", "order/updated", "order/updated"]);
    ok(await seller.call("POST", "order/update", { id, attributes: { note: "звонить в домофон" } }));
    await until("updated at the buyer", () => buyer.events(id).includes("order/updated"));
    expect(buyer.orders.get(id)).toMatchObject({ status: 4, client: { phone: "79161112233", name: "Мария" } });
    const completion = { fare: "250.50", distance: "5400", time: { completed: "2026-11-23T12:00:00Z", standing: "0", waiting: "60" } };
    ok(await buyer.call("POST", "order/complete", { id, attributes: completion }, "bearer"));
    await until("completed at the seller", () => seller.events(id).includes("order/completed"));
    expect(seller.orders.get(id)).toMatchObject({ status: 100, completion });
    // Mirroring: the seller sets the status it was told; the buyer repeats its completion.
    ok(await seller.call("POST", "order/update", { id, attributes: { status: 100 } }));
    ok(await buyer.call("POST", "order/complete", { id, attributes: completion }));
  });

  it("gives an order back, has it cancelled, and cancels with the client's 19", async () => {
    const a = await sell(2);
    await eventsOf(buyer, a.id, 1);
    ok(await take(a.id));
    ok(await buyer.call("POST", "order/rejectdriver", { id: a.id, reason: "сломалась машина" }));
    await until("rejectdriver at the seller", () => seller.events(a.id).includes("order/rejectdriver"));
    expect(seller.orders.get(a.id)).toMatchObject({ rejected: "сломалась машина", status: 9 });
    // It gave the order back: it is not offered to it again.
    ok(await seller.call("POST", "order/revoke", { id: a.id }));
    expect(buyer.events(a.id)).toEqual(["order/received"]);

    const c = await sell(2);
    await eventsOf(buyer, c.id, 1);
    ok(await take(c.id));
    ok(await seller.call("POST", "order/cancel", { id: c.id, status: 95, reason: "клиент передумал" }));
    await until("cancelled at the buyer", () => buyer.events(c.id).includes("order/cancelled"));
    expect(buyer.orders.get(c.id)).toMatchObject({ cancelled: { status: "95", reason: "клиент передумал" } });

    const b = await sell(2);
    await eventsOf(buyer, b.id, 1);
    ok(await take(b.id));
    ok(await buyer.call("POST", "order/cancel", { id: b.id, status: 19, reason: "клиент не вышел" }));
    await until("cancelled at the seller", () => seller.events(b.id).includes("order/cancelled"));
    expect(seller.orders.get(b.id)).toMatchObject({ cancelled: { status: "95", reason: "клиент не вышел" } });
    // The same cancellation again (a retry): the same answer.
    ok(await buyer.call("POST", "order/cancel", { id: b.id, status: 19, reason: "клиент не вышел" }));
  });

  it("registers a refused order again under the same id, and revokes", async () => {
    const own = next++;
    const refused = ok(await seller.call("POST", "order", { id: String(own), type: "order", attributes: attributes(3) }));
    const firstId = String((refused.body.data as { id: string }).id);
    await until("refused", () => seller.notifications.some((n) => n.event === "order/refused" && n.data.orderId === own));
    const again = ok(await seller.call("POST", "order", { id: String(own), type: "order", attributes: attributes(2) }));
    const id = String((again.body.data as { id: string }).id);
    expect(id).not.toBe(firstId);
    expect(await eventsOf(seller, id, 3)).toEqual(["order/registered", "order/restore", "order/accepted"]);
    await eventsOf(buyer, id, 1);
    ok(await seller.call("POST", "order/revoke", { id }));
    await until("revoked at the buyer", () => buyer.events(id).includes("order/revoked"));
    expect(buyer.orders.get(id)).toMatchObject({ revoked: true });
    expect((await take(id)).status).toBe(410);
  });

  it("every notification had the reference's shape and was safe to apply twice", () => {
    expect(seller.notifications.length).toBeGreaterThan(15);
    expect(buyer.notifications.length).toBeGreaterThan(6);
    expect([...seller.problems(), ...buyer.problems()]).toEqual([]);
  });
});
