// Races, over real HTTP against one server, checked afterwards in the
// database itself:
//   - 200 concurrent driver-balance payments, a quarter of them repeating a
//     txn_id: the final balance is exact and each txn_id applied once;
//   - 50 participants taking one exchange order at once: one executor, the
//     other 49 get Gone;
//   - concurrent status changes of one order (many orders at once): each
//     history is one valid path through the state machine;
//   - concurrent order creation from one price token: one order per token.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canMove, codeOf, isOrderState, stateOfCode, type OrderState } from "@/server/orders/states";
import { startReceiver, type Receiver } from "../support/exchange/receiver";
import type { TestDatabase } from "./support/db";
import { dispatchClient, priceToken, type DispatchClient } from "./support/dispatch";
import { addExchangeParticipants, exchangeCall, executor, orderAttributes, type Participant } from "./support/exchange";
import { closeAgents } from "./support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "./support/instance";

const PAYMENTS = 200;
const TAKERS = 50;
const STATUS_ORDERS = 16;
const STATUS_WRITERS = 12;
const TOKEN_USES = 50;

let database: TestDatabase;
let app: AppInstance;
let api: DispatchClient;
let receiver: Receiver;
let seller: Participant;
let takers: Participant[];

// What the races left, checked in the database at the end.
const expected = {
  driverCode: "",
  balanceBefore: 0,
  txns: new Map<string, number>(),
  exchangeOrderId: 0,
  winner: 0,
  statusOrders: [] as string[],
  statusReplies: new Map<string, number>(),
  tokens: [] as string[],
  tokenOrders: new Map<string, string>(),
};

beforeAll(async () => {
  receiver = await startReceiver();
  database = await freshDatabase();
  await database.use(async (prisma) => {
    const made = await addExchangeParticipants(prisma, ["Seller", ...Array.from({ length: TAKERS }, (_, i) => `Taker${i + 1}`)], receiver.url);
    seller = made[0]!;
    takers = made.slice(1);
  });
  // No load shedding (MAX_REQUESTS_IN_FLIGHT=0): the races must reach the database all at once, not 64 at a time.
  app = await startInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0", MAX_REQUESTS_IN_FLIGHT: "0" } });
  api = dispatchClient(app.url, template().apiKey);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await receiver?.stop();
  await database?.drop();
});

describe("races", () => {
  it(`${PAYMENTS} concurrent payments to one driver, a quarter repeating a txn_id: each applied once`, async () => {
    const drivers = await api.get<{ drivers: Array<{ code: string }> }>("drivers");
    expected.driverCode = drivers.response.drivers[3]!.code;
    const before = await api.get<{ balance: number }>("driver/balance", { driver_code: expected.driverCode });
    expected.balanceBefore = before.response.balance;
    const unique = PAYMENTS - PAYMENTS / 4;
    const payments: Array<{ txn: string; amount: number }> = [];
    for (let i = 0; i < unique; i++) {
      // Kopeck amounts, credits and debits, so that rounding would show.
      const amount = ((i % 7) - 3) * 100 + (i % 13) + 0.01 * (i % 100) || 1.23;
      payments.push({ txn: `race-${randomUUID()}`, amount: Math.round(amount * 100) / 100 });
    }
    for (let i = 0; i < PAYMENTS / 4; i++) payments.push(payments[(i * 3) % unique]!);
    payments.sort(() => Math.random() - 0.5);
    const replies = await Promise.all(payments.map((p) => api.post<{ balance: number }>("driver/balance", { driver_code: expected.driverCode, txn_id: p.txn, amount: p.amount })));
    for (const r of replies) expect(r.status, JSON.stringify(r.error)).toBe("DONE");
    // A repeated txn_id replies the balance its payment left: every reply of one txn_id agrees.
    const byTxn = new Map<string, Set<number>>();
    payments.forEach((p, i) => {
      expected.txns.set(p.txn, p.amount);
      const set = byTxn.get(p.txn) ?? new Set<number>();
      set.add(replies[i]!.response.balance);
      byTxn.set(p.txn, set);
    });
    for (const [txn, balances] of byTxn) expect([...balances], txn).toHaveLength(1);
    const total = [...expected.txns.values()].reduce((a, b) => a + Math.round(b * 100), 0);
    const after = await api.get<{ balance: number }>("driver/balance", { driver_code: expected.driverCode });
    expect(Math.round(after.response.balance * 100)).toBe(Math.round(expected.balanceBefore * 100) + total);
    // The highest balance any reply saw is one of the ledger's running balances; the last one is the final balance.
    expect(new Set(replies.map((r) => r.response.balance)).has(after.response.balance)).toBe(true);
  });

  it(`${TAKERS} participants take one exchange order at once: exactly one executor, the rest Gone`, async () => {
    const registered = await exchangeCall(app.url, "order", seller.token, { id: `race-${randomUUID().slice(0, 8)}`, type: "order", attributes: orderAttributes(1) });
    expect(registered.status, registered.text).toBe(200);
    const id = (JSON.parse(registered.text) as { data: { id: string } }).data.id;
    expected.exchangeOrderId = Number(id);
    const replies = await Promise.all(
      takers.map((t, i) => exchangeCall(app.url, "order/take", t.token, { id, orderId: `${t.name}-local`, attributes: { time: { arrival: 5 }, executor: executor(`R-${i + 1}`) } })),
    );
    const won = replies.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(won, replies.map((r) => `${r.status} ${r.text.slice(0, 120)}`).join("\n")).toHaveLength(1);
    expected.winner = takers[won[0]!]!.id;
    for (const r of replies.filter((x) => x.status !== 200)) {
      expect(r.status, r.text).toBe(410);
      expect((JSON.parse(r.text) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe("Gone");
    }
  });

  it(`concurrent status changes (${STATUS_ORDERS} orders, ${STATUS_WRITERS} writers each): each history is one valid path`, async () => {
    const codes = [1, 2, 3, 4, 5, 8, 9, 10, 12, 16, 50, 87, 91, 93, 94, 95, 99, 100];
    const orders = await Promise.all(
      Array.from({ length: STATUS_ORDERS }, (_, i) =>
        api.post<{ uuid: string }>("order", { phone: "89161234567", street: "ул. Ленина", house: String((i % 4) + 2), moderation_required: "no", need_notify: "no", ...(i % 2 ? { driver_id: String(101 + (i % 4)) } : {}) }),
      ),
    );
    for (const o of orders) expect(o.status, JSON.stringify(o.error)).toBe("DONE");
    expected.statusOrders = orders.map((o) => o.response.uuid);
    const writes = expected.statusOrders.flatMap((uuid) =>
      Array.from({ length: STATUS_WRITERS }, (_, j) => ({ uuid, code: codes[(j * 7 + uuid.charCodeAt(0)) % codes.length]! })),
    );
    writes.sort(() => Math.random() - 0.5);
    const replies = await Promise.all(writes.map((w) => api.post<{ code: number }>("order/status", { uuid: w.uuid, code: w.code })));
    replies.forEach((r, i) => {
      if (r.status === "DONE") expected.statusReplies.set(writes[i]!.uuid, (expected.statusReplies.get(writes[i]!.uuid) ?? 0) + 1);
      // Refusals are the state machine's, never a failure.
      else expect(["FORBIDDEN_MOVE", "CONFLICT"], JSON.stringify(r.error)).toContain(r.error?.code);
    });
    expect([...expected.statusReplies.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(STATUS_ORDERS);
  });

  it(`${TOKEN_USES} concurrent creations from one price token make one order (and so for several tokens at once)`, async () => {
    expected.tokens = await Promise.all(["2", "3", "4", "5"].map((house) => priceToken(api, house)));
    const uses = expected.tokens.flatMap((token) => Array.from({ length: TOKEN_USES / 2 }, () => token));
    uses.push(...Array.from({ length: TOKEN_USES / 2 }, () => expected.tokens[0]!));
    uses.sort(() => Math.random() - 0.5);
    const replies = await Promise.all(uses.map((token) => api.post<{ uuid: string }>("order", { token, moderation_required: "no" })));
    for (const token of expected.tokens) {
      const mine = replies.filter((_, i) => uses[i] === token);
      // One key uses it: every use answers the one order (a retry by the key that used a token gets its order).
      const done = mine.filter((r) => r.status === "DONE");
      expect(done, token.slice(0, 20)).toHaveLength(mine.length);
      expect(new Set(done.map((r) => r.response.uuid)).size, token.slice(0, 20)).toBe(1);
      expected.tokenOrders.set(token, done[0]!.response.uuid);
    }
  });

  it("the database agrees: one ledger entry per txn_id, one executor, valid histories, one order per token", async () => {
    await app.kill("SIGTERM");
    await database.use(async (prisma, query) => {
      // Payments
      const driver = await prisma.driver.findUniqueOrThrow({ where: { callSign: expected.driverCode }, select: { id: true, balance: true } });
      const entries = await prisma.driverLedgerEntry.findMany({ where: { txnId: { in: [...expected.txns.keys()] } }, select: { txnId: true, amount: true, balanceAfter: true } });
      expect(entries).toHaveLength(expected.txns.size);
      for (const e of entries) expect(Number(e.amount)).toBe(Math.round(expected.txns.get(e.txnId)! * 100));
      const last = await prisma.driverLedgerEntry.findFirstOrThrow({ where: { driverId: driver.id }, orderBy: { id: "desc" }, select: { balanceAfter: true } });
      expect(last.balanceAfter).toBe(driver.balance);
      const sum = entries.reduce((a, e) => a + e.amount, 0n);
      // The later tests may move the driver's money too (the status writers give orders to drivers
      // 102 and 104, and a completed one is charged its commission): those entries, after the payments, count as well.
      const firstId = (await prisma.driverLedgerEntry.findFirstOrThrow({ where: { txnId: { in: [...expected.txns.keys()] } }, orderBy: { id: "asc" }, select: { id: true } })).id;
      const later = await prisma.driverLedgerEntry.findMany({ where: { driverId: driver.id, id: { gt: firstId }, txnId: { notIn: [...expected.txns.keys()] } }, select: { amount: true } });
      const laterSum = later.reduce((a, e) => a + e.amount, 0n);
      expect(driver.balance).toBe(BigInt(Math.round(expected.balanceBefore * 100)) + sum + laterSum);

      // The exchange order: one executor, the winner; one move to SENT_TO_DRIVER.
      const xo = await prisma.exchangeOrder.findUniqueOrThrow({ where: { id: expected.exchangeOrderId }, select: { executorId: true } });
      expect(xo.executorId).toBe(expected.winner);
      const takes = await query<{ n: number }>(`SELECT count(*)::int AS n FROM exchange_status_change WHERE exchange_order_id = $1 AND reason = 'taken'`, [expected.exchangeOrderId]);
      expect(takes[0]!.n).toBe(1);

      // Status histories: one path each, every step allowed, ending in the order's state.
      for (const uuid of expected.statusOrders) {
        const order = await prisma.order.findUniqueOrThrow({ where: { uuid }, select: { state: true, statusCode: true, history: { orderBy: { id: "asc" }, select: { fromState: true, toState: true, toCode: true } } } });
        const [first, ...moves] = order.history;
        expect(first?.fromState ?? null).toBeNull();
        let at = first!.toState;
        for (const m of moves) {
          expect(m.fromState, `${uuid}: ${order.history.map((h) => h.toState).join(" > ")}`).toBe(at);
          expect(isOrderState(m.fromState!) && isOrderState(m.toState) && canMove(m.fromState, m.toState), `${m.fromState} > ${m.toState}`).toBe(true);
          expect(m.toCode).toBe(codeOf(m.toState as OrderState));
          at = m.toState;
        }
        expect(order.state).toBe(at);
        expect(order.statusCode).toBe(codeOf(at as OrderState));
        expect(moves).toHaveLength(expected.statusReplies.get(uuid) ?? 0);
      }
      expect(stateOfCode(95)).toBe("DONE_CANCELLED");

      // Tokens: the order made from each carries it; no other order does.
      for (const [, uuid] of expected.tokenOrders) {
        const order = await prisma.order.findUniqueOrThrow({ where: { uuid }, select: { priceToken: true } });
        expect(order.priceToken).toBeTruthy();
      }
      const jtis = [...expected.tokenOrders.keys()].map((t) => (JSON.parse(Buffer.from(t.split(".")[0]!, "base64url").toString()) as { jti: string }).jti);
      const made = await prisma.order.count({ where: { priceToken: { in: jtis } } });
      expect(made).toBe(expected.tokens.length);
    });
    await app.start();
  });
});
