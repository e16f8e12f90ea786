// Money an attacker could make the system count twice or never, over real
// HTTP against a started server, checked afterwards in its database:
//   - bonuses read at quote time and spent later: orders priced on one
//     balance that covers one (one after another, and 20 at once) get the
//     discount once; the balance never goes below zero; a cancel gives the
//     hold back (once); a bonus price is bound to the phone it was made for;
//   - internal postings in the clients' namespace: every internal txn id of
//     the next orders (commission, bonus hold/release/earn) sent first as a
//     client's txn_id through the dispatch API's driver and customer
//     payments; the order still has its commission debited once, and its
//     bonuses held and earned once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import type { TestDatabase } from "../reliability/support/db";
import { dispatchClient, type DispatchClient } from "../reliability/support/dispatch";
import { closeAgents, send } from "../reliability/support/http";
import { startReceiver, type Receiver } from "../support/exchange/receiver";
import { addExchangeParticipants, exchangeCall, executor, orderAttributes, type Participant } from "../reliability/support/exchange";
import { freshDatabase, startInstance, template, type AppInstance } from "../reliability/support/instance";

/** The bonus client (a phone nobody else uses) and what it is given before the server starts. */
const PHONE = "+79160007711";
const PHONE_LOCAL = "89160007711";
const OTHER_PHONE = "89160007722";
/** Bonuses given: a 10 km trip's 30% is more than half of them, so they cover one discount, not two. */
const GRANT = 75;
const CONCURRENT = 20;
/** How many of the next order ids the attacker pre-claims. */
const CLAIMED_IDS = 40;
/** The driver (call sign) who carries the bonus order to its completion. */
const CARRIER = "101";

let database: TestDatabase;
let app: AppInstance;
let api: DispatchClient;
let firstOrderId = 0;
let customerId = 0;
let driverCode = "";
let receiver: Receiver;
let seller: Participant;
let buyer: Participant;
let exchangeOrderId = 0;

const trip = { way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }, { lat: 55.8, lon: 37.7 }]), distance: 10_000, route_time: 1200 };

beforeAll(async () => {
  receiver = await startReceiver();
  database = await freshDatabase();
  await database.use(async (prisma, query) => {
    [seller, buyer] = (await addExchangeParticipants(prisma, ["MoneySeller", "MoneyBuyer"], receiver.url)) as [Participant, Participant];
    const [max] = await query<{ id: number | null }>(`SELECT max(id) AS id FROM orders`);
    firstOrderId = Number(max?.id ?? 0) + 1;
    const [customer] = await query<{ id: number }>(`SELECT min(id) AS id FROM customer`);
    customerId = Number(customer!.id);
    const [client] = await query<{ id: number }>(`INSERT INTO client (phone, name, bonus) VALUES ($1, 'Бонусный клиент', $2) RETURNING id`, [PHONE, GRANT]);
    await query(`INSERT INTO client_bonus_entry (client_id, txn_id, amount, bonus_after, reason) VALUES ($1, 'test-grant', $2, $2, 'granted by the test')`, [client!.id, GRANT]);
  });
  app = await startInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0", DEMAND_STEP_PERCENT: "0" } });
  api = dispatchClient(app.url, template().apiKey);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await receiver?.stop();
  await database?.drop();
});

async function bonusCount(): Promise<number> {
  const r = await api.get<{ bonus: number }>("client/bonus/count", { phone: PHONE_LOCAL });
  expect(r.status, JSON.stringify(r.error)).toBe("DONE");
  return r.response.bonus;
}

async function bonusEstimate(): Promise<{ token: string; bonus_used: number; amount: number }> {
  const r = await api.get<{ token: string; bonus_used: number; amount: number }>("order/pre_cost", { ...trip, phone: PHONE_LOCAL, use_bonuses: "yes" });
  expect(r.status, JSON.stringify(r.error)).toBe("DONE");
  return r.response;
}

async function driverApp(method: "GET" | "POST", path: string, key: string, body?: unknown) {
  const r = await send(app.url, {
    method,
    path: `/driver-app/v1/${path}`,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    timeoutMs: 60_000,
  });
  return { status: r.status, body: JSON.parse(r.text) as Record<string, unknown> & { error?: { code: string } } };
}

describe("bonuses are held when the order is made", () => {
  const made: string[] = [];
  /** What one price takes of the balance: min(GRANT, 30% of the fare); more than half of it, so the balance covers one. */
  let discount = 0;

  it("binds a bonus price to its phone", async () => {
    const q = await bonusEstimate();
    discount = q.bonus_used;
    expect(discount).toBeGreaterThan(GRANT / 2);
    const other = await api.post("order", { token: q.token, phone: OTHER_PHONE, moderation_required: "no", need_notify: "no" });
    expect(other.error?.code).toBe("BAD_PARAMETER");
    expect(other.error?.message).toContain("phone");
    expect(await bonusCount()).toBe(GRANT);
  });

  it("three orders priced on a balance that covers one: one gets the discount, the others are refused", async () => {
    const quotes = [await bonusEstimate(), await bonusEstimate(), await bonusEstimate()];
    // Each estimate alone sees the whole balance (it only reads it).
    for (const q of quotes) expect(q.bonus_used).toBe(discount);
    const replies = [];
    for (const q of quotes) replies.push(await api.post<{ uuid: string }>("order", { token: q.token, moderation_required: "no", need_notify: "no" }));
    expect(replies[0]!.status, JSON.stringify(replies[0]!.error)).toBe("DONE");
    made.push(replies[0]!.response.uuid);
    for (const r of replies.slice(1)) expect(r.error?.code).toBe("TOKEN_INVALID");
    expect(await bonusCount()).toBe(GRANT - discount);
  });

  it("gives the hold back when the order is cancelled, once", async () => {
    const cancelled = await api.post("cancel_order", { uuid: made[0]! });
    expect(cancelled.status, JSON.stringify(cancelled.error)).toBe("DONE");
    expect(await bonusCount()).toBe(GRANT);
    await api.post("cancel_order", { uuid: made[0]! });
    await api.post("order/status", { uuid: made[0]!, code: 91 });
    expect(await bonusCount()).toBe(GRANT);
  });

  it(`${CONCURRENT} orders at once on one balance: one discount, never below zero`, async () => {
    const quotes = await Promise.all(Array.from({ length: CONCURRENT }, () => bonusEstimate()));
    for (const q of quotes) expect(q.bonus_used).toBe(discount);
    // Sent to a driver, who will carry the passenger (the completion below needs one).
    const replies = await Promise.all(quotes.map((q) => api.post<{ uuid: string }>("order", { token: q.token, moderation_required: "no", need_notify: "no", driver_id: CARRIER })));
    const won = replies.filter((r) => r.status === "DONE");
    expect(won, replies.map((r) => r.error?.code ?? "DONE").join(",")).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== "DONE")) expect(r.error?.code).toBe("TOKEN_INVALID");
    expect(await bonusCount()).toBe(GRANT - discount);
    made.push(won[0]!.response.uuid);
  });

  it("keeps the hold spent when the order completes, and earns on what was paid", async () => {
    const uuid = made[1]!;
    const info = await api.get<{ amount: number }>("order", { uuid });
    // completed after the driver's trip (a move to 100 needs an order a driver carried)
    for (const code of [2, 4, 100]) {
      const moved = await api.post("order/status", { uuid, code });
      expect(moved.status, `${code}: ${JSON.stringify(moved.error)}`).toBe("DONE");
    }
    const earned = Math.floor(info.response.amount * 0.05);
    expect(await bonusCount()).toBe(GRANT - discount + earned);
  });
});

describe("internal postings are out of the clients' reach", () => {
  it("pre-claimed txn ids of the next orders change nothing: the commission is debited once", async () => {
    const drivers = await api.get<{ drivers: Array<{ code: string; city_id?: number }> }>("drivers");
    driverCode = drivers.response.drivers[5]!.code;
    // Every internal id an order of the next CLAIMED_IDS may use, sent as clients' txn ids.
    const ids = Array.from({ length: CLAIMED_IDS }, (_, i) => firstOrderId + i);
    const internal = (id: number) => [`commission:order:${id}`, `order-${id}-bonus-held`, `order-${id}-bonus-released`, `order-${id}-bonus-spent`, `order-${id}-bonus-earned`];
    const before = (await api.get<{ balance: number }>("driver/balance", { driver_code: driverCode })).response.balance;
    for (const id of ids) {
      for (const txn of internal(id)) {
        const driverPaid = await api.post("driver/balance", { driver_code: driverCode, txn_id: txn, amount: 0.01 });
        expect(driverPaid.status, JSON.stringify(driverPaid.error)).toBe("DONE");
        const customerPaid = await api.post("customer/balance", { customer_id: customerId, txn_id: txn, amount: 0.01 });
        expect(customerPaid.status, JSON.stringify(customerPaid.error)).toBe("DONE");
      }
    }
    const claimed = before + (ids.length * internal(0).length) / 100;
    expect((await api.get<{ balance: number }>("driver/balance", { driver_code: driverCode })).response.balance).toBeCloseTo(claimed, 2);

    // An order for that driver, driven to completion through the driver app.
    const created = await api.post<{ uuid: string }>("order", { phone: "89160007733", street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no", driver_id: driverCode, amount: 500 });
    expect(created.status, JSON.stringify(created.error)).toBe("DONE");
    const uuid = created.response.uuid;
    const keyReply = await send(app.url, {
      method: "POST",
      path: "/driver-app/v1/keys",
      headers: { authorization: `Bearer ${provisioningKeyFor(template().appSecret)}`, "content-type": "application/json" },
      body: JSON.stringify({ call_sign: driverCode }),
      timeoutMs: 60_000,
    });
    expect(keyReply.status, keyReply.text).toBe(200);
    const key = String((JSON.parse(keyReply.text) as { app_key: string }).app_key);
    for (const code of [2, 4]) {
      const moved = await api.post("order/status", { uuid, code });
      expect(moved.status, JSON.stringify(moved.error)).toBe("DONE");
    }
    const completed = await driverApp("POST", "orders/complete", key, { uuid });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const commission = Number(completed.body.commission);
    expect(commission).toBeGreaterThan(0);
    expect(Number(completed.body.balance)).toBeCloseTo(claimed - commission, 2);
    // Again: nothing more.
    const again = await driverApp("POST", "orders/complete", key, { uuid });
    expect(Number(again.body.balance)).toBeCloseTo(claimed - commission, 2);
    expect((await api.get<{ balance: number }>("driver/balance", { driver_code: driverCode })).response.balance).toBeCloseTo(claimed - commission, 2);
  });
});

describe("the exchange's postings are the market's own", () => {
  it("a sale whose names look like the ledger's ids posts each entry once", async () => {
    // The exchange's ledger takes no txn id from any call; the nearest a participant comes is the ids it names.
    const registered = await exchangeCall(app.url, "order", seller.token, { id: "order:1:sale", type: "order", attributes: orderAttributes(1) });
    expect(registered.status, registered.text).toBe(200);
    const id = (JSON.parse(registered.text) as { data: { id: string } }).data.id;
    const taken = await exchangeCall(app.url, "order/take", buyer.token, { id, orderId: `order:${id}:purchase`, attributes: { time: { arrival: 5 }, executor: executor("order:1:commission:buyer") } });
    expect(taken.status, taken.text).toBe(200);
    const completed = await exchangeCall(app.url, "order/complete", buyer.token, { id, attributes: { fare: "300.00" } });
    expect(completed.status, completed.text).toBe(200);
    const again = await exchangeCall(app.url, "order/complete", buyer.token, { id });
    expect(again.status, again.text).toBe(200);
    exchangeOrderId = Number(id);
  });
});

describe("the ledgers afterwards", () => {
  it("add up: balances are the sums of their entries, never below zero, internal postings once", async () => {
    await app.stop();
    await database.use(async (_prisma, query) => {
      const [client] = await query<{ bonus: number; sum: string; low: number }>(
        `SELECT c.bonus, (SELECT sum(amount) FROM client_bonus_entry WHERE client_id = c.id) AS sum,
                (SELECT min(bonus_after) FROM client_bonus_entry WHERE client_id = c.id) AS low
           FROM client c WHERE c.phone = $1`,
        [PHONE],
      );
      expect(Number(client!.sum)).toBe(client!.bonus);
      expect(client!.low).toBeGreaterThanOrEqual(0);
      const kinds = await query<{ kind: string; n: string }>(
        `SELECT regexp_replace(txn_id, '^order-\\d+-', '') AS kind, count(*) AS n FROM client_bonus_entry c
           JOIN client ON client.id = c.client_id AND client.phone = $1 GROUP BY 1 ORDER BY 1`,
        [PHONE],
      );
      expect(Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]))).toEqual({ "bonus-earned": 1, "bonus-held": 2, "bonus-released": 1, "test-grant": 1 });
      const commissions = await query<{ kind: string; order_id: number | null; n: string }>(
        `SELECT e.kind::text AS kind, count(*) AS n FROM driver_ledger_entry e JOIN driver d ON d.id = e.driver_id
          WHERE d.call_sign = $1 AND e.txn_id LIKE 'commission:order:%' GROUP BY 1 ORDER BY 1`,
        [driverCode],
      );
      expect(Object.fromEntries(commissions.map((c) => [c.kind, Number(c.n)]))).toEqual({ COMMISSION: 1, PAYMENT: CLAIMED_IDS });
      const [driver] = await query<{ balance: string; sum: string }>(
        `SELECT d.balance, (SELECT sum(amount) FROM driver_ledger_entry WHERE driver_id = d.id) AS sum FROM driver d WHERE d.call_sign = $1`,
        [driverCode],
      );
      // The seed writes each driver's opening balance as an entry too.
      expect(BigInt(driver!.sum)).toBe(BigInt(driver!.balance));
      const market = await query<{ kind: string; txn_id: string }>(
        `SELECT kind::text AS kind, txn_id FROM exchange_ledger_entry WHERE exchange_order_id = $1 ORDER BY txn_id`,
        [exchangeOrderId],
      );
      const id = exchangeOrderId;
      expect(market.map((e) => `${e.kind} ${e.txn_id}`)).toEqual(
        [`COMMISSION order:${id}:commission:buyer`, `COMMISSION order:${id}:commission:seller`, `PURCHASE order:${id}:purchase`, `SALE order:${id}:sale`],
      );
      const participants = await query<{ balance: string; sum: string }>(
        `SELECT p.balance::text AS balance, (SELECT sum(amount) FROM exchange_ledger_entry WHERE participant_id = p.id)::text AS sum
           FROM exchange_participant p WHERE p.id = ANY($1::int[])`,
        [[seller.id, buyer.id]],
      );
      for (const p of participants) expect(BigInt(p.sum)).toBe(BigInt(p.balance));
    });
  });
});
