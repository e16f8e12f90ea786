// Order creation writes everything in one statement (server/orders/insert-order.ts).
// Over real HTTP against one server, checked afterwards in the database:
//   - an order with extras, a driver and a key with a callback template: the
//     order row, its first history entry (who), its extras at their prices,
//     the client, the driver now busy, and one callback naming the order's
//     id, uuid and status;
//   - a blacklisted phone: refused, and nothing written (no client, no order);
//   - a reused token: its order again for the key that used it, refused for
//     another key, nothing more written;
//   - concurrent orders of one new phone: one client row, every order on it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "@/server/auth/api-keys";
import { BLACKLISTED_PHONE } from "@/server/seed/demo/plan";
import type { TestDatabase } from "./support/db";
import { dispatchClient, priceToken, type DispatchClient } from "./support/dispatch";
import { closeAgents } from "./support/http";
import { freshDatabase, startInstance, template, type AppInstance } from "./support/instance";

const CONCURRENT = 30;

let database: TestDatabase;
let app: AppInstance;
let api: DispatchClient;
const callbackKey = `creation-key-${randomUUID()}`;
const concurrentPhone = `7916${String(Date.now()).slice(-7)}`;

const made = {
  full: "",
  extras: [] as Array<{ id: number; price: number }>,
  token: "",
  tokenOrder: "",
  concurrent: [] as string[],
  keyId: 0,
};

beforeAll(async () => {
  database = await freshDatabase();
  made.keyId = await database.use(async (prisma) => (await issueApiKey(prisma, { name: "creation", key: callbackKey, callbackTemplate: "http://127.0.0.1:9/cb?id=%id%&uuid=%uuid%&code=%status_code%&car=%autonum%" })).id);
  app = await startInstance(database, { env: { RATE_LIMIT_PER_KEY: "0", RATE_LIMIT_PER_ADDRESS: "0" } });
  api = dispatchClient(app.url, callbackKey);
}, 300_000);

afterAll(async () => {
  closeAgents();
  await app?.stop();
  await database?.drop();
});

describe("order creation in one statement", () => {
  it("creates an order with extras, a driver and a status callback", async () => {
    const list = await api.get<{ extras: Array<{ id: number; price: number; allow_multiple: boolean }> }>("extras", { service_id: 1 });
    const multiple = list.response.extras.find((e) => e.allow_multiple)!;
    const single = list.response.extras.find((e) => !e.allow_multiple)!;
    made.extras = [
      { id: multiple.id, price: Math.round(multiple.price * 100) },
      { id: single.id, price: Math.round(single.price * 100) },
    ];
    const reply = await api.post<{ uuid: string }>("order", {
      phone: "8 (916) 555-44-33",
      name: "Анна",
      street: "ул. Ленина",
      house: "2",
      dst_street: "ул. Ленина",
      dst_house: "4",
      extras: `${multiple.id}*2,${single.id}`,
      moderation_required: "no",
      driver_id: "104",
      comment: "у второго подъезда",
    });
    expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
    made.full = reply.response.uuid;
  });

  it("refuses a blacklisted phone", async () => {
    const reply = await api.post("order", { phone: BLACKLISTED_PHONE, street: "ул. Ленина", house: "3" });
    expect(reply.error?.code).toBe("BLACKLISTED");
  });

  it("makes one order of a token: again by its key, the same order; by another key, refused", async () => {
    made.token = await priceToken(api, "5");
    const first = await api.post<{ uuid: string }>("order", { token: made.token, phone: "89167770011" });
    expect(first.status, JSON.stringify(first.error)).toBe("DONE");
    made.tokenOrder = first.response.uuid;
    // The key that used it gets its order back (a retry whose reply was lost), nothing more written.
    const again = await api.post<{ uuid: string }>("order", { token: made.token, phone: "89167770011" });
    expect(again.status, JSON.stringify(again.error)).toBe("DONE");
    expect(again.response.uuid).toBe(made.tokenOrder);
    const foreign = await dispatchClient(app.url, template().apiKey).post("order", { token: made.token, phone: "89167770011" });
    expect(foreign.error?.code).toBe("TOKEN_USED");
  });

  it(`takes ${CONCURRENT} concurrent orders of one new phone`, async () => {
    const replies = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => api.post<{ uuid: string }>("order", { phone: concurrentPhone, street: "ул. Ленина", house: String((i % 4) + 2), need_notify: "no" })),
    );
    for (const r of replies) expect(r.status, JSON.stringify(r.error)).toBe("DONE");
    made.concurrent = replies.map((r) => r.response.uuid);
  });

  it("the database holds exactly what was created", async () => {
    await app.kill("SIGTERM");
    await database.use(async (prisma, query) => {
      const order = await prisma.order.findUniqueOrThrow({
        where: { uuid: made.full },
        select: {
          id: true, state: true, statusCode: true, phone: true, clientName: true, street: true, house: true, dstStreet: true, dstHouse: true,
          dstLat: true, comment: true, amount: true, apiKeyId: true, source: true, wayPoints: true, createdAt: true, updatedAt: true,
          driver: { select: { callSign: true, state: true, car: { select: { regNumber: true } } } },
          client: { select: { phone: true, name: true } },
          extras: { select: { extraId: true, count: true, price: true }, orderBy: { extraId: "asc" } },
          history: { select: { fromState: true, toState: true, toCode: true, actorType: true, actorId: true, reason: true } },
        },
      });
      expect(order).toMatchObject({ state: "SENT_TO_DRIVER", statusCode: 1, phone: "+79165554433", clientName: "Анна", street: "ул. Ленина", house: "2", dstStreet: "ул. Ленина", dstHouse: "4", comment: "у второго подъезда", apiKeyId: made.keyId, source: "API" });
      expect(order.dstLat).not.toBeNull();
      expect(order.amount).toBeGreaterThan(0);
      expect(order.wayPoints).toHaveLength(2);
      expect(Math.abs(order.createdAt.getTime() - Date.now())).toBeLessThan(10 * 60_000);
      expect(order.updatedAt.getTime()).toBe(order.createdAt.getTime());
      expect(order.driver).toMatchObject({ callSign: "104", state: "BUSY" });
      expect(order.client).toEqual({ phone: "+79165554433", name: "Анна" });
      const wantExtras = made.extras.map((e, i) => ({ extraId: e.id, count: i === 0 ? 2 : 1, price: e.price })).sort((a, b) => a.extraId - b.extraId);
      expect(order.extras).toEqual(wantExtras);
      expect(order.history).toEqual([{ fromState: null, toState: "SENT_TO_DRIVER", toCode: 1, actorType: "API_KEY", actorId: String(made.keyId), reason: "created" }]);
      const callbacks = await prisma.outboxMessage.findMany({ where: { orderingKey: `order:${order.id}`, channel: "callback" }, select: { target: true, payload: true } });
      expect(callbacks).toHaveLength(1);
      expect(callbacks[0]!.target).toBe(`http://127.0.0.1:9/cb?id=${order.id}&uuid=${made.full}&code=1&car=${encodeURIComponent(order.driver!.car!.regNumber)}`);
      // the key signs its callbacks (X-Callback-Signature) with its secret, found by its id when sent
      expect(callbacks[0]!.payload).toEqual({ statusCode: 1, apiKeyId: made.keyId });

      const listed = await query<{ n: number }>(`SELECT (SELECT count(*) FROM client WHERE phone = $1)::int + (SELECT count(*) FROM orders WHERE phone = $1)::int AS n`, [BLACKLISTED_PHONE]);
      expect(listed[0]!.n).toBe(0);

      const byToken = await query<{ uuid: string }>(`SELECT uuid::text AS uuid FROM orders WHERE price_token IS NOT NULL AND phone = '+79167770011'`);
      expect(byToken.map((r) => r.uuid)).toEqual([made.tokenOrder]);

      // Phones are stored in E.164 (with the plus), whatever form the client sent.
      const clients = await query<{ id: number }>(`SELECT id FROM client WHERE phone = $1`, [`+${concurrentPhone}`]);
      expect(clients).toHaveLength(1);
      const orders = await query<{ uuid: string; client_id: number }>(`SELECT uuid::text AS uuid, client_id FROM orders WHERE phone = $1`, [`+${concurrentPhone}`]);
      expect(orders.map((o) => o.uuid).sort()).toEqual([...made.concurrent].sort());
      for (const o of orders) expect(o.client_id).toBe(clients[0]!.id);
    });
  });
});
