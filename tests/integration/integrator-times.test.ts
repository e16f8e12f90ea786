// Every time parameter of the dispatch API, over HTTP against the started
// server: in every accepted form it names exactly the instant it says (read
// back from GET /api/order, whose pre_order_time_iso carries the city's
// offset), and in every form that must be refused it is BAD_PARAMETER naming
// the parameter, with nothing created. Before the fix, "2030-01-15 10:00" (no
// seconds) made an immediate order and the estimate dropped the same time.
// Also the siblings of that fault: half a coordinate pair is refused, never
// dropped. The demo city is Moscow (+03:00, no daylight saving).
import { beforeAll, describe, expect, inject, it } from "vitest";
import { apiGet, apiPost } from "../support/api";
import { signInApi, trpc, uniquePhone, type Session } from "../../e2e/support/console-api";

const PLACE = { street: "ул. Ленина", house: "2" } as const;
/** 10:00 in Moscow on 15 January 2030. */
const INSTANT = "2030-01-15T10:00:00+03:00";

/** The same instant in each form a client may send, on the city's clock (creation) or on UTC (the estimate). */
const ON_CITY_CLOCK = [
  "2030-01-15 10:00:00",
  "2030-01-15 10:00",
  "2030-01-15T10:00:00",
  "2030-01-15T10:00",
  " 2030-01-15 10:00:00 ",
  "2030-01-15 10:00:00.000",
];
const ON_UTC_CLOCK = ["2030-01-15 07:00:00", "2030-01-15 07:00", "2030-01-15T07:00:00", "2030-01-15T07:00"];
/** Exact instants whatever the parameter's clock. */
const WITH_OFFSET = ["2030-01-15T10:00:00+03:00", "2030-01-15T10:00+03:00", "2030-01-15T10:00:00+0300", "2030-01-15T07:00:00Z", "2030-01-15T07:00Z", "2030-01-15T09:00:00+02:00", "2030-01-15T02:00:00-05:00", "2030-01-15 07:00:00Z"];

/** Not times, or times the calendar or the clock does not have. */
const REFUSED = [
  "2030-02-30 10:00:00",
  "2030-02-29 10:00",
  "2030-13-01 10:00",
  "2030-00-10 10:00",
  "2030-01-32 10:00",
  "2030-01-15 24:00",
  "2030-01-15 10:60",
  "2030-01-15 10:00:60",
  "2030-01-15 25:00:00",
  "2030-01-15",
  "2030-1-5 10:00",
  "15.01.2030 10:00",
  "2030-01-15 10",
  "2030-01-15T10:00:00+25:00",
  "2030-01-15T10:00:00+03:75",
  "2030-01-15T10:00:00 +03:00",
  "2030-01-15 10:00:00.0000",
  "tomorrow",
  "1893456000",
];

let admin: Session;
beforeAll(async () => {
  admin = await signInApi(inject("baseUrl"), inject("adminEmail"), inject("adminPassword"));
});

interface OrderInfo {
  status: number;
  start_time: string | null;
  start_time_iso: string | null;
  pre_order_time_iso: string | null;
}

async function info(uuid: string): Promise<OrderInfo> {
  const reply = await apiGet<OrderInfo>("order", { uuid });
  expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
  return reply.response;
}

async function created(params: Record<string, string>): Promise<OrderInfo> {
  const reply = await apiPost<{ uuid: string }>("order", { moderation_required: "no", ...params });
  expect(reply.status, `${JSON.stringify(params)}: ${JSON.stringify(reply.error)}`).toBe("DONE");
  return info(reply.response.uuid);
}

/** Orders of a phone, as the console counts them: a refused request created none. */
async function ordersOf(phone: string): Promise<number> {
  const reply = await trpc<{ orders: number }>(inject("baseUrl"), admin, "orders.recentAddresses", { phone });
  expect(reply.error).toBeUndefined();
  return reply.data!.orders;
}

async function refused(path: string, params: Record<string, string>, parameter: string, code = "BAD_PARAMETER"): Promise<void> {
  const phone = uniquePhone();
  const reply = path === "order" ? await apiPost(path, { phone, ...params }) : await apiGet(path, { phone, ...params });
  expect(reply.status, `${JSON.stringify(params)} was accepted`).toBe("ERROR");
  expect(reply.error?.code, JSON.stringify(params)).toBe(code);
  expect(reply.error?.message, JSON.stringify(params)).toContain(parameter);
  expect(await ordersOf(phone)).toBe(0);
}

function expectAdvanceAt(order: OrderInfo, form: string): void {
  expect(order.status, form).toBe(50);
  expect(order.pre_order_time_iso, form).toBe(INSTANT);
  expect(order.start_time_iso, form).toBe(INSTANT);
  expect(order.start_time, form).toBe("2030-01-15 10:00:00");
}

describe("creation's pre_order_time (the city's clock)", () => {
  it.each([...ON_CITY_CLOCK, ...WITH_OFFSET])("%s is exactly 10:00 in Moscow", async (form) => {
    expectAdvanceAt(await created({ phone: uniquePhone(), ...PLACE, pre_order_time: form }), form);
  });

  it.each([...REFUSED, "10:00"])("%s is refused, nothing created", async (form) => {
    await refused("order", { ...PLACE, pre_order_time: form }, "pre_order_time");
  });
});

describe("creation's 1.4.4 time (the city's clock)", () => {
  it.each([...ON_CITY_CLOCK, ...WITH_OFFSET])("%s is exactly 10:00 in Moscow", async (form) => {
    expectAdvanceAt(await created({ phone: uniquePhone(), ...PLACE, time: form }), form);
  });

  it.each(["23:59", "23:59:00", "7:05"])("the clock time %s is the next such time in the city", async (form) => {
    const order = await created({ phone: uniquePhone(), ...PLACE, time: form });
    const at = Date.parse(order.pre_order_time_iso!);
    expect(at).toBeGreaterThan(Date.now() - 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    const [h, m] = form.split(":");
    expect(order.pre_order_time_iso).toMatch(new RegExp(`T${h!.padStart(2, "0")}:${m}:00\\+03:00$`));
  });

  it.each([...REFUSED, "24:00", "10:60", "7:5", "100:00"])("%s is refused, nothing created", async (form) => {
    await refused("order", { ...PLACE, time: form }, "time");
  });

  it("pre_order_time wins over time, and a bad time beside it is still refused", async () => {
    expectAdvanceAt(await created({ phone: uniquePhone(), ...PLACE, pre_order_time: "2030-01-15 10:00", time: "2031-01-01 00:00" }), "both");
    await refused("order", { ...PLACE, pre_order_time: "2030-01-15 10:00", time: "2030-02-30 10:00" }, "time");
  });

  it("a time in the past is refused", async () => {
    await refused("order", { ...PLACE, pre_order_time: "2020-01-15 10:00" }, "pre_order_time");
  });
});

describe("the estimate's pre_order_time_utc (UTC's clock), carried by the token to the order", () => {
  async function fromToken(form: string, extra: Record<string, string> = {}) {
    const phone = uniquePhone();
    const estimate = await apiGet<{ token: string }>("order/pre_cost", { phone, src_street: PLACE.street, src_house: PLACE.house, dst_lat: "55.8", dst_lon: "37.7", pre_order_time_utc: form });
    expect(estimate.status, `${form}: ${JSON.stringify(estimate.error)}`).toBe("DONE");
    return { phone, token: estimate.response.token, reply: await apiPost<{ uuid: string }>("order", { token: estimate.response.token, moderation_required: "no", ...extra }) };
  }

  it.each([...ON_UTC_CLOCK, ...WITH_OFFSET])("%s is exactly 07:00 UTC", async (form) => {
    const { reply } = await fromToken(form);
    expect(reply.status, JSON.stringify(reply.error)).toBe("DONE");
    expectAdvanceAt(await info(reply.response.uuid), form);
  });

  it.each(REFUSED)("%s is refused", async (form) => {
    await refused("order/pre_cost", { src_street: PLACE.street, src_house: PLACE.house, pre_order_time_utc: form }, "pre_order_time_utc");
  });

  it("a pre_order_time sent beside the token must name the estimate's own time, never another", async () => {
    const same = await fromToken("2030-01-15 07:00:00", { pre_order_time: "2030-01-15 10:00" });
    expect(same.reply.status, JSON.stringify(same.reply.error)).toBe("DONE");
    expectAdvanceAt(await info(same.reply.response.uuid), "beside the token");
    const other = await fromToken("2030-01-15 07:00:00", { pre_order_time: "2030-01-15 11:00" });
    expect(other.reply.error?.code).toBe("BAD_PARAMETER");
    expect(other.reply.error?.message).toContain("pre_order_time");
    expect(await ordersOf(other.phone)).toBe(0);
    const none = await fromToken("", { time: "2030-01-15 10:00" });
    expect(none.reply.error?.code).toBe("BAD_PARAMETER");
    expect(none.reply.error?.message).toContain("time");
  });
});

describe("half a coordinate pair, a destination house alone: refused, never dropped", () => {
  it("on creation", async () => {
    await refused("order", { ...PLACE, lat: "55.75" }, "lon", "MISSING_PARAMETER");
    await refused("order", { ...PLACE, lon: "37.6" }, "lat", "MISSING_PARAMETER");
    await refused("order", { ...PLACE, dst_lat: "55.8" }, "dst_lon", "MISSING_PARAMETER");
    await refused("order", { ...PLACE, dst_lon: "37.7" }, "dst_lat", "MISSING_PARAMETER");
    await refused("order", { ...PLACE, dst_house: "5" }, "dst_street", "MISSING_PARAMETER");
    await refused("order", { ...PLACE, way_points: JSON.stringify([{ street: "ул. Мира", lat: 55.8 }]) }, "way_points");
    await refused("order", { ...PLACE, way_points: JSON.stringify([{ street: "ул. Мира", lat: "abc", lon: 37.7 }]) }, "way_points");
  });

  it("on the estimate", async () => {
    await refused("order/pre_cost", { src_street: PLACE.street, src_house: PLACE.house, dst_lat: "55.8" }, "dst_lon", "MISSING_PARAMETER");
    await refused("order/pre_cost", { src_lat: "55.75", dst_lat: "55.8", dst_lon: "37.7" }, "src_lon", "MISSING_PARAMETER");
    await refused("order/pre_cost", { way_points: JSON.stringify([{ latitude: 55.75 }, { latitude: 55.8, longitude: 37.7 }]) }, "way_points");
  });
});
