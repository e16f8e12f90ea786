// End to end: three server processes with their own databases on loopback —
// the exchange X, our dispatch as seller A, our dispatch as taker B — and a
// third participant C that is a plain client of the exchange (a recorder as
// its server). The exchange reaches A and B through recording proxies in
// this test, which can also stand for B being down.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedServer } from "../support/server";
import { prepareDatabase, startOn, TEST_DB, withDatabase, type PreparedDb } from "../support/exchange/db";
import { addParticipants, fillDispatch, type DispatchFixture } from "../support/exchange/fixtures";
import { errorOf, get, post, until, type Reply } from "../support/exchange/http";
import { startReceiver, type Receiver } from "../support/exchange/receiver";

const CONTROL = "e2e-control-key-0123456789";
const DEPOSIT = 5_000_000n;
const keyA = `xk_A_${randomBytes(12).toString("hex")}`;
const keyB = `xk_B_${randomBytes(12).toString("hex")}`;
const keyC = `xk_C_${randomBytes(12).toString("hex")}`;

let X: StartedServer;
let A: StartedServer;
let B: StartedServer;
let xdb: PreparedDb;
let adb: PreparedDb;
let bdb: PreparedDb;
let fa: DispatchFixture;
let fb: DispatchFixture;
let proxyA: Receiver;
let proxyB: Receiver;
let recC: Receiver;
let ids: Record<string, number>;
let tokenC = "";

interface LocalOrder {
  id: number;
  state: string;
  driverId: number | null;
  phone: string;
  amount: number | null;
  exchangeLink: { phase: string; exchangeOrderId: string | null; executor: Record<string, unknown> | null; completion: unknown } | null;
  history: Array<{ toState: string; actorType: string }>;
}

const controlOf = (server: () => StartedServer) => ({
  post: (path: string, body: unknown) => post(`${server().url}/participant/control/${path}`, body, { headers: { authorization: `Bearer ${CONTROL}` } }),
  order: async (query: string): Promise<LocalOrder | undefined> => {
    const r = await get(`${server().url}/participant/control/order?${query}`, { headers: { authorization: `Bearer ${CONTROL}` } });
    return r.status === 200 ? (r.body.data as LocalOrder) : undefined;
  },
});
const ctlA = controlOf(() => A);
const ctlB = controlOf(() => B);

async function ok(reply: Promise<Reply> | Reply): Promise<Reply> {
  const r = await reply;
  expect(r.status, r.text).toBe(200);
  return r;
}

async function stateAt(ctl: typeof ctlA, query: string, state: string, timeoutMs = 20_000): Promise<LocalOrder> {
  return until(`${query} in ${state}`, async () => {
    const o = await ctl.order(query);
    return o && o.state === state ? o : undefined;
  }, timeoutMs);
}

/** A sells a local order; the exchange's id once A has been told `accepted`. */
async function sell(orderId: number): Promise<string> {
  await ok(ctlA.post("sell", { orderId }));
  const o = await until(`order ${orderId} accepted`, async () => {
    const v = await ctlA.order(`id=${orderId}`);
    return v?.exchangeLink?.phase === "ACCEPTED" ? v : undefined;
  });
  return o.exchangeLink!.exchangeOrderId!;
}

function takeByC(id: string): Promise<Reply> {
  return post(
    `${X.url}/exchange/order/take`,
    { data: { id, orderId: `c-${id}`, attributes: { time: { arrival: 9 }, executor: { callSign: "C-1", brand: "Lada", model: "Vesta", phone: "79990000001" } } } },
    { token: tokenC },
  );
}

beforeAll(async () => {
  proxyA = await startReceiver();
  proxyB = await startReceiver();
  recC = await startReceiver({ services: [{ id: 1, name: "Эконом", carClass: 1 }], drivers: [] });
  const one = [{ externalId: 1, name: "Эконом", carClass: 1, executes: true }];
  const x = await prepareDatabase(TEST_DB, (prisma) =>
    addParticipants(prisma, [
      { name: "A", url: `${proxyA.url}/participant`, key: keyA, services: one },
      { name: "B", url: `${proxyB.url}/participant`, key: keyB, services: one, deposit: DEPOSIT },
      { name: "C", url: recC.url, key: keyC, services: one, deposit: DEPOSIT },
    ]),
  );
  xdb = x.db;
  ids = x.result;
  X = await startOn(xdb, { EXCHANGE_CHECK_SECONDS: "2", EXCHANGE_COMMISSION_BP: "500" });
  const participantEnv = (key: string) => ({
    EXCHANGE_URL: `${X.url}/exchange`,
    EXCHANGE_CLIENT_KEY: key,
    EXCHANGE_CONTROL_KEY: CONTROL,
  });
  const a = await prepareDatabase(TEST_DB, (prisma) => fillDispatch(prisma, { prefix: "A", drivers: 2, orders: 8 }));
  adb = a.db;
  fa = a.result;
  const b = await prepareDatabase(TEST_DB, (prisma) => fillDispatch(prisma, { prefix: "B", drivers: 3, orders: 0 }));
  bdb = b.db;
  fb = b.result;
  A = await startOn(adb, participantEnv(keyA));
  B = await startOn(bdb, participantEnv(keyB));
  proxyA.options.forwardTo = A.url;
  proxyB.options.forwardTo = B.url;
  const s = await ok(post(`${X.url}/exchange/session`, { data: { key: keyC } }));
  tokenC = (s.body.data as { token: string }).token;
}, 300_000);

afterAll(async () => {
  for (const server of [A, B, X]) await server?.stop();
  for (const r of [proxyA, proxyB, recC]) await r?.stop();
  for (const d of [xdb, adb, bdb]) await d?.drop();
});

describe("three servers: the exchange, seller A, taker B", () => {
  it("the exchange checks the servers and knows A's and B's drivers", async () => {
    const found = await until("B's drivers at the exchange", async () => {
      const r = await post(`${X.url}/exchange/drivers`, { where: { callSign: { startsWith: "B1" } } }, { token: tokenC });
      const list = (r.body.data as { drivers: Array<{ callSign: string; brand: string; carClass: number }> } | undefined)?.drivers ?? [];
      return list.length === 3 ? list : undefined;
    });
    expect(found.map((d) => d.callSign)).toEqual(["B101", "B102", "B103"]);
    expect(found[0]).toMatchObject({ brand: "Kia", carClass: 1 });
    // The exchange checks each server in its own time: wait for A's as for B's.
    const a = await until("A's drivers at the exchange", async () => {
      const r = await post(`${X.url}/exchange/drivers`, { callSign: { in: ["A101", "A102"] } }, { token: tokenC });
      const list = (r.body.data as { drivers: unknown[] } | undefined)?.drivers ?? [];
      return list.length === 2 ? list : undefined;
    });
    expect(a).toHaveLength(2);
  });

  it("A sells; B receives and takes; A is told and sees B's driver; statuses flow; B completes", async () => {
    const orderA = fa.orders[0]!;
    const id = await sell(orderA);
    // B keeps the offer as a free local order; C (a plain participant) was offered it too.
    const offered = await stateAt(ctlB, `exchangeId=${id}`, "FREE");
    expect(offered).toMatchObject({ amount: 45_100, phone: "", exchangeLink: { phase: "OFFERED" } });
    await until("C's offer", () => recC.topics(id).includes("order/received"));

    const driver = fb.drivers[0]!;
    await ok(ctlB.post("take", { exchangeOrderId: id, driverId: driver.id }));
    const atB = await stateAt(ctlB, `exchangeId=${id}`, "CONFIRMED");
    expect(atB.driverId).toBe(driver.id);
    // B learns the client's contact from the take's reply, which the offer did not show.
    await until("client at B", async () => ((await ctlB.order(`exchangeId=${id}`))?.phone === "79160001001" ? true : undefined));

    // A: taken with B's driver, then confirmed.
    const atA = await stateAt(ctlA, `id=${orderA}`, "CONFIRMED");
    expect(atA.exchangeLink).toMatchObject({
      phase: "TAKEN",
      executor: { callSign: driver.callSign, brand: "Kia", model: "Rio", registrationNumber: "B100АА77", phone: "79002000001" },
    });
    expect(atA.driverId).toBeNull();
    await until("C lost the offer", () => recC.topics(id).includes("order/revoked"));

    // A tells its passenger (and says so); B follows.
    await ok(ctlA.post("move", { orderId: orderA, to: "CONFIRMED_CLIENT_NOTIFIED" }));
    await stateAt(ctlB, `exchangeId=${id}`, "CONFIRMED_CLIENT_NOTIFIED");
    // B's driver works the order; A follows every status.
    for (const to of ["AWAITING_CLIENT", "IN_PROCESS"]) {
      await ok(ctlB.post("move", { orderId: atB.id, to }));
      await stateAt(ctlA, `id=${orderA}`, to);
    }
    await ok(ctlB.post("move", { orderId: atB.id, to: "DONE_SUCCESSFUL" }));
    const done = await stateAt(ctlA, `id=${orderA}`, "DONE_SUCCESSFUL");
    expect(done.exchangeLink).toMatchObject({ phase: "CLOSED", completion: { fare: "451.00" } });
    const history = done.history.map((h) => `${h.toState}:${h.actorType}`);
    expect(history).toEqual([
      "FREE:SYSTEM",
      "SENT_TO_DRIVER:EXCHANGE",
      "CONFIRMED:EXCHANGE",
      "CONFIRMED_CLIENT_NOTIFIED:SYSTEM",
      "AWAITING_CLIENT:EXCHANGE",
      "IN_PROCESS:EXCHANGE",
      "DONE_SUCCESSFUL:EXCHANGE",
    ]);
    // The seller's order at the exchange, as A sees it.
    const tokenA = await ok(post(`${X.url}/exchange/session`, { data: { key: keyA } }));
    const got = await post(`${X.url}/exchange/order/get`, { data: { id } }, { token: (tokenA.body.data as { token: string }).token });
    expect(got.body).toMatchObject({ data: { id, attributes: { status: 100, executor: { callSign: driver.callSign } } } });
  });

  it("two participants take one order at once: exactly one wins, the other is told", async () => {
    for (const k of [1, 2, 3]) {
      const orderA = fa.orders[k]!;
      const id = await sell(orderA);
      await stateAt(ctlB, `exchangeId=${id}`, "FREE");
      await until("C's offer", () => recC.topics(id).includes("order/received"));
      const [byB, byC] = await Promise.all([ctlB.post("take", { exchangeOrderId: id, driverId: fb.drivers[k % 3]!.id }), takeByC(id)]);
      const statuses = [byB.status, byC.status].sort();
      expect(statuses).toEqual([200, 410]);
      if (byB.status === 200) {
        expect(errorOf(byC)).toMatchObject({ code: "Gone" });
        await stateAt(ctlB, `exchangeId=${id}`, "CONFIRMED");
        const atA = await stateAt(ctlA, `id=${orderA}`, "CONFIRMED");
        expect(atA.exchangeLink!.executor).toMatchObject({ callSign: fb.drivers[k % 3]!.callSign });
        await until("C told", () => recC.topics(id).includes("order/revoked"));
      } else {
        expect(errorOf(byB)).toMatchObject({ status: 410, code: "Gone" });
        // B's copy is closed by the `revoked` that follows; A sees C's driver.
        await stateAt(ctlB, `exchangeId=${id}`, "DONE_REMOVED");
        const atA = await stateAt(ctlA, `id=${orderA}`, "SENT_TO_DRIVER");
        expect(atA.exchangeLink!.executor).toMatchObject({ callSign: "C-1" });
      }
    }
  });

  it("B down while notifications are sent (and the exchange restarted): B gets every one, in order, after it comes back", async () => {
    await proxyB.down();
    const orderA = fa.orders[5]!;
    const id = await sell(orderA);
    await until("C's offer", () => recC.topics(id).includes("order/received"));
    await ok(ctlA.post("move", { orderId: orderA, to: "FREE_LONG" }));
    await until("C: updated", () => recC.topics(id).filter((t) => t === "order/updated").length === 1);
    await ok(ctlA.post("move", { orderId: orderA, to: "ORDER_ON_RADIO" }));
    await until("C: updated twice", () => recC.topics(id).filter((t) => t === "order/updated").length === 2);
    await ok(ctlA.post("move", { orderId: orderA, to: "DONE_CANCELLED", reason: "клиент ушёл" }));
    await until("C: cancelled", () => recC.topics(id).includes("order/cancelled"));
    const expected = ["order/received", "order/updated", "order/updated", "order/cancelled"];
    expect(recC.topics(id)).toEqual(expected);
    // The exchange restarts while B's notifications wait in its outbox.
    await X.restart();
    expect(await ctlB.order(`exchangeId=${id}`)).toBeUndefined();
    await proxyB.up();
    const closed = await stateAt(ctlB, `exchangeId=${id}`, "DONE_CANCELLED", 60_000);
    expect(proxyB.topics(id)).toEqual(expected);
    expect(closed.history.map((h) => h.toState)).toEqual(["FREE", "FREE_LONG", "ORDER_ON_RADIO", "DONE_CANCELLED"]);
  });

  it("the exchange's ledger: A credited the price, the commission taken from both", async () => {
    await X.stop();
    await withDatabase(xdb, async (prisma) => {
      const entries = await prisma.exchangeLedgerEntry.findMany({ orderBy: { id: "asc" } });
      const of = (name: string) => entries.filter((e) => e.participantId === ids[name]).map((e) => [e.kind, e.amount]);
      // The first order: 451.00 at 5 % commission each side (2255 kopecks); B's wins of the race were not completed.
      expect(of("A")).toEqual([
        ["SALE", 45_100n],
        ["COMMISSION", -2_255n],
      ]);
      expect(of("B")).toEqual([
        ["DEPOSIT", DEPOSIT],
        ["PURCHASE", -45_100n],
        ["COMMISSION", -2_255n],
      ]);
      const a = await prisma.exchangeParticipant.findUniqueOrThrow({ where: { id: ids.A! } });
      const b = await prisma.exchangeParticipant.findUniqueOrThrow({ where: { id: ids.B! } });
      expect(a.balance).toBe(45_100n - 2_255n);
      expect(b.balance).toBe(DEPOSIT - 45_100n - 2_255n);
      const servers = await prisma.exchangeServer.findMany({ where: { participantId: { in: [ids.A!, ids.B!] } } });
      expect(servers.every((s) => s.lastCheckAt !== null && s.vendor === "taxi-dispatch")).toBe(true);
    });
  });
});
