// Our dispatch server trading with an exchange written from the reference
// (tests/support/exchange/reference-exchange.ts): notifications without any
// delivery id, a main address that fails while the slave answers, our
// drivers reported with POST /driver/update, and an exchange restart that
// forgets our session and loses a notification.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedServer } from "../support/server";
import { prepareDatabase, startOn, TEST_DB, type PreparedDb } from "../support/exchange/db";
import { fillDispatch, type DispatchFixture } from "../support/exchange/fixtures";
import { get, post, until, type Reply } from "../support/exchange/http";
import { ReferenceExchange } from "../support/exchange/reference-exchange";

const CONTROL = "reference-exchange-control-key-0123";
let app: StartedServer;
let prepared: PreparedDb;
let fx: DispatchFixture;
let X: ReferenceExchange;

interface OrderView {
  id: number;
  state: string;
  driverId: number | null;
  phone: string;
  clientName: string;
  comment: string;
  exchangeLink: { phase: string; exchangeOrderId: string | null; remoteState: number | null } | null;
}

const control = (path: string, body?: unknown): Promise<Reply> =>
  body === undefined
    ? get(`${app.url}/participant/control/${path}`, { headers: { authorization: `Bearer ${CONTROL}` } })
    : post(`${app.url}/participant/control/${path}`, body, { headers: { authorization: `Bearer ${CONTROL}` } });

async function view(query: string): Promise<OrderView | undefined> {
  const r = await control(`order?${query}`);
  return r.status === 200 ? (r.body.data as OrderView) : undefined;
}

async function ok(reply: Promise<Reply | { status: number; body: Record<string, unknown> }>): Promise<Record<string, unknown>> {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const stateOf = (query: string, state: string) =>
  until(`${query} ${state}`, async () => {
    const v = await view(query);
    return v?.state === state ? v : undefined;
  });

const attributes = (phone: string) => ({
  client: { phone, name: "Ольга" },
  from: { street: "ул. Садовая", house: "3", latitude: 55.752, longitude: 37.622 },
  to: { street: "ул. Речная", house: "8", latitude: 55.77, longitude: 37.64 },
  carClass: 1,
  fare: 300,
  note: "от эталонной биржи",
});

async function offered(phone: string): Promise<string> {
  const order = X.offer(attributes(phone));
  const id = String(order.id);
  await ok(X.notify("order/received", { id, type: "order", attributes: { ...order.attributes, status: 9 } }));
  return id;
}

beforeAll(async () => {
  const key = `ref-key-${randomBytes(8).toString("hex")}`;
  X = await new ReferenceExchange(key).start();
  const made = await prepareDatabase(TEST_DB, (prisma) => fillDispatch(prisma, { prefix: "A", drivers: 3, orders: 2 }));
  prepared = made.db;
  fx = made.result;
  app = await startOn(prepared, { EXCHANGE_URL: X.url, EXCHANGE_CLIENT_KEY: key, EXCHANGE_CONTROL_KEY: CONTROL, EXCHANGE_TAKE_CHECK_SECONDS: "1" });
  X.participantUrl = `${app.url}/participant`;
  await until("our login", () => X.logins >= 1);
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await X?.stop();
  await prepared?.drop();
});

describe("our participant on an exchange that follows the reference", () => {
  let first = "";

  it("takes offers sent without delivery ids, each applied once; reports its driver with driver/update", async () => {
    first = await offered("79160000001");
    // The same notification again (the reference promises nothing about duplicates).
    const again = await ok(X.notify("order/received", { id: first, type: "order", attributes: { ...X.orders.get(Number(first))!.attributes, status: 9 } }));
    expect(again.meta).toMatchObject({ status: 200, duplicate: true });
    const local = await stateOf(`exchangeId=${first}`, "FREE");
    expect(local).toMatchObject({ phone: expect.stringMatching(/^\+?79160000001$/) as string, clientName: "Ольга", comment: "от эталонной биржи", exchangeLink: { phase: "OFFERED" } });

    const driver = fx.drivers[0]!;
    await ok(control("take", { exchangeOrderId: first, driverId: driver.id, arrivalMinutes: 5 }));
    expect(X.ok("order/take", first)).toHaveLength(1);
    await stateOf(`exchangeId=${first}`, "CONFIRMED");
    const report = await until("driver/update", () => X.ok("driver/update").find((c) => (c.data.attributes as { callSign?: string }).callSign === driver.callSign));
    expect(report.token).toMatch(/^ref-token-/);
    expect(report.data).toMatchObject({ id: String(driver.id), attributes: { callSign: driver.callSign, status: 2 } });
    expect(Number((report.data.attributes as { latitude: string }).latitude)).toBeCloseTo(55.751, 3);

    // `updated` with the status alone: the rest of the order stays.
    await ok(X.notify("order/updated", { id: first, attributes: { status: 10 } }));
    expect(await stateOf(`exchangeId=${first}`, "CONFIRMED_CLIENT_NOTIFIED")).toMatchObject({ phone: expect.stringMatching(/^\+?79160000001$/) as string, comment: "от эталонной биржи" });
  });

  it("calls the slave address when the main one fails or is unreachable", async () => {
    const v = (await view(`exchangeId=${first}`))!;
    X.mainMode = "failing";
    await ok(control("move", { orderId: v.id, to: "AWAITING_CLIENT" }));
    await until("status 3 at the slave", () => X.calls.find((c) => c.port === "slave" && c.path === "order/update" && c.status === 200 && (c.data.attributes as { status: number }).status === 3));
    expect(X.calls.some((c) => c.port === "main" && c.path === "order/update" && c.status === 503)).toBe(true);
    X.mainMode = "down";
    await ok(control("move", { orderId: v.id, to: "IN_PROCESS" }));
    await until("status 4 at the slave", () => X.calls.find((c) => c.port === "slave" && c.path === "order/update" && c.status === 200 && (c.data.attributes as { status: number }).status === 4));
    X.mainMode = "up";
    expect(X.orders.get(Number(first))!.status).toBe(4);
  });

  it("after a restart of the exchange: a new session, the orders re-read, nothing taken twice", async () => {
    const second = await offered("79160000002");
    await stateOf(`exchangeId=${second}`, "FREE");
    X.forgetSessions();
    // The seller cancels the first order; the notification is lost.
    X.orders.get(Number(first))!.status = 95;
    const logins = X.logins;
    await ok(control("take", { exchangeOrderId: second, driverId: fx.drivers[1]!.id, arrivalMinutes: 7 }));
    expect(X.logins).toBeGreaterThan(logins);
    await stateOf(`exchangeId=${second}`, "CONFIRMED");
    // The new session's re-reading finds the cancellation.
    await stateOf(`exchangeId=${first}`, "DONE_CANCELLED");
    expect(X.calls.some((c) => c.path === "order/get" && Array.isArray(c.data.orders) && c.status === 200)).toBe(true);
    expect(X.ok("order/take", second)).toHaveLength(1);
    expect(X.ok("order/take", first)).toHaveLength(1);
  });

  it("sells: registered, accepted, taken and completed without delivery ids", async () => {
    const orderId = fx.orders[0]!;
    await ok(control("sell", { orderId }));
    const registered = await until("POST /order", () => X.ok("order").find((c) => String(c.data.id) === String(orderId)));
    expect(registered.data).toMatchObject({ type: "order", attributes: { from: { latitude: expect.any(Number) as number } } });
    const sold = await until("accepted", async () => {
      const v = await view(`id=${orderId}`);
      return v?.exchangeLink?.phase === "ACCEPTED" ? v : undefined;
    });
    const id = sold.exchangeLink!.exchangeOrderId!;
    const taken = { id, orderId: "other-77", attributes: { time: { arrival: 6 }, executor: { callSign: "Z-1", phone: "79998887766", brand: "Lada", model: "Vesta", color: "синий", registrationNumber: "Т001ТТ77" } } };
    await ok(X.notify("order/taken", taken));
    expect((await ok(X.notify("order/taken", taken))).meta).toMatchObject({ duplicate: true });
    await stateOf(`id=${orderId}`, "SENT_TO_DRIVER");
    for (const [status, state] of [[2, "CONFIRMED"], [4, "IN_PROCESS"]] as const) {
      await ok(X.notify("order/updated", { id, attributes: { status } }));
      await stateOf(`id=${orderId}`, state);
    }
    await ok(X.notify("order/completed", { id, attributes: { fare: "450.00", distance: "5200" } }));
    const done = await stateOf(`id=${orderId}`, "DONE_SUCCESSFUL");
    expect(done.exchangeLink).toMatchObject({ phase: "CLOSED", remoteState: 100 });
  });
});
