// The dispatch API's orders over real HTTP: both forms of creation, the
// documented behaviours and errors, information, status and cancellation.
import { describe, expect, it } from "vitest";
import { apiGet, apiPost, apiKey, baseUrl } from "../support/api";
import { createOrderOperation, orderInfoOperation } from "@/server/dispatch-api/operations/orders";
import { estimateOperation } from "@/server/dispatch-api/operations/estimate";
import { eventually } from "../support/wait";

const PHONE = "89161234567";

async function estimate(params: Record<string, string | number>) {
  const reply = await apiGet("order/pre_cost", params);
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return estimateOperation.output.parse(reply.response);
}

async function create(params: Record<string, string | number | undefined>) {
  const reply = await apiPost("order", params);
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return createOrderOperation.output.parse(reply.response);
}

async function info(uuid: string) {
  const reply = await apiGet("order", { uuid });
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return orderInfoOperation.output.parse(reply.response);
}

describe("order creation, address form", () => {
  it("waits for moderation by default (status 80)", async () => {
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "2", comment: "у подъезда" });
    expect(order.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const read = await info(order.uuid);
    expect(read.status).toBe(80);
    expect(read.amount).toBeGreaterThan(0);
  });

  it("goes straight to the free orders with moderation_required=no (status 9)", async () => {
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "3", moderation_required: "no" });
    expect((await info(order.uuid)).status).toBe(9);
  });

  it("is sent to the named driver with driver_id, and information shows the call sign and car", async () => {
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "4", moderation_required: "no", driver_id: "101" });
    const read = await info(order.uuid);
    expect(read.status).toBe(1);
    expect(read.driver_id).toBe("101");
    expect(read.car_brand).not.toBe("");
    expect(read.car_number).not.toBe("");
  });

  it("becomes an advance order with pre_order_time", async () => {
    const at = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "5", moderation_required: "no", pre_order_time: at });
    const read = await info(order.uuid);
    expect(read.status).toBe(50);
    expect(read.start_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("takes the 1.4.4 time parameter (a datetime, or a clock time: the next one) and apartment as well as appartment", async () => {
    const full = await create({ phone: PHONE, street: "ул. Ленина", house: "5", moderation_required: "no", time: "2031-05-04 10:30:00" });
    expect((await info(full.uuid)).start_time).toBe("2031-05-04 10:30:00");
    const clock = await create({ phone: PHONE, street: "ул. Ленина", house: "5", moderation_required: "no", time: "23:59", apartment: "17" });
    const read = await info(clock.uuid);
    expect(read.status).toBe(50);
    expect(read.start_time).toMatch(/^\d{4}-\d{2}-\d{2} 23:59:00$/);
    const bad = await apiPost("order", { phone: PHONE, street: "ул. Ленина", house: "5", time: "25:99" });
    expect(bad.error?.code).toBe("BAD_PARAMETER");
    expect(bad.error?.message).toContain("time");
  });

  it("needs no house for a public place", async () => {
    const places = await apiGet<{ streets: string[] }>("streets", { pattern: "аэропорт" });
    const place = places.response.streets[0];
    expect(place).toBeDefined();
    await create({ phone: PHONE, street: place!, moderation_required: "no" });
  });

  it("takes destination fields, way points and extras", async () => {
    const extras = await apiGet<{ extras: Array<{ id: number; allow_multiple: boolean }> }>("extras", { service_id: 1 });
    const multiple = extras.response.extras.find((e) => e.allow_multiple)!;
    const single = extras.response.extras.find((e) => !e.allow_multiple)!;
    const order = await create({
      phone: PHONE,
      street: "ул. Ленина",
      house: "2",
      dst_street: "ул. Семёновская",
      dst_lat: 55.8,
      dst_lon: 37.7,
      way_points: JSON.stringify([{ street: "ул. Ленина", house: "5", lat: null, lon: null }]),
      extras: `${multiple.id}*2,${single.id}`,
      moderation_required: "no",
    });
    expect((await info(order.uuid)).status).toBe(9);
  });

  it("refuses a blacklisted phone", async () => {
    const reply = await apiPost("order", { phone: "89990000000", street: "ул. Ленина", house: "2" });
    expect(reply.httpStatus).toBe(200);
    expect(reply.status).toBe("ERROR");
    expect(reply.error?.code).toBe("BLACKLISTED");
    expect(reply.error?.message).toMatch(/blacklist/i);
  });

  it("answers a bad region_id with a clear error, not a crash", async () => {
    const reply = await apiPost("order", { phone: PHONE, street: "ул. Ленина", house: "2", region_id: 999999 });
    expect(reply.error?.code).toBe("BAD_PARAMETER");
    expect(reply.error?.message).toContain("region_id");
    const notNumber = await apiPost("order", { phone: PHONE, street: "ул. Ленина", house: "2", region_id: "abc" });
    expect(notNumber.error?.code).toBe("BAD_PARAMETER");
    expect(notNumber.error?.message).toContain("region_id");
  });

  it("names the missing parameter, and treats an empty string as absent", async () => {
    expect((await apiPost("order", { street: "ул. Ленина", house: "2" })).error).toMatchObject({ code: "MISSING_PARAMETER" });
    const emptyStreet = await apiPost("order", { phone: PHONE, street: "", house: "2" });
    expect(emptyStreet.error?.code).toBe("MISSING_PARAMETER");
    expect(emptyStreet.error?.message).toContain("street");
    // empty optional parameters are ignored rather than rejected
    await create({ phone: PHONE, street: "ул. Ленина", house: "2", region_id: "", driver_id: "", amount: "" });
  });

  it("refuses an unknown address and a house missing on a street", async () => {
    expect((await apiPost("order", { phone: PHONE, street: "ул. Несуществующая", house: "1" })).error?.code).toBe("ADDRESS_NOT_FOUND");
    expect((await apiPost("order", { phone: PHONE, street: "ул. Ленина", house: "99999" })).error?.code).toBe("ADDRESS_NOT_FOUND");
    const noHouse = await apiPost("order", { phone: PHONE, street: "ул. Ленина" });
    expect(noHouse.error?.code).toBe("MISSING_PARAMETER");
    expect(noHouse.error?.message).toContain("house");
  });

  it("takes the key in the query string and again in the body, and ignores unknown parameters", async () => {
    const res = await fetch(`${baseUrl()}/api/order?api_key=${apiKey()}&stale_param=1`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ api_key: apiKey(), phone: PHONE, street: "ул. Ленина", house: "2", something_else: "x", pattern: "old" }),
    });
    const body = (await res.json()) as { status: string };
    expect(body.status).toBe("DONE");
  });
});

describe("price estimate and order from token", () => {
  it("always carries amount, distance and token, and the order costs exactly the estimate", async () => {
    const est = await estimate({
      phone: "+79161234567",
      way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }, { latitude: 55.8, longitude: 37.7 }]),
    });
    expect(Number(est.amount)).toBeGreaterThan(0);
    expect(est.distance).toBeGreaterThan(0);
    expect(est.token.length).toBeGreaterThan(20);
    expect(est.route.points.length).toBeGreaterThanOrEqual(2); // along the roads: the pickup, the turns, the destination
    const order = await create({ token: est.token, moderation_required: "no", comment: "Подъезд 2\nдомофон 15", service_id: est.service_id });
    const read = await info(order.uuid);
    expect(read.amount).toBe(Number(est.amount));
    expect(read.status).toBe(9);
  });

  it("uses a token once", async () => {
    const est = await estimate({ phone: PHONE, way_points: JSON.stringify([{ street: "ул. Ленина", house: "3" }, { lat: 55.78, lon: 37.6 }]) });
    const first = await create({ token: est.token });
    // The key that used it gets its order again (a retry whose reply was lost); other keys get TOKEN_USED
    // (tests/reliability/faults-idempotency.test.ts).
    const again = await apiPost("order", { token: est.token });
    expect(again.status).toBe("DONE");
    expect((again.response as { uuid: string }).uuid).toBe(first.uuid);
  });

  it("makes one order of one token under concurrent use", async () => {
    const est = await estimate({ phone: PHONE, way_points: JSON.stringify([{ street: "ул. Ленина", house: "4" }, { lat: 55.78, lon: 37.6 }]) });
    const replies = await Promise.all(Array.from({ length: 8 }, () => apiPost("order", { token: est.token })));
    expect(replies.filter((r) => r.status === "DONE")).toHaveLength(8);
    expect(new Set(replies.map((r) => (r.response as { uuid: string }).uuid)).size).toBe(1);
  });

  it("refuses a forged or altered token", async () => {
    const est = await estimate({ phone: PHONE, way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }, { lat: 55.78, lon: 37.6 }]) });
    const [body, signature] = est.token.split(".");
    const claims = JSON.parse(Buffer.from(body!, "base64url").toString()) as { amount: number };
    claims.amount = 1;
    const altered = `${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    expect((await apiPost("order", { token: altered })).error?.code).toBe("TOKEN_INVALID");
    expect((await apiPost("order", { token: "not-a-token" })).error?.code).toBe("TOKEN_INVALID");
  });

  it("needs a phone when the estimate had none", async () => {
    const est = await estimate({ way_points: JSON.stringify([{ street: "ул. Ленина", house: "2" }, { lat: 55.78, lon: 37.6 }]) });
    expect((await apiPost("order", { token: est.token })).error?.code).toBe("MISSING_PARAMETER");
    await create({ token: est.token, phone: PHONE });
  });

  it("reads the older src_/dst_ listing, and the external route's distance and time", async () => {
    const est = await estimate({ src_street: "ул. Ленина", src_house: "2", dst_lat: 55.8, dst_lon: 37.7, distance: 12000, route_time: 1500 });
    expect(est.distance).toBe(12);
    expect(est.route_time).toBe(1500);
    expect(est.approximate).toBe(true); // the destination is only coordinates
  });

  it("prices extras from the JSON object form", async () => {
    const list = await apiGet<{ extras: Array<{ id: number; price: number; allow_multiple: boolean }> }>("extras", { service_id: 1 });
    const extra = list.response.extras.find((e) => e.allow_multiple)!;
    const points = JSON.stringify([{ street: "ул. Ленина", house: "2" }, { lat: 55.8, lon: 37.7 }]);
    const plain = await estimate({ way_points: points, distance: 10000, route_time: 1200 });
    const withExtra = await estimate({ way_points: points, distance: 10000, route_time: 1200, extras: JSON.stringify({ [extra.id]: 2 }) });
    expect(Number(withExtra.amount)).toBeGreaterThanOrEqual(Number(plain.amount) + 2 * extra.price - 10);
  });

  it("refuses broken way_points and extras JSON clearly and quickly", async () => {
    const broken = await apiGet("order/pre_cost", { way_points: "[{street:" });
    expect(broken.error?.code).toBe("BAD_PARAMETER");
    expect(broken.error?.message).toContain("way_points");
    const wrongShape = await apiGet("order/pre_cost", { way_points: JSON.stringify({ street: "x" }) });
    expect(wrongShape.error?.code).toBe("BAD_PARAMETER");
    const badExtras = await apiGet("order/pre_cost", { src_street: "ул. Ленина", src_house: "2", extras: "{1: 2" });
    expect(badExtras.error?.code).toBe("BAD_PARAMETER");
    expect(badExtras.error?.message).toContain("extras");
    const none = await apiGet("order/pre_cost", {});
    expect(none.status).toBe("ERROR");
    expect(none.error?.code).toBe("MISSING_PARAMETER");
  });
});

describe("estimates from what chat users type", () => {
  const lenina = { street: "ул. Ленина", house: "2" };
  const far = { latitude: 55.8, longitude: 37.7 };

  it("prices a street with a skipped or unknown house at the street's own point, approximately", async () => {
    for (const house of ["", null, "99999"]) {
      const est = await estimate({ way_points: JSON.stringify([{ street: "ул. Ленина", house }, far]), distance: 9000, route_time: 900 });
      expect(est.approximate, `house ${String(house)}`).toBe(true);
      expect(Number(est.amount)).toBeGreaterThan(0);
      expect(est.token.length).toBeGreaterThan(0);
    }
    const flat = await estimate({ src_street: "ул. Ленина", src_house: "", dst_street: "ул. Ленина", dst_house: "2" });
    expect(flat.approximate).toBe(true);
    // and the order made from it keeps the street
    const order = await create({ token: (await estimate({ src_street: "ул. Ленина", dst_lat: 55.8, dst_lon: 37.7, phone: "+998919800555" })).token, moderation_required: "no" });
    expect((await info(order.uuid)).status).toBe(9);
  });

  it("names the parameter the client sent in an error", async () => {
    const flat = await apiGet("order/pre_cost", { src_street: "ул. Несуществующая", src_house: "1", dst_lat: 55.8, dst_lon: 37.7 });
    expect(flat.error?.code).toBe("ADDRESS_NOT_FOUND");
    expect(flat.error?.message).toContain("src_street");
    expect(flat.error?.message).not.toContain("way_points");
    const dst = await apiGet("order/pre_cost", { src_street: "ул. Ленина", src_house: "2", dst_street: "ул. Несуществующая" });
    expect(dst.error?.message).toContain("dst_street");
    const inList = await apiGet("order/pre_cost", { way_points: JSON.stringify([lenina, { street: "ул. Несуществующая" }]) });
    expect(inList.error?.message).toContain("way_points");
  });

  it("reads empty strings in way_points as absent, and decimal commas as points", async () => {
    const empty = await estimate({ way_points: JSON.stringify([lenina, { street: "", house: "", latitude: "55,8", longitude: "37,7", region_id: "" }]) });
    const plain = await estimate({ way_points: JSON.stringify([lenina, far]) });
    expect(empty.amount).toBe(plain.amount);
    // The same trip as with the plain point (along the roads: the same points, however many).
    expect(empty.route.points).toEqual(plain.route.points);
    // "" coordinates are absent, not 0,0 (a trip to the Gulf of Guinea): a point with nothing else is missing
    const nothing = await apiGet("order/pre_cost", { way_points: JSON.stringify([lenina, { latitude: "", longitude: "" }]) });
    expect(nothing.error?.code).toBe("MISSING_PARAMETER");
  });

  it("takes extras as [], an array of ids, the creation form and the JSON object", async () => {
    const list = await apiGet<{ extras: Array<{ id: number; allow_multiple: boolean }> }>("extras", { service_id: 1 });
    const extra = list.response.extras.find((e) => e.allow_multiple)!;
    const points = JSON.stringify([lenina, far]);
    const base = { way_points: points, distance: 10000, route_time: 1200 };
    const none = await estimate({ ...base, extras: "[]" });
    expect(none.amount).toBe((await estimate(base)).amount);
    const once = [JSON.stringify([extra.id]), JSON.stringify([String(extra.id)]), `${extra.id}`, JSON.stringify({ [extra.id]: 1 })];
    const amounts = await Promise.all(once.map(async (extras) => (await estimate({ ...base, extras })).amount));
    expect(new Set(amounts).size).toBe(1);
    expect(Number(amounts[0])).toBeGreaterThan(Number(none.amount));
    const twice = await estimate({ ...base, extras: `${extra.id}*2` });
    expect(twice.amount).toBe((await estimate({ ...base, extras: JSON.stringify({ [extra.id]: 2 }) })).amount);
  });

  it("takes decimals in distance and route_time, long card numbers, true/false and ids with spaces", async () => {
    const est = await estimate({ way_points: JSON.stringify([lenina, far]), distance: "12000.6", route_time: "1499,5", customer_card_number: "4111 1111 1111 1111 111", use_bonuses: "false", service_id: " 1 " });
    expect(est.distance).toBe(12.001);
    expect(est.route_time).toBe(1500);
    expect(est.service_id).toBe(1);
    const order = await create({ token: est.token, phone: PHONE, need_notify: "true", moderation_required: "false" });
    expect((await info(order.uuid)).status).toBe(9);
  });

  it("issues tokens the server accepts back, whatever the length of the route", async () => {
    // 20 points with long Cyrillic names (as long as a URL carries: the estimate is a GET)
    const long = "улица Героев Советского Союза имени Трудового Знамени".slice(0, 60);
    const points = Array.from({ length: 20 }, (_, i) => ({ name: `${long} ${i}`, street: i === 0 ? "ул. Ленина" : "", house: i === 0 ? "2" : "", latitude: 55.75 + i / 1000, longitude: 37.6 }));
    const est = await estimate({ way_points: JSON.stringify(points), phone: PHONE });
    expect(est.token.length).toBeGreaterThan(4000);
    const order = await create({ token: est.token, moderation_required: "no" });
    expect((await info(order.uuid)).status).toBe(9);
  });
});

describe("status and cancellation", () => {
  it("moves only as the state machine allows and names both states when refused", async () => {
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "2", moderation_required: "no", driver_id: "102" });
    const confirmed = await apiPost<{ code: number; name: string }>("order/status", { uuid: order.uuid, code: 2 });
    expect(confirmed.response).toEqual({ code: 2, name: "Водитель принял заказ", state: "CONFIRMED" });
    const refused = await apiPost("order/status", { uuid: order.uuid, code: 91 });
    expect(refused.status).toBe("DONE"); // CONFIRMED -> DONE_REMOVED (91) is allowed: any NOT_DONE may be removed
    const after = await apiPost("order/status", { uuid: order.uuid, code: 4 });
    expect(after.error?.code).toBe("FORBIDDEN_MOVE");
    expect(after.error?.message).toContain("DONE_REMOVED");
    expect(after.error?.message).toContain("IN_PROCESS");
  });

  it("checks the stored state with check=yes, and reads it back", async () => {
    // need_notify=no: no SMS, so no automatic move to 10 (client told) under the read
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "2", moderation_required: "no", driver_id: "103", need_notify: "no" });
    const set = await apiPost<{ code: number; name: string }>("order/status", { uuid: order.uuid, code: 2, check: "yes" });
    expect(set.response.code).toBe(2);
    const read = await apiGet<{ code: number; name: string }>("order/status", { uuid: order.uuid });
    expect(read.response).toMatchObject({ code: 2, name: "Водитель принял заказ", state: "CONFIRMED" });
  });

  it("moves a status set through the API on to 10 once the passenger's SMS went, and names it as the original", async () => {
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "2", moderation_required: "no", driver_id: "104" });
    expect((await apiPost("order/status", { uuid: order.uuid, code: 2 })).status).toBe("DONE");
    // the SMS leaves through the outbox: wait for its effect
    const status = await eventually(() => apiGet<{ code: number; name: string }>("order/status", { uuid: order.uuid }), (s) => s.response.code !== 2, 30_000);
    expect(status.response).toMatchObject({ code: 10, name: "Сообщили время подъезда", state: "CONFIRMED_CLIENT_NOTIFIED" });
  });

  it("refuses unknown codes and orders", async () => {
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "2" });
    expect((await apiPost("order/status", { uuid: order.uuid, code: 42 })).error?.code).toBe("BAD_PARAMETER");
    expect((await apiPost("order/status", { uuid: order.uuid, code: "abc" })).error?.message).toContain("code");
    expect((await apiGet("order", { uuid: "00000000-0000-4000-8000-000000000000" })).error?.code).toBe("NOT_FOUND");
    expect((await apiGet("order", { uuid: "nonsense" })).error?.code).toBe("BAD_PARAMETER");
  });

  it("cancels an order once", async () => {
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "2" });
    const cancelled = await apiPost<{ message: string }>("cancel_order", { uuid: order.uuid });
    expect(cancelled.status).toBe("DONE");
    expect((await info(order.uuid)).status).toBe(95);
    expect((await apiPost("cancel_order", { uuid: order.uuid })).error?.code).toBe("FORBIDDEN_MOVE");
  });

  it("keeps one valid history under concurrent status changes", async () => {
    const order = await create({ phone: PHONE, street: "ул. Ленина", house: "2", moderation_required: "no" });
    const codes = [1, 93, 95, 91, 8, 100];
    const replies = await Promise.all(codes.map((code) => apiPost("order/status", { uuid: order.uuid, code })));
    const done = replies.filter((r) => r.status === "DONE");
    expect(done.length).toBeGreaterThanOrEqual(1);
    const final = await apiGet<{ code: number }>("order/status", { uuid: order.uuid });
    expect([1, 8, 91, 93, 95, 100]).toContain(final.response.code);
  });
});
