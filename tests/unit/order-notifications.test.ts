// The client's SMS and the integrator's status callback, through the outbox
// and its worker, on a real (embedded) database and a real HTTP receiver.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { authenticateApiKey, forgetApiKeys, issueApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { createOrder } from "@/server/orders/create-order";
import { moveOrder } from "@/server/orders/move-order";
import { runOutboxOnce } from "@/server/notifications/worker";
import { setSmsSender, logSmsSender } from "@/server/notifications/senders";
import { parseConfig } from "@/server/config";
// The receivers listen on loopback, which outgoing calls refuse unless allowed
// (the demo allows it only once its own exchange is set up: server/http/outgoing.ts).
process.env.OUTGOING_ALLOW = "127.0.0.0/8,::1";


let close: () => Promise<void>;
let receiver: Server;
let receiverUrl = "";
const calls: Array<{ url: string; deliveryId: string | undefined }> = [];
const sms: Array<{ phone: string; text: string }> = [];

beforeAll(async () => {
  ({ close } = await openLocalDb());
  receiver = createServer((req, res) => {
    calls.push({ url: req.url ?? "", deliveryId: req.headers["x-delivery-id"] as string | undefined });
    // /answer/<status>/...: answers with that HTTP status
    const answer = /^\/answer\/(\d{3})/.exec(req.url ?? "");
    res.statusCode = answer ? Number(answer[1]) : 200;
    res.end("ok");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  setSmsSender({ send: async (phone, text) => void sms.push({ phone, text }) });
}, 120_000);

afterAll(async () => {
  setSmsSender(logSmsSender);
  receiver.close();
  await close();
});

async function drainOutbox(): Promise<void> {
  for (let i = 0; i < 10 && (await runOutboxOnce()) > 0; i++);
}

describe("status callbacks and client notifications", () => {
  it("calls the integrator's URL template on every status change, with the placeholders filled", async () => {
    const key = await issueApiKey(db(), { name: "callbacks", callbackTemplate: `${receiverUrl}/cb?id=%uuid%&s=%status_code%&n=%status_name%&car=%autonum%&code=%code%&photo=%car_photo%&p=%phonenum%&cp=%car_phone%&x=%unknown%&y=%cafe%` });
    const order = await createOrder(db(), { source: "API", apiKeyId: key.id, phone: "89161112233", pickup: { street: "ул. Ленина", house: "2" }, moderationRequired: false, driver: "105" }, { type: "API_KEY", id: String(key.id) });
    await moveOrder(db(), { orderId: order.id, to: "CONFIRMED", actor: { type: "DRIVER", id: "105" }, arrivalMinutes: 7 });
    await moveOrder(db(), { orderId: order.id, to: "AWAITING_CLIENT", actor: { type: "DRIVER", id: "105" } });
    await drainOutbox();
    const mine = calls.filter((c) => c.url.includes(order.uuid)).map((c) => ({ ...c, q: new URL(c.url, receiverUrl).searchParams }));
    // The SMS on CONFIRMED went when the order was already AWAITING_CLIENT: stale, no 10.
    // The SMS on AWAITING_CLIENT moved the order on to 11, with its callback.
    expect(mine.map((c) => c.q.get("s"))).toEqual(["1", "2", "3", "11"]);
    expect(mine.map((c) => c.q.get("n"))).toEqual(["Отправлен водителю", "Водитель принял заказ", "Машина подъехала", "Сообщили о подъезде машины"]);
    expect(mine.every((c) => c.deliveryId)).toBe(true);
    const confirmed = mine[1]!.q;
    expect(confirmed.get("car")).not.toBe("");
    expect(confirmed.get("code")).toBe("105");
    expect(confirmed.get("photo")).toBe("");
    expect(confirmed.get("p")).toBe("+79161112233");
    expect(confirmed.get("cp")).toMatch(/^\+\d{10,15}$/);
    // not ours: kept as written, never decoded as a byte (%ca, %fe)
    expect(confirmed.get("x")).toBe("%unknown%");
    expect(confirmed.get("y")).toBe("%cafe%");
    const texts = sms.filter((m) => m.phone === "+79161112233").map((m) => m.text);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain("через 7 мин");
    const history = await db().orderStatusChange.findMany({ where: { orderId: order.id }, orderBy: { id: "asc" }, select: { toCode: true, actorType: true } });
    expect(history.at(-1)).toEqual({ toCode: 11, actorType: "SYSTEM" });
  });

  it("moves a confirmed order to 10 once the passenger was told the arrival time, whoever confirmed it", async () => {
    const key = await issueApiKey(db(), { name: "ten", callbackTemplate: `${receiverUrl}/ten?id=%uuid%&s=%status_code%` });
    const order = await createOrder(db(), { source: "API", apiKeyId: key.id, phone: "+998919800555", pickup: { street: "ул. Ленина", house: "5" }, moderationRequired: false, driver: "107" }, { type: "API_KEY", id: String(key.id) });
    await moveOrder(db(), { orderId: order.id, to: "CONFIRMED", actor: { type: "USER", id: "1" }, arrivalMinutes: 5 });
    await drainOutbox();
    const codes = calls.filter((c) => c.url.includes(order.uuid)).map((c) => new URL(c.url, receiverUrl).searchParams.get("s"));
    expect(codes).toEqual(["1", "2", "10"]);
    // the arrival may still be told: 10 -> 3 -> 11
    await moveOrder(db(), { orderId: order.id, to: "AWAITING_CLIENT", actor: { type: "DRIVER", id: "107" } });
    await drainOutbox();
    const after = calls.filter((c) => c.url.includes(order.uuid)).map((c) => new URL(c.url, receiverUrl).searchParams.get("s"));
    expect(after).toEqual(["1", "2", "10", "3", "11"]);
  });

  it("tells nobody when need_notify is no", async () => {
    const order = await createOrder(db(), { source: "API", phone: "89161114455", pickup: { street: "ул. Ленина", house: "3" }, moderationRequired: false, needNotify: false, driver: "106" }, { type: "SYSTEM", id: null });
    await moveOrder(db(), { orderId: order.id, to: "CONFIRMED", actor: { type: "DRIVER", id: "106" } });
    await drainOutbox();
    expect(sms.filter((m) => m.phone === "+79161114455")).toHaveLength(0);
  });

  it("retries a failed callback and records every attempt", async () => {
    const key = await issueApiKey(db(), { name: "down", callbackTemplate: "http://127.0.0.1:9/down?id=%uuid%" });
    const order = await createOrder(db(), { source: "API", apiKeyId: key.id, phone: "89161116677", pickup: { street: "ул. Ленина", house: "4" } }, { type: "SYSTEM", id: null });
    await drainOutbox();
    const message = await db().outboxMessage.findFirstOrThrow({ where: { channel: "callback", target: { contains: order.uuid } }, select: { status: true, attempts: true, lastError: true, attemptLog: { select: { error: true } } } });
    expect(message.status).toBe("PENDING");
    expect(message.attempts).toBe(1);
    expect(message.lastError).toBeTruthy();
    expect(message.attemptLog).toHaveLength(1);
  });

  it("takes a 4xx as final and goes on with the order's later callbacks; a 5xx is retried and holds them", async () => {
    const answer = (status: number) => `${receiverUrl}/answer/${status}?id=%uuid%&s=%status_code%`;
    const statusesOf = async (uuid: string) =>
      db().outboxMessage.findMany({ where: { channel: "callback", target: { contains: uuid } }, orderBy: { id: "asc" }, select: { status: true, attempts: true } });
    for (const [status, expected] of [[400, "FAILED"], [404, "FAILED"], [429, "PENDING"], [503, "PENDING"]] as const) {
      const key = await issueApiKey(db(), { name: `answers ${status}`, callbackTemplate: answer(status) });
      const order = await createOrder(db(), { source: "API", apiKeyId: key.id, phone: "89161117788", pickup: { street: "ул. Ленина", house: "3" }, moderationRequired: false }, { type: "SYSTEM", id: null });
      await moveOrder(db(), { orderId: order.id, to: "DONE_CANCELLED", actor: { type: "SYSTEM", id: null } });
      await drainOutbox();
      const messages = await statusesOf(order.uuid);
      expect(messages).toHaveLength(2);
      expect(messages[0]).toEqual({ status: expected, attempts: 1 });
      // a final failure does not hold up the next message (tried too); a retriable one does (not tried yet)
      expect(messages[1]).toEqual(expected === "FAILED" ? { status: "FAILED", attempts: 1 } : { status: "PENDING", attempts: 0 });
    }
  });
});

describe("API keys", () => {
  it("refuses a revoked key at once", async () => {
    const key = await issueApiKey(db(), { name: "to revoke" });
    expect((await authenticateApiKey(db(), key.key)).id).toBe(key.id);
    await revokeApiKey(db(), key.id);
    await expect(authenticateApiKey(db(), key.key)).rejects.toMatchObject({ code: "BAD_API_KEY" });
    const stored = await db().apiKey.findUniqueOrThrow({ where: { id: key.id }, select: { keyHash: true } });
    expect(stored.keyHash).not.toContain(key.key);
  });

  it("lookups at once all get the key and write its last use; one under way when it is revoked does not keep it cached", async () => {
    const key = await issueApiKey(db(), { name: "revoked mid-lookup" });
    const before = await db().apiKey.findUniqueOrThrow({ where: { id: key.id }, select: { lastUsedAt: true } });
    expect(before.lastUsedAt).toBeNull();
    const together = await Promise.all(Array.from({ length: 20 }, () => authenticateApiKey(db(), key.key)));
    expect(new Set(together.map((identity) => identity.id))).toEqual(new Set([key.id]));
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: key.id }, select: { lastUsedAt: true } })).lastUsedAt).not.toBeNull();
    forgetApiKeys();
    const underWay = authenticateApiKey(db(), key.key);
    await revokeApiKey(db(), key.id);
    // it may have finished before the revocation (and then served the key); whatever it read is not cached after it
    await underWay.catch(() => undefined);
    await expect(authenticateApiKey(db(), key.key)).rejects.toMatchObject({ code: "BAD_API_KEY" });
  });
});

describe("configuration", () => {
  it("names a bad setting", () => {
    expect(() => parseConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(parseConfig({}).PORT).toBe(3000);
  });
});

import { estimatePrice } from "@/server/pricing/estimate";
import { createOrderFromToken } from "@/server/orders/create-order";

describe("bonuses", () => {
  it("spends the bonuses an estimate used and earns new ones when the order completes, once", async () => {
    const phone = "+79161119900"; // as stored (E.164)
    await db().client.upsert({ where: { phone }, create: { phone, bonus: 500 }, update: { bonus: 500 } });
    const estimate = await estimatePrice(db(), { points: [{ street: "ул. Ленина", house: "2" }, { lat: 55.8, lon: 37.7 }], phone, useBonuses: true });
    expect(estimate.breakdown.bonusUsed).toBeGreaterThan(0);
    // sent to a driver, who carries the passenger: completed only after their trip
    const order = await createOrderFromToken(db(), { source: "API", token: estimate.token, moderationRequired: false, driver: "106" }, { type: "SYSTEM", id: null });
    for (const to of ["CONFIRMED", "IN_PROCESS", "DONE_SUCCESSFUL"] as const) {
      await moveOrder(db(), { orderId: order.id, to, actor: { type: "SYSTEM", id: null } });
    }
    const client = await db().client.findUniqueOrThrow({ where: { phone }, select: { bonus: true, bonusLog: { select: { amount: true, bonusAfter: true } } } });
    const earned = Math.floor((estimate.amount / 100) * 0.05);
    expect(client.bonus).toBe(500 - estimate.breakdown.bonusUsed + earned);
    expect(client.bonusLog.reduce((sum, e) => sum + e.amount, 0)).toBe(client.bonus - 500);
  });
});
