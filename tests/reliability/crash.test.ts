// Crashes: the server is killed with SIGKILL in the middle of a load of
// order creation, status changes, exchange trading (whose notifications go
// out through the outbox) and exchange notifications arriving at our
// participant endpoints; it is started again on the same database, twice.
// Then:
//   - every acknowledged order is there, every acknowledged status change is
//     in its order's history, and every history is a valid path;
//   - every outbox message (status callbacks, exchange notifications) is
//     delivered, each callback matches one history entry, none is enqueued
//     twice; a delivery the kill interrupted may arrive again with the same
//     delivery id (at least once; receivers deduplicate by it), never more
//     often than it was attempted;
//   - every inbound exchange notification, all sent once more after the
//     restarts, is applied once (one local order per offer).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "@/server/auth/api-keys";
import { canMove, codeOf, isOrderState, stateOfCode, type OrderState } from "@/server/orders/states";
import { FakeExchange } from "../support/exchange/fake-exchange";
import { startReceiver, type Receiver } from "../support/exchange/receiver";
import type { TestDatabase } from "./support/db";
import { dispatchClient, type DispatchClient } from "./support/dispatch";
import { addExchangeParticipants, exchangeCall, executor, orderAttributes, type Participant } from "./support/exchange";
import { closeAgents, send, until } from "./support/http";
import { freshDatabase, startInstance, type AppInstance } from "./support/instance";

const WORKERS = 8;
const LEASE_SECONDS = 30; // server/notifications/worker.ts: a delivery cut off by the crash is retried after its lease

let database: TestDatabase;
let app: AppInstance;
let api: DispatchClient;
let receiver: Receiver;
let fake: FakeExchange;
let seller: Participant;
let buyers: Participant[];
const callbackKey = `crash-key-${randomUUID()}`;

const acked = {
  orders: new Map<string, OrderState>(),
  moves: [] as Array<{ uuid: string; code: number }>,
  registered: new Map<string, string>(), // source id -> exchange id
  taken: new Set<string>(),
};
/** Every inbound notification sent (acknowledged or not): sent again after the restarts. */
const inbound: Array<{ deliveryId: string; exchangeId: string; acked: boolean }> = [];
let counter = 0;
let lastStart = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  fake = await new FakeExchange().start();
  database = await freshDatabase();
  await database.use(async (prisma) => {
    const made = await addExchangeParticipants(prisma, ["CrashSeller", "CrashBuyer1", "CrashBuyer2"], receiver.url);
    seller = made[0]!;
    buyers = made.slice(1);
    await issueApiKey(prisma, { name: "crash callbacks", key: callbackKey, callbackTemplate: `${receiver.url}/cb/%uuid%/%status_code%` });
  });
  app = await startInstance(database, {
    env: {
      RATE_LIMIT_PER_KEY: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
      OUTBOX_POLL_MS: "50",
      EXCHANGE_URL: fake.url,
      EXCHANGE_CLIENT_KEY: "xk_crash-participant-key",
    },
  });
  lastStart = Date.now();
  api = dispatchClient(app.url, callbackKey);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await receiver?.stop();
  await fake?.stop();
  await database?.drop();
});

function pick<T>(list: T[]): T | undefined {
  return list[Math.floor(Math.random() * list.length)];
}

const MOVE_CODES = [1, 8, 9, 12, 91, 93, 94, 95, 100];

/** One unit of work; false when the server did not answer (it is down). */
async function work(): Promise<boolean> {
  const roll = Math.random();
  try {
    if (roll < 0.35 || acked.orders.size === 0) {
      const r = await api.post<{ uuid: string }>("order", { phone: "89161234567", street: "ул. Ленина", house: String(2 + (counter++ % 4)), moderation_required: "no", need_notify: "no" });
      if (r.status === "DONE") acked.orders.set(r.response.uuid, "FREE");
      else throw new Error(`create: ${JSON.stringify(r.error)}`);
    } else if (roll < 0.65) {
      const uuid = pick([...acked.orders.keys()])!;
      const from = acked.orders.get(uuid)!;
      const code = pick(MOVE_CODES.filter((c) => canMove(from, stateOfCode(c)!))) ?? 9;
      const r = await api.post<{ code: number; name: string }>("order/status", { uuid, code });
      if (r.status === "DONE") {
        acked.moves.push({ uuid, code });
        acked.orders.set(uuid, r.response.name as OrderState);
      } else if (r.error?.code !== "FORBIDDEN_MOVE" && r.error?.code !== "CONFLICT") throw new Error(`move: ${JSON.stringify(r.error)}`);
    } else if (roll < 0.85) {
      const open = [...acked.registered.entries()].filter(([, id]) => !acked.taken.has(id));
      if (open.length && Math.random() < 0.5) {
        const [, id] = pick(open)!;
        const buyer = pick(buyers)!;
        const r = await exchangeCall(app.url, "order/take", buyer.token, { id, orderId: `local-${id}`, attributes: { time: { arrival: 6 }, executor: executor(`CR-${id}`) } });
        if (r.status === 200) acked.taken.add(id);
        else if (r.status !== 410) throw new Error(`take: ${r.status} ${r.text}`);
      } else {
        const source = `crash-${counter++}-${randomUUID().slice(0, 6)}`;
        const r = await exchangeCall(app.url, "order", seller.token, { id: source, type: "order", attributes: orderAttributes(counter) });
        if (r.status === 200) acked.registered.set(source, String((JSON.parse(r.text) as { data: { id: string } }).data.id));
        else throw new Error(`register: ${r.status} ${r.text}`);
      }
    } else {
      const note = { deliveryId: randomUUID(), exchangeId: String(900_000 + counter++), acked: false };
      inbound.push(note);
      const r = await offer(note);
      if (r.status === 200) note.acked = true;
      else throw new Error(`inbound: ${r.status} ${r.text}`);
    }
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"].includes(code) || /socket hang up|no reply/.test(String(error))) return false;
    if (!app.running) return false;
    throw error;
  }
}

function offer(note: { deliveryId: string; exchangeId: string }) {
  return send(app.url, {
    method: "POST",
    path: "/participant/on/order/received",
    headers: { "content-type": "application/json", "x-delivery-id": note.deliveryId },
    body: JSON.stringify({
      meta: { deliveryId: note.deliveryId },
      data: { id: note.exchangeId, type: "order", attributes: { from: { street: "ул. Садовая", house: "3", latitude: 55.752, longitude: 37.622 }, to: { street: "ул. Речная", house: "8", latitude: 55.77, longitude: 37.64 }, carClass: 1, fare: 300, status: 9 } },
    }),
    timeoutMs: 30_000,
  });
}

/** Load from WORKERS clients; the server is killed with SIGKILL after killAfterMs. */
async function loadAndCrash(killAfterMs: number, minDone = 12): Promise<number> {
  let done = 0;
  const started = Date.now();
  // Time is the subject: the kill lands at a moment of the load, whatever is in flight then. On a loaded machine
  // it also waits for some acknowledged work, so that every kill has writes behind it to lose (a floor on the
  // throughput would test the machine's speed, not the product's durability).
  const killer = (async () => {
    await new Promise((r) => setTimeout(r, killAfterMs));
    while (done < minDone && Date.now() - started < 120_000) await new Promise((r) => setTimeout(r, 50));
    await app.kill("SIGKILL");
  })();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (await work()) done++;
    }),
  );
  await killer;
  return done;
}

describe("crash", () => {
  it("keeps every acknowledged write through two SIGKILLs in the middle of a load", async () => {
    // Some work first, so that the kills find orders to move and offers to take.
    for (let i = 0; i < 12; i++) await work();
    const first = await loadAndCrash(4000);
    expect(app.process?.signalCode).toBe("SIGKILL");
    await app.start();
    lastStart = Date.now();
    const second = await loadAndCrash(3000);
    expect(app.process?.signalCode).toBe("SIGKILL");
    await app.start();
    lastStart = Date.now();
    expect(first + second, "acknowledged operations before the two kills").toBeGreaterThan(20);

    // Every acknowledged order is readable again.
    for (const uuid of acked.orders.keys()) {
      const r = await api.get("order/status", { uuid });
      expect(r.status, `${uuid}: ${JSON.stringify(r.error)}`).toBe("DONE");
    }
    // Every offer is sent again (the exchange would redeliver): accepted, applied at most once.
    for (const note of inbound) {
      const r = await offer(note);
      expect(r.status, r.text).toBe(200);
    }
  });

  it("delivers every notification after the restarts, none enqueued twice", async () => {
    // Deliveries cut off by a kill wait for their lease; then the outbox drains: nothing pending in the database.
    const pending = () => database.use(async (_prisma, query) => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_message WHERE status = 'PENDING'`))[0]!.n);
    if (database.kind === "postgres") {
      await until("the outbox to drain", async () => (await pending()) === 0, LEASE_SECONDS * 1000 + 90_000, 250);
    } else {
      // PGlite is readable only while its server is stopped: the lease is waited out (time is the subject
      // here), then the server is stopped to look, and started again while something is still pending.
      const wait = LEASE_SECONDS * 1000 + 1000 - (Date.now() - lastStart);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      for (let round = 0; ; round++) {
        const seen = receiver.received.length;
        await app.kill("SIGTERM");
        if ((await pending()) === 0) break;
        expect(round, "rounds of waiting for the outbox to drain").toBeLessThan(10);
        await app.start();
        await until("a further delivery", () => receiver.received.length > seen, 60_000);
      }
    }
    await app.kill("SIGTERM");
    await database.use(async (prisma, query) => {
      // Orders and moves
      const orders = await prisma.order.findMany({
        where: { uuid: { in: [...acked.orders.keys()] } },
        select: { id: true, uuid: true, state: true, history: { orderBy: { id: "asc" }, select: { fromState: true, toState: true, toCode: true } } },
      });
      expect(orders).toHaveLength(acked.orders.size);
      const byUuid = new Map(orders.map((o) => [o.uuid, o]));
      for (const m of acked.moves) {
        const o = byUuid.get(m.uuid)!;
        expect(o.history.some((h) => h.toCode === m.code || (m.code === 95 && h.toState === "DONE_CANCELLED")), `${m.uuid} ${m.code}`).toBe(true);
      }
      for (const o of orders) {
        let at: string | null = null;
        for (const h of o.history) {
          expect(h.fromState).toBe(at);
          if (at !== null) expect(isOrderState(at) && isOrderState(h.toState) && canMove(at, h.toState)).toBe(true);
          at = h.toState;
        }
        expect(o.state).toBe(at);
      }

      // The outbox: everything delivered.
      const outbox = await query<{ id: number; delivery_id: string; channel: string; status: string; attempts: number; target: string; ordering_key: string; payload: { statusCode?: number } }>(
        `SELECT id, delivery_id::text AS delivery_id, channel, status, attempts, target, ordering_key, payload FROM outbox_message ORDER BY id`,
      );
      const undelivered = outbox.filter((m) => m.status !== "DELIVERED" && m.channel !== "sms");
      expect(undelivered.map((m) => `${m.channel} ${m.target} ${m.status}`)).toEqual([]);

      // One callback per status change of an order, in order; none twice.
      for (const o of orders) {
        const callbacks = outbox.filter((m) => m.channel === "callback" && m.ordering_key === `order:${o.id}`).map((m) => m.payload.statusCode);
        expect(callbacks, o.uuid).toEqual(o.history.map((h) => h.toCode));
      }

      // The receiver got every message meant for it; a message received twice was attempted at least twice.
      const mine = outbox.filter((m) => m.target.startsWith(receiver.url));
      const received = new Map<string, number>();
      for (const r of receiver.received.filter((x) => x.status === 200 && x.deliveryId)) received.set(r.deliveryId!, (received.get(r.deliveryId!) ?? 0) + 1);
      expect(mine.filter((m) => !received.has(m.delivery_id)).map((m) => `${m.channel} ${m.target}`)).toEqual([]);
      const known = new Set(outbox.map((m) => m.delivery_id));
      expect([...received.keys()].filter((id) => !known.has(id))).toEqual([]);
      for (const m of mine) expect(received.get(m.delivery_id)!, `${m.channel} ${m.target}`).toBeLessThanOrEqual(m.attempts);
      const twice = mine.filter((m) => received.get(m.delivery_id)! > 1).length;
      console.log(`crash: ${acked.orders.size} orders, ${acked.moves.length} moves, ${acked.registered.size} exchange orders (${acked.taken.size} taken), ${inbound.length} offers; ${outbox.length} outbox messages, ${twice} delivered again after a kill`);

      // The exchange: every acknowledged registration and take.
      for (const [source, id] of acked.registered) {
        const x = await prisma.exchangeOrder.findUniqueOrThrow({ where: { id: Number(id) }, select: { sourceOrderId: true, executorId: true } });
        expect(x.sourceOrderId).toBe(source);
        if (acked.taken.has(id)) expect(x.executorId).not.toBeNull();
      }

      // Inbound notifications: each delivery id recorded once, one local order per offer.
      const ids = inbound.map((n) => n.deliveryId);
      const recorded = await prisma.inboundNotification.count({ where: { deliveryId: { in: ids } } });
      expect(recorded).toBe(ids.length);
      const links = await prisma.exchangeLink.findMany({ where: { exchangeOrderId: { in: inbound.map((n) => n.exchangeId) } }, select: { exchangeOrderId: true } });
      expect(links.map((l) => l.exchangeOrderId).sort()).toEqual(inbound.map((n) => n.exchangeId).sort());
      expect(codeOf("FREE")).toBe(9);
    });
  });
});
