// Reference data, drivers, bonuses and balances over real HTTP, and the
// protocol's rules for keys, methods and paths.
import { describe, expect, it } from "vitest";
import { apiGet, apiPost, baseUrl } from "../support/api";
import { ratesOperation, servicesOperation, streetsOperation } from "@/server/dispatch-api/operations/reference";
import { driverPositionOperation, driversListOperation } from "@/server/dispatch-api/operations/drivers";

describe("keys and protocol", () => {
  it("refuses a missing and an unknown key in the error form with HTTP 200", async () => {
    const missing = await apiGet("services", {}, false);
    expect(missing.httpStatus).toBe(200);
    expect(missing.error?.code).toBe("MISSING_API_KEY");
    const unknown = await apiGet("services", { api_key: "nope-nope-nope" });
    expect(unknown.error?.code).toBe("BAD_API_KEY");
  });

  it("answers a wrong method in the error form", async () => {
    const reply = await apiPost("services", {});
    expect(reply.httpStatus).toBe(200);
    expect(reply.error?.code).toBe("METHOD_NOT_ALLOWED");
  });

  it("never answers with a stack trace", async () => {
    const res = await fetch(`${baseUrl()}/api/order`, { method: "POST", headers: { "content-type": "application/json" }, body: "{broken" });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toMatch(/at .*\.ts:\d+/);
    expect(JSON.parse(text).status).toBe("ERROR");
  });
});

describe("reference data", () => {
  it("lists services of all cities with city_id, or of one city without", async () => {
    const all = servicesOperation.output.parse((await apiGet("services")).response);
    expect(new Set(all.services.map((s) => s.city_id)).size).toBeGreaterThanOrEqual(2);
    const one = servicesOperation.output.parse((await apiGet("services", { city_id: 1 })).response);
    expect(one.services.length).toBeGreaterThanOrEqual(3);
    expect(one.services.every((s) => s.city_id === undefined)).toBe(true);
  });

  it("lists regions by city and service, and finds them by address and by point", async () => {
    const regions = await apiGet<{ regions: Array<{ id: number; name: string }> }>("regions", { city_id: 1, service_id: 1 });
    expect(regions.response.regions.length).toBeGreaterThanOrEqual(8);
    const byAddress = await apiGet<{ id: number; name: string }>("region_by_address", { street: "ул. Ленина", house: "2" });
    expect(byAddress.status).toBe("DONE");
    expect(regions.response.regions.map((r) => r.id)).toContain(byAddress.response.id);
    const byPoint = await apiGet<{ id: number }>("region_by_coord", { lat: 55.75, lon: 37.62 });
    expect(byPoint.status).toBe("DONE");
    expect((await apiGet("region_by_coord", { lat: 10, lon: 10 })).error?.code).toBe("NOT_FOUND");
    // a city_id left over from another call does not hide the region
    expect((await apiGet<{ id: number }>("region_by_coord", { lat: 55.75, lon: 37.62, city_id: 999 })).response.id).toBe(byPoint.response.id);
    const bad = await apiGet("region_by_coord", { lat: "north", lon: 37 });
    expect(bad.error?.code).toBe("BAD_PARAMETER");
    expect(bad.error?.message).toContain("lat");
  });

  it("serves rates with both stand_cost and stand_kost", async () => {
    const rates = ratesOperation.output.parse((await apiGet("rates", { city_id: 1 })).response).rates;
    expect(rates.length).toBeGreaterThanOrEqual(2);
    for (const rate of rates) expect(rate.stand_kost).toBe(rate.stand_cost);
    expect(rates.some((r) => r.start_hour !== null && r.end_hour !== null && r.start_hour > r.end_hour)).toBe(true);
  });

  it("finds streets by the beginning of any word, any case, with е for ё, prefixes included", async () => {
    const search = async (pattern: string) => streetsOperation.output.parse((await apiGet("streets", { pattern })).response).streets;
    expect(await search("ленина")).toContain("ул. Ленина");
    expect(await search("ЛЕН")).toContain("ул. Ленина");
    expect(await search("семеновская")).toContain("ул. Семёновская");
    expect(await search("ул сем")).toContain("ул. Семёновская");
    expect((await search("пр-т")).every((s) => s.includes("пр-т"))).toBe(true);
    expect(await search("енина")).not.toContain("ул. Ленина");
    const ranked = await search("лен");
    expect(ranked[0]).toMatch(/Ленин/);
    expect(await search("%")).toEqual([]);
  });

  it("lists extras of a service with prices", async () => {
    const extras = await apiGet<{ extras: Array<{ id: number; name: string; price: number; allow_multiple: boolean }> }>("extras", { service_id: 1 });
    expect(extras.response.extras.length).toBeGreaterThanOrEqual(3);
    expect(extras.response.extras.some((e) => e.allow_multiple)).toBe(true);
  });
});

describe("drivers", () => {
  it("lists drivers with string coordinates", async () => {
    const list = driversListOperation.output.parse((await apiGet("drivers", { city_id: 1 })).response).drivers;
    expect(list.length).toBeGreaterThanOrEqual(60);
    expect(list.find((d) => d.code === "101")).toBeDefined();
  });

  it("gives one driver's position as floats by call sign", async () => {
    const position = driverPositionOperation.output.parse((await apiGet("drivers", { code: "101" })).response);
    expect(typeof position.lat).toBe("number");
    expect(typeof position.lon).toBe("number");
    expect(position.city_id).toBe(1);
    expect((await apiGet("drivers", { code: "no-such" })).error?.code).toBe("NOT_FOUND");
  });
});

describe("bonuses and balances", () => {
  it("counts a client's bonuses by phone", async () => {
    const reply = await apiGet<{ phone: string; bonus: number }>("client/bonus/count", { phone: "89161234567" });
    expect(reply.status).toBe("DONE");
    expect(reply.response.phone).toBe("+79161234567"); // as stored, with the plus
    expect(reply.response.bonus).toBeGreaterThanOrEqual(0);
  });

  it("matches a client's bonuses and the blacklist whatever form of the phone is sent", async () => {
    // sent to a driver and completed after their trip (a move to 100 needs an order a driver carried)
    const order = await apiPost<{ uuid: string }>("order", { phone: "+998 90 111-22-33", street: "ул. Ленина", house: "2", moderation_required: "no", need_notify: "no", driver_id: "101" });
    expect(order.status).toBe("DONE");
    for (const code of [2, 4, 100]) expect((await apiPost("order/status", { uuid: order.response.uuid, code })).status).toBe("DONE");
    const counts = await Promise.all(
      ["+998901112233", "998901112233", "00998901112233", "+998 (90) 111 22 33"].map(async (phone) => (await apiGet<{ phone: string; bonus: number }>("client/bonus/count", { phone })).response),
    );
    expect(counts[0]!.bonus).toBeGreaterThan(0);
    for (const c of counts) expect(c).toEqual({ phone: "+998901112233", bonus: counts[0]!.bonus });
    // the demo's blacklisted number, in the forms people write it
    for (const phone of ["+79990000000", "89990000000", "8 (999) 000-00-00", "79990000000"]) {
      expect((await apiPost("order", { phone, street: "ул. Ленина", house: "2" })).error?.code, phone).toBe("BLACKLISTED");
    }
    // a Belarusian number dialled at home is not a Russian one
    expect((await apiGet<{ phone: string }>("client/bonus/count", { phone: "8 029 123 45 67" })).response.phone).toBe("+375291234567");
  });

  it("applies a driver payment once per txn_id", async () => {
    const before = (await apiGet<{ balance: number; firstname: string }>("driver/balance", { driver_code: "110" })).response;
    expect(before.firstname).not.toBe("");
    const txn = `txn-${Date.now()}`;
    const first = await apiPost<{ balance: number }>("driver/balance", { driver_code: "110", txn_id: txn, amount: "150.50" });
    expect(first.response.balance).toBeCloseTo(before.balance + 150.5, 2);
    const again = await apiPost<{ balance: number }>("driver/balance", { driver_code: "110", txn_id: txn, amount: "150.50" });
    expect(again.response.balance).toBe(first.response.balance);
    const other = await apiPost("driver/balance", { driver_code: "110", txn_id: txn, amount: "10" });
    expect(other.error?.code).toBe("CONFLICT");
    expect((await apiPost("driver/balance", { driver_code: "110", txn_id: `${txn}-x`, amount: "x" })).error?.message).toContain("amount");
  });

  it("never loses a payment under concurrency, and applies each txn_id once", async () => {
    const before = (await apiGet<{ balance: number }>("driver/balance", { driver_code: "111" })).response.balance;
    const stamp = Date.now();
    const payments = Array.from({ length: 40 }, (_, i) => ({ txn: `race-${stamp}-${i % 30}`, amount: 1 + (i % 30) }));
    await Promise.all(payments.map((p) => apiPost("driver/balance", { driver_code: "111", txn_id: p.txn, amount: p.amount })));
    const after = (await apiGet<{ balance: number }>("driver/balance", { driver_code: "111" })).response.balance;
    const expected = Array.from({ length: 30 }, (_, i) => 1 + i).reduce((a, b) => a + b, 0);
    expect(Math.round((after - before) * 100)).toBe(expected * 100);
  });

  it("reads and changes a customer's balance", async () => {
    const before = await apiGet<{ balance: number; name: string }>("customer/balance", { customer_id: 1 });
    expect(before.response.name).not.toBe("");
    const changed = await apiPost<{ balance: number }>("customer/balance", { customer_id: 1, amount: -250 });
    expect(changed.response.balance).toBeCloseTo(before.response.balance - 250, 2);
    expect((await apiGet("customer/balance", { customer_id: 999999 })).error?.code).toBe("NOT_FOUND");
  });
});

describe("streets: city_id is any string", () => {
  it("takes a city's name; a city we do not know has no streets", async () => {
    const byName = await apiGet<{ streets: string[] }>("streets", { pattern: "лен", city_id: "Москва" });
    expect(byName.response.streets).toContain("ул. Ленина");
    for (const city_id of ["16960492742844813467587546846102327415428430377404321457801379704071862372209", "99999", "Атлантида"]) {
      const unknown = await apiGet<{ streets: string[] }>("streets", { pattern: "лен", city_id });
      expect(unknown.status).toBe("DONE");
      expect(unknown.response.streets).toEqual([]);
      const whole = await apiGet<{ streets: string[] }>("streets", { city_id });
      expect(whole.response.streets).toEqual([]);
    }
  });
});

describe("streets: the whole list without a pattern (the chat bots' nightly download)", () => {
  it("lists every street and public place of the city, more than a search returns, in a stable order", async () => {
    const cities = await apiGet<{ services: Array<{ city_id: number }> }>("services");
    const cityId = cities.response.services[0]!.city_id;
    const whole = await apiGet<{ streets: string[] }>("streets", { city_id: cityId });
    expect(whole.status).toBe("DONE");
    expect(whole.response.streets.length).toBeGreaterThan(50);
    expect(new Set(whole.response.streets).size).toBe(whole.response.streets.length);
    // everything a search finds is in the list
    const found = await apiGet<{ streets: string[] }>("streets", { city_id: cityId, pattern: "л", limit: 200 });
    for (const name of found.response.streets) expect(whole.response.streets).toContain(name);
    // an empty pattern is no pattern
    expect((await apiGet<{ streets: string[] }>("streets", { city_id: cityId, pattern: "" })).response.streets).toEqual(whole.response.streets);
    expect((await apiGet<{ streets: string[] }>("streets", { city_id: cityId })).response.streets).toEqual(whole.response.streets);
    // all cities without city_id
    const all = await apiGet<{ streets: string[] }>("streets");
    expect(all.response.streets.length).toBeGreaterThanOrEqual(whole.response.streets.length);
  });
});
