// The client's SMS and the integrator's status callback, through the outbox
// and its worker, on a real (embedded) database and a real HTTP receiver.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalDb } from "../support/local-db";
import { db } from "@/server/db";
import { authenticateApiKey, issueApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { createOrder } from "@/server/orders/create-order";
import { moveOrder } from "@/server/orders/move-order";
import { runOutboxOnce } from "@/server/notifications/worker";
import { setSmsSender, logSmsSender } from "@/server/notifications/senders";
import { parseConfig } from "@/server/config";

let close: () => Promise<void>;
let receiver: Server;
let receiverUrl = "";
const calls: Array<{ url: string; deliveryId: string | undefined }> = [];
const sms: Array<{ phone: string; text: string }> = [];

beforeAll(async () => {
  ({ close } = await openLocalDb());
  receiver = createServer((req, res) => {
    calls.push({ url: req.url ?? "", deliveryId: req.headers["x-delivery-id"] as string | undefined });
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
    const key = await issueApiKey(db(), { name: "callbacks", callbackTemplate: `${receiverUrl}/cb?id=%uuid%&s=%status_code%&car=%autonum%&x=%unknown%` });
    const order = await createOrder(db(), { source: "API", apiKeyId: key.id, phone: "89161112233", pickup: { street: "ул. Ленина", house: "2" }, moderationRequired: false, driver: "105" }, { type: "API_KEY", id: String(key.id) });
    await moveOrder(db(), { orderId: order.id, to: "CONFIRMED", actor: { type: "DRIVER", id: "105" }, arrivalMinutes: 7 });
    await moveOrder(db(), { orderId: order.id, to: "AWAITING_CLIENT", actor: { type: "DRIVER", id: "105" } });
    await drainOutbox();
    const mine = calls.filter((c) => c.url.includes(order.uuid));
    expect(mine.map((c) => new URL(c.url, receiverUrl).searchParams.get("s"))).toEqual(["1", "2", "3"]);
    expect(mine.every((c) => c.deliveryId)).toBe(true);
    expect(new URL(mine[1]!.url, receiverUrl).searchParams.get("car")).not.toBe("");
    expect(mine[0]!.url).toContain("x=%unknown%");
    // the client was told of the car and of its arrival
    const texts = sms.filter((m) => m.phone === "79161112233").map((m) => m.text);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain("через 7 мин");
  });

  it("tells nobody when need_notify is no", async () => {
    const order = await createOrder(db(), { source: "API", phone: "89161114455", pickup: { street: "ул. Ленина", house: "3" }, moderationRequired: false, needNotify: false, driver: "106" }, { type: "SYSTEM", id: null });
    await moveOrder(db(), { orderId: order.id, to: "CONFIRMED", actor: { type: "DRIVER", id: "106" } });
    await drainOutbox();
    expect(sms.filter((m) => m.phone === "79161114455")).toHaveLength(0);
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
    const phone = "79161119900";
    await db().client.upsert({ where: { phone }, create: { phone, bonus: 500 }, update: { bonus: 500 } });
    const estimate = await estimatePrice(db(), { points: [{ street: "ул. Ленина", house: "2" }, { lat: 55.8, lon: 37.7 }], phone, useBonuses: true });
    expect(estimate.breakdown.bonusUsed).toBeGreaterThan(0);
    const order = await createOrderFromToken(db(), { source: "API", token: estimate.token, moderationRequired: false, driver: undefined }, { type: "SYSTEM", id: null });
    await moveOrder(db(), { orderId: order.id, to: "DONE_SUCCESSFUL", actor: { type: "SYSTEM", id: null } });
    const client = await db().client.findUniqueOrThrow({ where: { phone }, select: { bonus: true, bonusLog: { select: { amount: true, bonusAfter: true } } } });
    const earned = Math.floor((estimate.amount / 100) * 0.05);
    expect(client.bonus).toBe(500 - estimate.breakdown.bonusUsed + earned);
    expect(client.bonusLog.reduce((sum, e) => sum + e.amount, 0)).toBe(client.bonus - 500);
  });
});
