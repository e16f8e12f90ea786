// The driver app interface (/driver-app/v1) over real HTTP: keys, shifts,
// positions, offers, taking an order (two drivers racing for one: one wins),
// refusing, the statuses through the one state machine, completion with the
// commission debited once, advance orders, and the documented errors.
import { beforeAll, describe, expect, it } from "vitest";
import { apiGet, apiPost, baseUrl } from "../support/api";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import { formatLocal } from "@/server/orders/time";
import {
  acceptOperation,
  completeOperation,
  mapOperation,
  meOperation,
  offersOperation,
  ordersOperation,
  positionOperation,
  routeOperation,
  startShiftOperation,
} from "@/server/driver-app/api/operations";

const PROVISIONING = provisioningKeyFor(process.env.APP_SECRET ?? "test-secret-test-secret-test-secret-0123");
const PHONE = "89165550101";

interface Reply {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string; from?: string; to?: string; parameter?: string } };
}

async function call(method: "GET" | "POST", path: string, options: { key?: string; body?: unknown; raw?: string; query?: Record<string, string> } = {}): Promise<Reply> {
  const query = options.query ? `?${new URLSearchParams(options.query)}` : "";
  const res = await fetch(`${baseUrl()}/driver-app/v1/${path}${query}`, {
    method,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(method === "POST" ? { "content-type": "application/json" } : {}),
    },
    body: method === "POST" ? (options.raw ?? JSON.stringify(options.body ?? {})) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Reply["body"] };
}

async function ok(method: "GET" | "POST", path: string, options: Parameters<typeof call>[2] = {}): Promise<Record<string, unknown>> {
  const reply = await call(method, path, options);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

async function issueKey(callSign: string): Promise<string> {
  const body = await ok("POST", "keys", { key: PROVISIONING, body: { call_sign: callSign } });
  expect(body.call_sign).toBe(callSign);
  return String(body.app_key);
}

/** Drivers of the main city holding no order, so the test owns their day. */
async function idleDrivers(count: number): Promise<string[]> {
  const out: string[] = [];
  for (let n = 140; n <= 164 && out.length < count; n++) {
    const reply = await apiGet<{ order_id: number | null; city_id: number }>("drivers", { code: String(n) });
    if (reply.status === "DONE" && reply.response.order_id === null && reply.response.city_id === 1) out.push(String(n));
  }
  expect(out).toHaveLength(count);
  return out;
}

// need_notify=no: without the SMS the order stays in 2 and 3 as the driver set
// them (with it, 10 and 11 follow by themselves; the bot flow test covers that).
async function createFreeOrder(house: string, extra: Record<string, string> = {}): Promise<string> {
  const reply = await apiPost<{ uuid: string }>("order", { phone: PHONE, street: "ул. Ленина", house, moderation_required: "no", need_notify: "no", ...extra });
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return reply.response.uuid;
}

async function statusOf(uuid: string): Promise<number> {
  const reply = await apiGet<{ code: number }>("order/status", { uuid });
  expect(reply.status).toBe("DONE");
  return reply.response.code;
}

async function moveTo(key: string, uuid: string) {
  const offers = offersOperation.output.parse(await ok("GET", "offers", { key, query: { radius_km: "100", limit: "100", advance: "yes" } })).offers;
  const offer = offers.find((o) => o.uuid === uuid);
  expect(offer, "the order is offered").toBeDefined();
  const { lat, lon } = offer!.pickup;
  positionOperation.output.parse(await ok("POST", "position", { key, body: { lat: lat! + 0.001, lon: lon!, speed: 20, bearing: 180 } }));
  return offer!;
}

let keyA = "";
let keyB = "";
let signA = "";
let signB = "";

beforeAll(async () => {
  [signA, signB] = (await idleDrivers(2)) as [string, string];
  keyA = await issueKey(signA);
  keyB = await issueKey(signB);
});

describe("keys and errors", () => {
  it("serves its version without a key", async () => {
    expect(await ok("GET", "version")).toEqual({ version: "1.0.0" });
  });

  it("issues keys only with the provisioning key", async () => {
    expect((await call("POST", "keys", { body: { call_sign: signA } })).status).toBe(401);
    expect((await call("POST", "keys", { key: "dp_forged", body: { call_sign: signA } })).body.error?.code).toBe("UNAUTHORIZED");
    expect((await call("POST", "keys", { key: PROVISIONING, body: { call_sign: "no-such" } })).status).toBe(404);
  });

  it("refuses a missing or unknown driver key", async () => {
    expect((await call("GET", "me")).status).toBe(401);
    expect((await call("GET", "me", { key: "da_forged" })).status).toBe(401);
  });

  it("answers unknown paths 404, a wrong method 405, bad input 400 naming the parameter", async () => {
    expect((await call("GET", "no/such", { key: keyA })).status).toBe(404);
    expect((await call("GET", "position", { key: keyA })).status).toBe(405);
    const bad = await call("POST", "position", { key: keyA, body: { lat: 200, lon: 37 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "BAD_PARAMETER", parameter: "lat" });
    const missing = await call("POST", "position", { key: keyA, body: { lon: 37 } });
    expect(missing.body.error).toMatchObject({ code: "MISSING_PARAMETER", parameter: "lat" });
    expect((await call("POST", "position", { key: keyA, raw: "{not json" })).body.error?.code).toBe("BAD_PARAMETER");
    expect((await call("POST", "orders/status", { key: keyA, body: { uuid: "00000000-0000-4000-8000-000000000000", status: "DONE_SUCCESSFUL" } })).body.error?.code).toBe("BAD_PARAMETER");
  });

  it("replaces a key: the old one stops working", async () => {
    const fresh = await issueKey(signA);
    expect((await call("GET", "me", { key: keyA })).status).toBe(401);
    keyA = fresh;
    expect(meOperation.output.parse(await ok("GET", "me", { key: keyA })).driver.call_sign).toBe(signA);
  });

  it("gives the city map with streets and house coordinates", async () => {
    const map = mapOperation.output.parse(await ok("GET", "map", { key: keyA }));
    expect(map.city.id).toBe(1);
    expect(map.regions.length).toBeGreaterThan(0);
    expect(map.streets.some((s) => s.name === "ул. Ленина" && s.houses.length > 0)).toBe(true);
  });
});

describe("shift and position", () => {
  it("takes positions only on shift, stores them with the region", async () => {
    await ok("POST", "shift/end", { key: keyA });
    const refused = await call("POST", "position", { key: keyA, body: { lat: 55.75, lon: 37.6 } });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.code).toBe("CONFLICT");
    const shift = startShiftOperation.output.parse(await ok("POST", "shift/start", { key: keyA, body: { lat: 55.75, lon: 37.6 } }));
    expect(shift.state).toBe("FREE");
    const again = startShiftOperation.output.parse(await ok("POST", "shift/start", { key: keyA }));
    expect(again).toMatchObject({ shift_id: shift.shift_id, resumed: true });
    const reported = positionOperation.output.parse(await ok("POST", "position", { key: keyA, body: { lat: 55.7512, lon: 37.6011, speed: 32.5, bearing: 90 } }));
    expect(reported.region_id).not.toBeNull();
    const seen = await apiGet<{ lat: number; lon: number; speed: number; bearing: number; region_id: number }>("drivers", { code: signA });
    expect(seen.response).toMatchObject({ lat: 55.7512, lon: 37.6011, speed: 32.5, bearing: 90, region_id: reported.region_id });
    const me = meOperation.output.parse(await ok("GET", "me", { key: keyA })).driver;
    expect(me).toMatchObject({ on_shift: true, state: "FREE", shift_id: shift.shift_id });
    await ok("POST", "shift/start", { key: keyB, body: { lat: 55.75, lon: 37.6 } });
  });

  it("stores positions sent at once (written together in one statement) before it answers, several of one driver too", async () => {
    const a = { lat: 55.7521, lon: 37.6021, speed: 10, bearing: 45 };
    const b = { lat: 55.7531, lon: 37.6031, speed: 20, bearing: 135 };
    const replies = await Promise.all([call("POST", "position", { key: keyA, body: a }), call("POST", "position", { key: keyB, body: b })]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    // Answered, so stored: read at once after the replies.
    const [seenA, seenB] = await Promise.all([signA, signB].map((code) => apiGet<{ lat: number; lon: number; speed: number; bearing: number }>("drivers", { code })));
    expect(seenA!.response).toMatchObject(a);
    expect(seenB!.response).toMatchObject(b);
    // One driver's reports at once: each answered, the stored position one of them.
    const sent = [0, 1, 2, 3].map((k) => ({ lat: 55.754 + k / 10_000, lon: 37.604, speed: k, bearing: 0 }));
    const mine = await Promise.all(sent.map((body) => call("POST", "position", { key: keyA, body })));
    expect(mine.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const last = await apiGet<{ lat: number; speed: number }>("drivers", { code: signA });
    expect(sent.map((s) => s.lat)).toContain(last.response.lat);
  });
});

describe("orders", () => {
  it("lets one of two drivers racing for an order take it; the other gets a conflict", async () => {
    const uuid = await createFreeOrder("2");
    await moveTo(keyA, uuid);
    await moveTo(keyB, uuid);
    const [a, b] = await Promise.all([
      call("POST", "orders/accept", { key: keyA, body: { uuid, arrival_minutes: 4 } }),
      call("POST", "orders/accept", { key: keyB, body: { uuid, arrival_minutes: 4 } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 200 ? b : a;
    expect(["CONFLICT", "FORBIDDEN_MOVE"]).toContain(loser.body.error?.code);
    const winnerKey = a.status === 200 ? keyA : keyB;
    const loserKey = a.status === 200 ? keyB : keyA;
    expect(acceptOperation.output.parse(a.status === 200 ? a.body : b.body).order.state).toBe("CONFIRMED");
    expect(await statusOf(uuid)).toBe(2);
    const winner = meOperation.output.parse(await ok("GET", "me", { key: winnerKey })).driver;
    expect(winner.state).toBe("BUSY");
    expect(ordersOperation.output.parse(await ok("GET", "orders", { key: winnerKey })).orders.map((o) => o.uuid)).toContain(uuid);
    // Another driver cannot move it; a busy driver sees no offers and cannot go off shift.
    expect((await call("POST", "orders/status", { key: loserKey, body: { uuid, status: "AWAITING_CLIENT" } })).status).toBe(404);
    expect(offersOperation.output.parse(await ok("GET", "offers", { key: winnerKey })).offers).toEqual([]);
    expect((await call("POST", "shift/end", { key: winnerKey })).body.error?.code).toBe("CONFLICT");

    // A forbidden move is answered with both states named.
    const early = await call("POST", "orders/complete", { key: winnerKey, body: { uuid } });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "FORBIDDEN_MOVE", from: "CONFIRMED", to: "DONE_SUCCESSFUL" });

    const balanceBefore = meOperation.output.parse(await ok("GET", "me", { key: winnerKey })).driver.balance;
    await ok("POST", "orders/status", { key: winnerKey, body: { uuid, status: "AWAITING_CLIENT" } });
    expect(await statusOf(uuid)).toBe(3);
    await ok("POST", "orders/status", { key: winnerKey, body: { uuid, status: "IN_PROCESS" } });
    expect(await statusOf(uuid)).toBe(4);
    const done = completeOperation.output.parse(await ok("POST", "orders/complete", { key: winnerKey, body: { uuid } }));
    expect(await statusOf(uuid)).toBe(100);
    expect(done.fare).toBeGreaterThan(0);
    expect(done.commission).toBeCloseTo(Math.round(done.fare! * 100 * 0.15) / 100, 2);
    expect(done.balance).toBeCloseTo(balanceBefore - done.commission, 2);
    // Completing again debits nothing more.
    const again = completeOperation.output.parse(await ok("POST", "orders/complete", { key: winnerKey, body: { uuid } }));
    expect(again.balance).toBeCloseTo(done.balance, 2);
    expect(meOperation.output.parse(await ok("GET", "me", { key: winnerKey })).driver).toMatchObject({ state: "FREE", balance: done.balance });
  });

  it("refuses an order back to the free orders with a reason", async () => {
    const uuid = await createFreeOrder("3");
    await moveTo(keyB, uuid);
    await ok("POST", "orders/accept", { key: keyB, body: { uuid } });
    expect(await statusOf(uuid)).toBe(2);
    const refused = await ok("POST", "orders/reject", { key: keyB, body: { uuid, reason: "колесо спустило" } });
    expect((refused.order as { state: string }).state).toBe("FREE");
    expect(await statusOf(uuid)).toBe(9);
    expect(meOperation.output.parse(await ok("GET", "me", { key: keyB })).driver.state).toBe("FREE");
    // A cancelled order cannot be taken.
    await apiPost("cancel_order", { uuid });
    const late = await call("POST", "orders/accept", { key: keyB, body: { uuid } });
    expect(late.status).toBe(409);
  });

  it("navigates along the roads, and times its arrival by them when the driver names none", async () => {
    const uuid = await createFreeOrder("2");
    const offer = await moveTo(keyB, uuid);
    const { lat, lon } = offer.pickup;
    // A car some 3 km north of the pickup.
    const here = { lat: lat! + 0.03, lon: lon! };
    positionOperation.output.parse(await ok("POST", "position", { key: keyB, body: { ...here, speed: 30, bearing: 180 } }));
    const route = routeOperation.output.parse(await ok("GET", "route", { key: keyB, query: { from_lat: String(here.lat), from_lon: String(here.lon), to_lat: String(lat), to_lon: String(lon) } }));
    expect(route.on_roads).toBe(true);
    expect(route.points.length).toBeGreaterThan(2);
    expect(route.metres).toBeGreaterThan(3_000);
    await ok("POST", "orders/accept", { key: keyB, body: { uuid } });
    const info = await apiGet<{ remaining_time: number }>("order", { uuid });
    // remaining_time counts whole minutes up to arrival_at, a moment after the accept.
    expect(Math.abs(info.response.remaining_time - Math.max(1, Math.round(route.seconds / 60)))).toBeLessThanOrEqual(1);
    // Off the roads: the straight line, and said so.
    const off = routeOperation.output.parse(await ok("GET", "route", { key: keyB, query: { from_lat: "55.3", from_lon: "37.6", to_lat: String(lat), to_lon: String(lon) } }));
    expect(off.on_roads).toBe(false);
    expect(off.points).toHaveLength(2);
    await ok("POST", "orders/reject", { key: keyB, body: { uuid, reason: "тест" } });
    await apiPost("cancel_order", { uuid });
  });

  it("confirms an order a dispatcher sent, and a passenger who does not come out ends it", async () => {
    const uuid = await createFreeOrder("4", { driver_id: signB });
    expect(await statusOf(uuid)).toBe(1);
    expect(ordersOperation.output.parse(await ok("GET", "orders", { key: keyB })).orders.map((o) => o.uuid)).toContain(uuid);
    await ok("POST", "orders/status", { key: keyB, body: { uuid, status: "CONFIRMED", arrival_minutes: 6 } });
    await ok("POST", "orders/status", { key: keyB, body: { uuid, status: "AWAITING_CLIENT" } });
    await ok("POST", "orders/status", { key: keyB, body: { uuid, status: "DONE_CALL_FAILED", reason: "клиент не вышел" } });
    expect(await statusOf(uuid)).toBe(94);
    expect(meOperation.output.parse(await ok("GET", "me", { key: keyB })).driver.state).toBe("FREE");
  });

  it("takes a free advance order, drives it and completes it", async () => {
    const at = formatLocal(new Date(Date.now() + 2 * 3600_000), "Europe/Moscow");
    const uuid = await createFreeOrder("5", { pre_order_time: at });
    expect(await statusOf(uuid)).toBe(50);
    const offers = offersOperation.output.parse(await ok("GET", "offers", { key: keyA, query: { radius_km: "100", limit: "100" } })).offers;
    expect(offers.map((o) => o.uuid)).not.toContain(uuid);
    const offer = await moveTo(keyA, uuid);
    expect(offer.pre_order_time).not.toBeNull();
    await ok("POST", "orders/accept", { key: keyA, body: { uuid } });
    expect(await statusOf(uuid)).toBe(51);
    // An attached advance order does not make the driver busy.
    expect(meOperation.output.parse(await ok("GET", "me", { key: keyA })).driver.state).toBe("FREE");
    await ok("POST", "orders/status", { key: keyA, body: { uuid, status: "AWAITING_CLIENT" } });
    await ok("POST", "orders/status", { key: keyA, body: { uuid, status: "IN_PROCESS" } });
    await ok("POST", "orders/complete", { key: keyA, body: { uuid } });
    expect(await statusOf(uuid)).toBe(100);
  });

  it("ends the shift when free: OFFLINE", async () => {
    expect((await ok("POST", "shift/end", { key: keyA })).state).toBe("OFFLINE");
    expect(meOperation.output.parse(await ok("GET", "me", { key: keyA })).driver).toMatchObject({ on_shift: false, state: "OFFLINE", shift_id: null });
    expect((await call("GET", "offers", { key: keyA })).status).toBe(409);
    await ok("POST", "shift/end", { key: keyB });
  });
});
