// The exchange over real HTTP: a server process on its own database, its
// participants' servers small recorders in this test. Every call, every
// notification and every listed error; the money at the end.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commission, completionEntries, postEntries } from "@/server/exchange/ledger";
import { EXCHANGE_OPERATIONS } from "@/server/exchange-api/operations";
import { version as versionOp, session as sessionOp, profiles as profilesOp, drivers as driversOp, driverClasses, driverOptions, driverById } from "@/server/exchange-api/operations/general";
import { register as registerOp, get as getOp, update as updateOp } from "@/server/exchange-api/operations/orders";
import type { StartedServer } from "../support/server";
import { prepareDatabase, startOn, TEST_DB, withDatabase, type PreparedDb } from "../support/exchange/db";
import { addParticipants, EXCHANGE_DRIVERS } from "../support/exchange/fixtures";
import { errorOf, get, post, request, until, type Reply } from "../support/exchange/http";
import { startReceiver, type Receiver } from "../support/exchange/receiver";
import { watchOutbox, type OutboxWatch } from "../support/exchange/outbox";
import { seedExchange } from "@/server/seed/exchange";

const key = () => `xk_${randomBytes(18).toString("base64url")}`;
const NAMES = ["S", "B1", "B2", "P", "R", "N", "D", "T1", "T2", "T3", "T4", "T5"] as const;
type Name = (typeof NAMES)[number];

let server: StartedServer;
/** The exchange's outbox, the marker of the checks that something was not sent. */
let outbox: OutboxWatch;
let prepared: PreparedDb;
let X: string;
const rx = {} as Record<Name, Receiver>;
const keys = {} as Record<Name, string>;
const tokens = {} as Partial<Record<Name, string>>;
let ids: Record<string, number> = {};
const DEPOSIT = 1_000_000n;
/** The seeded demo participants' servers: nothing listens there. */
const DEMO_URL = "http://localhost:1";

function attrs(overrides: Record<string, unknown> = {}) {
  return {
    client: { phone: "79161234567", name: "Иван" },
    from: { street: "ул. Ленина", house: "1", porch: "2", latitude: 55.75, longitude: 37.62 },
    to: { street: "пр. Мира", house: "10", latitude: 55.78, longitude: 37.63 },
    carClass: 1,
    fare: 123.45,
    note: "у подъезда",
    tariff: { name: "Дневной", minFare: "150", roundType: 0 },
    service: { id: 3, extras: [{ name: "Детское кресло", shortName: "ДК", price: 100, options: [1] }] },
    waypoints: [{ street: "ул. Тверская", house: "5", lat: "55.76", lon: "37.61" }],
    ...overrides,
  };
}

function call(name: Name, path: string, data?: unknown, options: { header?: boolean } = {}): Promise<Reply> {
  return post(`${X}/${path}`, data === undefined ? {} : { data }, { token: tokens[name], header: options.header });
}

async function register(name: Name, id: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const r = await call(name, "order", { id, type: "order", attributes: attrs(overrides) });
  expect(r.status, r.text).toBe(200);
  return String((r.body.data as { id: string }).id);
}

const executor = (callSign: string) => ({
  callSign,
  phone: "79990001122",
  registrationNumber: "А123ВС77",
  brand: "Kia",
  model: "Rio",
  color: "белый",
  autoAge: "2020",
  serviceName: "Эконом",
  latitude: "55.7",
  longitude: "37.6",
  speed: "30",
  bearing: "90",
});

function take(name: Name, id: string, callSign = `${name}-7`) {
  return call(name, "order/take", { id, orderId: `${name}-local-${id}`, attributes: { time: { arrival: 7 }, executor: executor(callSign) } });
}

async function topicsOf(name: Name, id: string, count: number): Promise<string[]> {
  return until(`${count} notifications of ${id} at ${name}`, () => (rx[name].topics(id).length >= count ? rx[name].topics(id) : undefined));
}

beforeAll(async () => {
  for (const name of NAMES) {
    rx[name] = await startReceiver();
    keys[name] = key();
  }
  const one = [{ externalId: 1, name: "Эконом", carClass: 1, executes: true }];
  const five = [{ externalId: 5, name: "Минивэн", carClass: 5, executes: true }];
  const made = await prepareDatabase(TEST_DB, async (prisma) => {
    const map = await addParticipants(prisma, [
      { name: "S", url: rx.S.url, key: keys.S, services: one },
      { name: "B1", url: rx.B1.url, key: keys.B1, services: one, deposit: DEPOSIT },
      { name: "B2", url: rx.B2.url, key: keys.B2, services: one, deposit: DEPOSIT, commissionBp: 250 },
      { name: "P", url: rx.P.url, key: keys.P, services: one },
      { name: "R", url: rx.R.url, address: "127.0.0.2", key: keys.R, services: one, deposit: DEPOSIT },
      { name: "N", url: "", key: keys.N, services: one, deposit: DEPOSIT },
      { name: "D", url: rx.D.url, key: keys.D, services: one, deposit: DEPOSIT, disabled: true },
      ...(["T1", "T2", "T3", "T4", "T5"] as const).map((n) => ({ name: n, url: rx[n].url, key: keys[n], services: five, deposit: DEPOSIT })),
    ]);
    for (const d of EXCHANGE_DRIVERS) await prisma.exchangeDriver.create({ data: { participantId: map.S!, ...d } });
    await seedExchange(prisma, { publicUrl: DEMO_URL });
    // The demo participants' drivers would only crowd the filter tests.
    await prisma.exchangeDriver.deleteMany({ where: { participantId: { not: map.S! } } });
    return map;
  });
  prepared = made.db;
  ids = made.result;
  server = await startOn(prepared, {
    EXCHANGE_SLAVES: "http://127.0.0.1:1/exchange",
    EXCHANGE_TRUSTED: "127.0.0.1, 10.0.0.1",
    EXCHANGE_COMMISSION_BP: "500",
  });
  X = `${server.url}/exchange`;
  outbox = await watchOutbox(server.url, server.adminEmail, server.adminPassword, { unreachable: [DEMO_URL] });
  for (const name of NAMES) {
    if (name === "R" || name === "D" || name === "N") continue;
    const r = await post(`${X}/session`, { data: { key: keys[name] } });
    expect(r.status, r.text).toBe(200);
    tokens[name] = (r.body.data as { token: string }).token;
  }
}, 180_000);

afterAll(async () => {
  await server?.stop();
  for (const r of Object.values(rx)) await r.stop();
  await prepared?.drop();
});

describe("version, session and tokens", () => {
  it("GET /version answers jsonapi.version; another method is 461", async () => {
    const r = await get(`${X}/version`);
    expect(r.status).toBe(200);
    expect(versionOp.output.parse(r.body).jsonapi.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(errorOf(await post(`${X}/version`, {}))).toMatchObject({ status: 461, code: "MethodNotAllowed" });
  });

  it("POST /session gives a token with the configured slaves and trusted", async () => {
    const r = await post(`${X}/session`, { data: { key: keys.B2 } });
    const data = sessionOp.output.parse(r.body).data;
    expect(data.token).toMatch(/^xt_/);
    expect(data.slaves).toBe("http://127.0.0.1:1/exchange");
    expect(data.trusted).toBe("127.0.0.1, 10.0.0.1");
  });

  it("refuses bad logins with the listed errors", async () => {
    expect(errorOf(await get(`${X}/session`))).toMatchObject({ status: 461, code: "MethodNotAllowed" });
    expect(errorOf(await post(`${X}/session`))).toMatchObject({ status: 462, code: "EmptyRequest" });
    expect(errorOf(await post(`${X}/session`, { data: {} }))).toMatchObject({ status: 462 });
    expect(errorOf(await post(`${X}/session`, { data: { other: 1 } }))).toMatchObject({ status: 463, code: "NoRequiredFieldSet", pointer: "/data/key" });
    expect(errorOf(await post(`${X}/session`, { data: { key: 5 } }))).toMatchObject({ status: 465, code: "TypeError" });
    expect(errorOf(await post(`${X}/session`, undefined, { raw: "{not json" }))).toMatchObject({ status: 400, code: "BadRequest" });
    expect(errorOf(await post(`${X}/session`, undefined, { raw: "[1,2]" }))).toMatchObject({ status: 400 });
    expect(errorOf(await post(`${X}/session`, { data: { key: "xk_unknown" } }))).toMatchObject({ status: 401, code: "Unauthorized" });
    expect(errorOf(await post(`${X}/session`, { data: { key: keys.D } }))).toMatchObject({ status: 403, code: "Forbidden" });
  });

  it("binds the session to the server's address", async () => {
    // R's server is registered at 127.0.0.2: a login from 127.0.0.1 is refused.
    expect(errorOf(await post(`${X}/session`, { data: { key: keys.R } }))).toMatchObject({ status: 401 });
    const r = await post(`${X}/session`, { data: { key: keys.R } }, { localAddress: "127.0.0.2" });
    expect(r.status, r.text).toBe(200);
    tokens.R = (r.body.data as { token: string }).token;
    const there = await get(`${X}/profiles`, { token: tokens.R, localAddress: "127.0.0.2" });
    expect(there.status).toBe(200);
    // The same token from anywhere else: Unauthorized.
    const elsewhere = await get(`${X}/profiles`, { token: tokens.R });
    expect(errorOf(elsewhere)).toMatchObject({ status: 401, code: "Unauthorized" });
    expect(errorOf(elsewhere).detail).toContain("127.0.0.1");
    // ...and the other way round: S's token from 127.0.0.2.
    expect(errorOf(await get(`${X}/profiles`, { token: tokens.S, localAddress: "127.0.0.2" }))).toMatchObject({ status: 401 });
  });

  it("accepts the token as meta.token or as a Bearer header, and refuses calls without one", async () => {
    expect((await post(`${X}/drivers`, {}, { token: tokens.S })).status).toBe(200);
    expect((await post(`${X}/drivers`, {}, { token: tokens.S, header: true })).status).toBe(200);
    expect((await get(`${X}/drivers/classes`, { token: tokens.S })).status).toBe(200);
    expect(errorOf(await post(`${X}/drivers`, {}))).toMatchObject({ status: 401 });
    expect(errorOf(await get(`${X}/profiles`))).toMatchObject({ status: 401 });
    expect(errorOf(await post(`${X}/drivers`, {}, { token: "xt_forged" }))).toMatchObject({ status: 401 });
    const both = await post(`${X}/drivers`, { meta: { token: tokens.B1 } }, { headers: { authorization: `Bearer ${tokens.S!}` } });
    expect(errorOf(both)).toMatchObject({ status: 401 });    // Wherever a participant may put it: meta.token in a GET's body, ?token= on any call.
    const S = tokens.S!;
    expect((await request("GET", `${X}/profiles`, { meta: { token: S } })).status).toBe(200);
    expect((await get(`${X}/drivers/classes?token=${encodeURIComponent(S)}`)).status).toBe(200);
    expect((await post(`${X}/drivers?token=${encodeURIComponent(S)}`, { where: {} })).status).toBe(200);
    expect((await request("GET", `${X}/drivers/options`, "not json", { raw: "not json", headers: { authorization: `Bearer ${S}` } })).status).toBe(200);
    expect(errorOf(await get(`${X}/profiles?token=${encodeURIComponent(S)}`, { headers: { authorization: `Bearer ${tokens.B1!}` } }))).toMatchObject({ status: 401 });
  });

  it("answers unknown paths 404, too large bodies 413, never 500", async () => {
    expect(errorOf(await get(`${X}/no/such/call`))).toMatchObject({ status: 404, code: "NotFound" });
    const big = await post(`${X}/order`, undefined, { token: tokens.S, raw: JSON.stringify({ data: { pad: "x".repeat(300_000) } }) });
    expect(errorOf(big)).toMatchObject({ status: 413 });
  });

  it("defines every operation of the reference", () => {
    const paths = EXCHANGE_OPERATIONS.map((op) => `${op.method} /${op.path}`).sort();
    expect(paths).toEqual(
      [
        "GET /drivers/:id",
        "GET /drivers/classes",
        "GET /drivers/options",
        "POST /drivers",
        "GET /profiles",
        "POST /driver/update",
        "POST /session",
        "POST /order",
        "POST /order/get",
        "POST /order/cancel",
        "POST /order/complete",
        "POST /order/revoke",
        "POST /order/rejectdriver",
        "POST /order/take",
        "POST /order/update",
        "GET /version",
      ].sort(),
    );
  });
});

describe("profiles and drivers", () => {
  it("GET /profiles lists the active participants' profiles", async () => {
    const r = await get(`${X}/profiles`, { token: tokens.S });
    const list = profilesOp.output.parse(r.body).data.profiles;
    const names = list.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["S", "B1", "B2", "P", "R", "N", "T1"]));
    expect(names).not.toContain("D");
    const s = list.find((p) => p.name === "S")!;
    expect(s).toMatchObject({ id: String(ids.S), country: { name: { en: "Russia", ru: "Россия" } }, location: { lat: 55.75, lon: 37.62 }, currency: { code: "RUB" } });
  });

  it("GET /drivers/classes and /drivers/options", async () => {
    const classes = driverClasses.output.parse((await get(`${X}/drivers/classes`, { token: tokens.S })).body).data.classes;
    expect(classes.find((c) => c.id === "1")).toMatchObject({ name: { en: "Economy", ru: "Эконом" } });
    expect(classes[0]!.cars.length).toBeGreaterThan(0);
    const options = driverOptions.output.parse((await get(`${X}/drivers/options`, { token: tokens.S })).body).data.options;
    expect(options.find((o) => o.id === "1")).toMatchObject({ type: "extra", access: "all" });
    expect(errorOf(await post(`${X}/drivers/classes`, {}, { token: tokens.S }))).toMatchObject({ status: 461 });
  });

  const find = async (criteria: unknown) => {
    const r = await post(`${X}/drivers`, criteria, { token: tokens.S });
    expect(r.status, r.text).toBe(200);
    return driversOp.output.parse(r.body).data.drivers.map((d) => d.callSign);
  };

  it("POST /drivers translates the waterline filter", async () => {
    expect(await find({})).toEqual(["D-1", "D-2", "D-3", "D-4", "X-5"]);
    expect(await find({ where: { brand: "Kia" } })).toEqual(["D-1", "D-4"]);
    expect(await find({ brand: "Kia" })).toEqual(["D-1", "D-4"]); // a bare where
    expect(await find({ data: { where: { brand: "Kia" } } })).toEqual(["D-1", "D-4"]); // inside data
    expect(await find({ where: { callSign: ["D-2", "X-5"] } })).toEqual(["D-2", "X-5"]);
    expect(await find({ where: { name: { contains: "ПОВ" } } })).toEqual(["D-3"]); // Попов: case ignored
    expect(await find({ where: { callSign: { startsWith: "d-" } } })).toEqual(["D-1", "D-2", "D-3", "D-4"]);
    expect(await find({ where: { registrationNumber: { endsWith: "77" }, color: "белый" } })).toEqual(["D-1", "X-5"]);
    expect(await find({ where: { carClass: { ">": 1 } } })).toEqual(["D-2", "D-3", "D-4"]);
    expect(await find({ where: { carClass: { ">=": 2, "<": 3 } } })).toEqual(["D-2", "D-4"]);
    expect(await find({ where: { carClass: { "<=": 1 } } })).toEqual(["D-1", "X-5"]);
    expect(await find({ where: { carage: { "<": "2020" } } })).toEqual(["D-1", "D-4"]);
    expect(await find({ where: { brand: { "!": "Kia" } } })).toEqual(["D-2", "D-3", "X-5"]);
    expect(await find({ where: { brand: { not: ["Kia", "Skoda"] } } })).toEqual(["D-3", "X-5"]);
    expect(await find({ where: { carClass: { in: [2, 3] } } })).toEqual(["D-2", "D-3", "D-4"]);
    expect(await find({ where: { carClass: { nin: [2, 3] } } })).toEqual(["D-1", "X-5"]);
    expect(await find({ where: { or: [{ brand: "Toyota" }, { carClass: 1, color: "белый" }] } })).toEqual(["D-1", "D-3", "X-5"]);
    expect(await find({ where: { and: [{ brand: "Kia" }, { carClass: 2 }] } })).toEqual(["D-4"]);
    expect(await find({ where: { options: 5 } })).toEqual(["D-2", "D-3"]);
    expect(await find({ where: { options: { contains: [1, 5] } } })).toEqual(["D-3"]);
    expect(await find({ where: { options: { in: [3, 7] } } })).toEqual(["D-3", "X-5"]);
    expect(await find({ sort: "carage DESC" })).toEqual(["D-3", "D-2", "X-5", "D-4", "D-1"]);
    expect(await find({ sort: [{ carClass: -1 }, "callSign ASC"] })).toEqual(["D-3", "D-2", "D-4", "D-1", "X-5"]);
    expect(await find({ sort: { callSign: "DESC" }, limit: 2, skip: 1 })).toEqual(["D-4", "D-3"]);
    // like: % at the start and/or the end, case ignored
    expect(await find({ where: { name: { like: "%ПОВ%" } } })).toEqual(["D-3"]);
    expect(await find({ where: { callSign: { like: "d-%" } } })).toEqual(["D-1", "D-2", "D-3", "D-4"]);
    expect(await find({ where: { registrationNumber: { like: "%77" }, color: "белый" } })).toEqual(["D-1", "X-5"]);
    expect(await find({ where: { callSign: { like: "x-5" } } })).toEqual(["X-5"]);
    expect(await find({ where: { callSign: { like: "%" } } })).toEqual(["D-1", "D-2", "D-3", "D-4", "X-5"]);
  });

  it("POST /drivers speaks the rest of the Waterline language: wildcards anywhere, words, null, case, literal text", async () => {
    // like: % and _ anywhere
    expect(await find({ where: { name: { like: "П%в" } } })).toEqual([]);
    expect(await find({ where: { name: { like: "%П%в" } } })).toEqual(["D-3"]);
    expect(await find({ where: { name: { like: "в%п_пов" } } })).toEqual(["D-3"]);
    expect(await find({ where: { callSign: { like: "D-_" } } })).toEqual(["D-1", "D-2", "D-3", "D-4"]);
    expect(await find({ where: { callSign: { like: "_-5" } } })).toEqual(["X-5"]);
    // equality ignores case, as in and not do
    expect(await find({ where: { brand: "kia" } })).toEqual(["D-1", "D-4"]);
    expect(await find({ where: { brand: ["KIA", "lada"] } })).toEqual(["D-1", "D-4", "X-5"]);
    expect(await find({ where: { brand: { nin: ["KIA", "lada"] } } })).toEqual(["D-2", "D-3"]);
    expect(await find({ where: { brand: { "!=": "KIA" } } })).toEqual(["D-2", "D-3", "X-5"]);
    // text outside like is literal: _ and % are no wildcards there
    expect(await find({ where: { callSign: "D_1" } })).toEqual([]);
    expect(await find({ where: { callSign: { contains: "_" } } })).toEqual([]);
    expect(await find({ where: { callSign: { startsWith: "%" } } })).toEqual([]);
    expect(await find({ where: { callSign: { "!": "D_1" } } })).toEqual(["D-1", "D-2", "D-3", "D-4", "X-5"]);
    // the modifiers' words
    expect(await find({ where: { carClass: { greaterThan: 1, lessThan: 3 } } })).toEqual(["D-2", "D-4"]);
    expect(await find({ where: { carClass: { greaterThanOrEqual: 3 } } })).toEqual(["D-3"]);
    expect(await find({ where: { carClass: { lessThanOrEqual: 1 } } })).toEqual(["D-1", "X-5"]);
    // null: no field of a driver is empty
    expect(await find({ where: { brand: null } })).toEqual([]);
    expect(await find({ where: { brand: { "!": null }, carClass: 1 } })).toEqual(["D-1", "X-5"]);
    expect(await find({ where: { brand: { in: [null, "Lada"] } } })).toEqual(["X-5"]);
  });

  it("POST /drivers returns the selected fields (with the id), or all but the omitted ones", async () => {
    const one = async (criteria: Record<string, unknown>) => {
      const r = await post(`${X}/drivers`, { where: { callSign: "D-2" }, ...criteria }, { token: tokens.S });
      expect(r.status, r.text).toBe(200);
      return driversOp.output.parse(r.body).data.drivers[0]!;
    };
    const full = await one({});
    expect(Object.keys(await one({ select: ["name", "carClass"] })).sort()).toEqual(["carClass", "id", "name"]);
    expect(await one({ select: ["name"] })).toEqual({ id: full.id, name: full.name });
    const omitted = await one({ omit: ["phone", "options"] });
    expect(omitted).not.toHaveProperty("phone");
    expect(omitted).not.toHaveProperty("options");
    expect(omitted).toMatchObject({ id: full.id, callSign: "D-2", brand: full.brand });
  });

  it("refuses what the filter does not support, naming it", async () => {
    const fail = async (criteria: unknown) => errorOf(await post(`${X}/drivers`, criteria, { token: tokens.S }));
    expect(await fail({ where: { password: "x" } })).toMatchObject({ status: 400, code: "BadRequest" });
    expect((await fail({ where: { password: "x" } })).detail).toContain("password");
    expect(await fail({ where: { name: { near: "x" } } })).toMatchObject({ status: 400, pointer: "/where/name/near" });
    expect(await fail({ where: { name: { like: "%".repeat(201) } } })).toMatchObject({ status: 400 });
    expect(await fail({ where: { carClass: { like: "1%" } } })).toMatchObject({ status: 400 });
    expect(await fail({ where: { carClass: { contains: 1 } } })).toMatchObject({ status: 400 });
    expect(await fail({ where: { carClass: "two" } })).toMatchObject({ status: 465, code: "TypeError" });
    expect(await fail({ where: { carClass: { ">": "1" } } })).toMatchObject({ status: 465 });
    expect(await fail({ where: { or: {} } })).toMatchObject({ status: 400 });
    expect(await fail({ where: { carClass: { ">": null, "<": "x" } } })).toMatchObject({ status: 465 });
    expect(await fail({ limit: 5000 })).toMatchObject({ status: 400 });
    expect(await fail({ limit: "ten" })).toMatchObject({ status: 465 });
    expect(await fail({ skip: -1 })).toMatchObject({ status: 400 });
    expect(await fail({ sort: "secret ASC" })).toMatchObject({ status: 400 });
    expect(await fail({ sort: "callSign SIDEWAYS" })).toMatchObject({ status: 400 });
    expect(await fail({ select: ["password"] })).toMatchObject({ status: 400 });
    expect(await fail({ select: "name" })).toMatchObject({ status: 400 });
    expect(await fail({ select: ["name"], omit: ["phone"] })).toMatchObject({ status: 400 });
    expect(await fail({ omit: ["id"] })).toMatchObject({ status: 400 });
    expect(await fail({ where: {}, page: 2 })).toMatchObject({ status: 400 });
    expect(errorOf(await get(`${X}/drivers`, { token: tokens.S }))).toMatchObject({ status: 461 });
  });

  it("GET /drivers/:id finds a driver by the exchange's id", async () => {
    const all = driversOp.output.parse((await post(`${X}/drivers`, { where: { callSign: "D-2" } }, { token: tokens.S })).body).data.drivers;
    const r = await get(`${X}/drivers/${all[0]!.id}`, { token: tokens.B1 });
    expect(driverById.output.parse(r.body).data.driver).toMatchObject({ callSign: "D-2", brand: "Skoda", carClass: 2, options: [5] });
    expect(errorOf(await get(`${X}/drivers/00000000-0000-0000-0000-000000000000`, { token: tokens.B1 }))).toMatchObject({ status: 404, code: "NotFound" });
  });
});

describe("selling: register, offer, take, update, reject, complete", () => {
  let first = "";

  it("registers an order: registered, received to every interested participant, then accepted", async () => {
    const r = await call("S", "order", { id: "S-1", type: "order", attributes: attrs() });
    const reply = registerOp.output.parse(r.body).data;
    expect(reply.orderId).toBe("S-1");
    first = reply.id;
    expect(await topicsOf("S", first, 2)).toEqual(["order/registered", "order/accepted"]);
    const registered = rx.S.events(first)[0]!;
    expect(registered.data).toEqual({ id: first, orderId: "S-1" });
    for (const name of ["B1", "B2", "P"] as const) {
      expect(await topicsOf(name, first, 1)).toEqual(["order/received"]);
      const received = rx[name].events(first)[0]!;
      expect(received.data).toMatchObject({ id: first, type: "order", attributes: { status: 9, fare: 123.45, carClass: 1, from: { latitude: 55.75 }, note: "у подъезда" } });
      // Offers do not show the client: the executor gets it with `restore`.
      expect(received.data.attributes).not.toHaveProperty("client");
    }
    await topicsOf("R", first, 1);
    // S's own offer: no; N has no server; the T* execute another car class; D is disabled.
    // Every notification of the registration is delivered once the outbox settles.
    await outbox.settled();
    for (const name of ["N", "D", "T1"] as const) expect(rx[name].events(first)).toHaveLength(0);
    expect(rx.S.topics(first)).not.toContain("order/received");
  });

  it("a repeated registration answers the same id and sends nothing", async () => {
    const again = await call("S", "order", { id: "S-1", type: "order", attributes: attrs() });
    expect((again.body.data as { id: string }).id).toBe(first);
    await outbox.settled();
    expect(rx.S.topics(first)).toEqual(["order/registered", "order/accepted"]);
    expect(rx.B1.topics(first)).toEqual(["order/received"]);
  });

  it("refuses an order nobody executes: refused, 'no executor services found'", async () => {
    const id = await register("S", "S-refused", { carClass: 7 });
    const refused = await until("refused", () => rx.S.received.find((r) => r.path === "/on/order/refused" && r.data.orderId === "S-refused"));
    expect(refused.data.reason).toBe("no executor services found");
    const got = await call("S", "order/get", { id });
    expect((got.body.data as { attributes: { status: number } }).attributes.status).toBe(93);
    // A plain retry after `refused` registers it again: a new exchange order, `restore` to the seller.
    // Four retries at once: the database lets one registration win; all answer its id.
    const tries = await Promise.all([1, 2, 3, 4].map(() => register("S", "S-refused", { carClass: 1 })));
    const again = tries[0]!;
    expect(new Set(tries).size).toBe(1);
    expect(again).not.toBe(id);
    expect(await topicsOf("S", again, 3)).toEqual(["order/registered", "order/restore", "order/accepted"]);
    const restore = rx.S.events(again).find((r) => r.path === "/on/order/restore")!;
    expect(restore.data).toEqual({ id: again, orderId: "S-refused", attributes: { client: { phone: "79161234567", name: "Иван" } } });
    expect(await topicsOf("B1", again, 1)).toEqual(["order/received"]);
    // ...and while it is open, the same id again is the same order.
    expect(await register("S", "S-refused", { carClass: 1 })).toBe(again);
    expect((await call("S", "order/revoke", { id: again })).status).toBe(200);
  });

  it("registration errors: 401, 461, 462, 463, 465, 400", async () => {
    expect(errorOf(await post(`${X}/order`, { data: { id: "S-x", attributes: attrs() } }))).toMatchObject({ status: 401 });
    expect(errorOf(await get(`${X}/order`, { token: tokens.S }))).toMatchObject({ status: 461 });
    expect(errorOf(await post(`${X}/order`, {}, { token: tokens.S }))).toMatchObject({ status: 462 });
    expect(errorOf(await post(`${X}/order`, { data: null }, { token: tokens.S }))).toMatchObject({ status: 462 });
    const noStart = attrs({ from: { street: "ул. Ленина" } });
    expect(errorOf(await call("S", "order", { id: "S-x", attributes: noStart }))).toMatchObject({ status: 463, pointer: "/data/attributes/from/latitude" });
    expect(errorOf(await call("S", "order", { attributes: attrs() }))).toMatchObject({ status: 463, pointer: "/data/id" });
    expect(errorOf(await call("S", "order", { id: "S-x" }))).toMatchObject({ status: 463, pointer: "/data/attributes" });
    const textLat = attrs({ from: { latitude: "55.75", longitude: 37.62 } });
    expect(errorOf(await call("S", "order", { id: "S-x", attributes: textLat }))).toMatchObject({ status: 465, code: "TypeError", pointer: "/data/attributes/from/latitude" });
    expect(errorOf(await call("S", "order", { id: "S-x", attributes: attrs({ fare: "cheap" }) }))).toMatchObject({ status: 465 });
    expect(errorOf(await call("S", "order", { id: "S-x", type: "car", attributes: attrs() }))).toMatchObject({ status: 400 });
  });

  it("order/get: the seller and the offered see it; others are refused", async () => {
    const s = getOp.output.parse((await call("S", "order/get", { id: first })).body).data;
    expect(s).toMatchObject({ type: "order", id: first, attributes: { status: 9, note: "у подъезда" } });
    expect((await call("B1", "order/get", { id: first })).status).toBe(200);
    expect(errorOf(await call("T1", "order/get", { id: first }))).toMatchObject({ status: 403 });
    expect(errorOf(await call("S", "order/get", { id: "999999" }))).toMatchObject({ status: 404 });
    const many = getOp.output.parse((await call("B1", "order/get", { orders: [first, "999999"] })).body).data;
    expect(Array.isArray(many) && many.map((o) => o.id)).toEqual([first]);
    expect(errorOf(await call("S", "order/get", { orders: "all" }))).toMatchObject({ status: 465 });
    expect(errorOf(await get(`${X}/order/get`, { token: tokens.S }))).toMatchObject({ status: 461 });
  });

  it("take errors: own order, not offered, no balance, missing or mistyped fields, unknown order", async () => {
    expect(errorOf(await take("S", first))).toMatchObject({ status: 403, code: "Forbidden" });
    expect(errorOf(await take("T1", first))).toMatchObject({ status: 403 });
    const poor = errorOf(await take("P", first));
    expect(poor).toMatchObject({ status: 403, code: "Forbidden" });
    expect(poor.detail).toMatch(/balance/);
    expect(errorOf(await call("B1", "order/take", { id: first, orderId: "b" }))).toMatchObject({ status: 463, pointer: "/data/attributes" });
    expect(errorOf(await call("B1", "order/take", { id: first, orderId: "b", attributes: { time: { arrival: 5 } } }))).toMatchObject({
      status: 463,
      pointer: "/data/attributes/executor",
    });
    // The arrival is required: `taken` gives it to the seller as an Integer.
    expect(errorOf(await call("B1", "order/take", { id: first, orderId: "b", attributes: { executor: executor("x") } }))).toMatchObject({
      status: 463,
      pointer: "/data/attributes/time",
    });
    expect(errorOf(await call("B1", "order/take", { id: first, attributes: { time: { arrival: 5 }, executor: executor("x") } }))).toMatchObject({
      status: 463,
      pointer: "/data/orderId",
    });
    expect(errorOf(await call("B1", "order/take", { id: first, orderId: "b", attributes: { time: { arrival: "soon" }, executor: executor("x") } }))).toMatchObject({
      status: 465,
    });
    expect(errorOf(await call("B1", "order/take", { id: "x1", orderId: "b", attributes: { executor: executor("x") } }))).toMatchObject({ status: 465 });
    expect(errorOf(await take("B1", "999999"))).toMatchObject({ status: 410, code: "Gone" });
    expect(errorOf(await post(`${X}/order/take`, { data: { id: first } }))).toMatchObject({ status: 401 });
    expect(errorOf(await get(`${X}/order/take`, { token: tokens.B1 }))).toMatchObject({ status: 461 });
  });

  it("take: the seller is told `taken` with the driver, the others lose the offer; a second taker gets Gone", async () => {
    const r = await take("B1", first, "B1-77");
    expect(r.status, r.text).toBe(200);
    // The executor learns whom to pick up from the reply (offers do not show the client).
    expect(r.body).toEqual({ data: { id: Number(first), attributes: { client: { phone: "79161234567", name: "Иван" } } } });
    expect(await topicsOf("S", first, 3)).toEqual(["order/registered", "order/accepted", "order/taken"]);
    const taken = rx.S.events(first)[2]!;
    expect(taken.data).toMatchObject({
      id: first,
      orderId: `B1-local-${first}`,
      attributes: { time: { arrival: 7 }, executor: { callSign: "B1-77", brand: "Kia", registrationNumber: "А123ВС77" } },
    });
    for (const name of ["B2", "P"] as const) expect(await topicsOf(name, first, 2)).toEqual(["order/received", "order/revoked"]);
    expect(await topicsOf("B1", first, 1)).toEqual(["order/received"]);
    expect(errorOf(await take("B2", first))).toMatchObject({ status: 410, code: "Gone" });
    const seen = getOp.output.parse((await call("S", "order/get", { id: first })).body).data;
    expect(seen).toMatchObject({ attributes: { status: 1, executor: { callSign: "B1-77" } } });
    const offered = getOp.output.parse((await call("B2", "order/get", { id: first })).body).data;
    expect(offered).not.toHaveProperty("attributes.executor");
    expect(offered).not.toHaveProperty("attributes.client");
    expect(getOp.output.parse((await call("B1", "order/get", { id: first })).body).data).toMatchObject({ attributes: { client: { name: "Иван" } } });
  });

  it("update: statuses through the state machine; fields by their rules", async () => {
    const r = await call("B1", "order/update", { id: first, attributes: { status: 2 } });
    expect(r.status, r.text).toBe(200);
    const reply = updateOp.output.parse(r.body);
    expect(reply.order.attributes.status).toBe(2);
    expect(reply.data.id).toBe(first);
    await until("updated at S", () => rx.S.topics(first).includes("order/updated"));
    expect(rx.S.events(first).at(-1)!.data).toMatchObject({ id: first, attributes: { status: 2 } });
    // The seller tells the passenger and says so; the executor hears of it.
    expect((await call("S", "order/update", { id: first, attributes: { status: 10, note: "позвонить" } })).status).toBe(200);
    await until("updated at B1", () => rx.B1.topics(first).includes("order/updated"));
    expect(rx.B1.events(first).at(-1)!.data).toMatchObject({ attributes: { status: 10, note: "позвонить" } });
    // The same values again change nothing and tell nobody.
    expect((await call("S", "order/update", { id: first, attributes: { status: 10, note: "позвонить" } })).status).toBe(200);

    const bad = async (name: Name, attributes: Record<string, unknown>) => errorOf(await call(name, "order/update", { id: first, attributes }));
    expect(await bad("B1", { note: "hi" })).toMatchObject({ status: 400, code: "BadRequest" });
    expect(await bad("S", { fare: 500 })).toMatchObject({ status: 400 });
    expect(await bad("S", { carClass: 2 })).toMatchObject({ status: 400 });
    expect(await bad("S", { service: { id: 4 } })).toMatchObject({ status: 400 });
    expect(await bad("S", { time: { registered: "2020-01-01T00:00:00Z" } })).toMatchObject({ status: 400 });
    expect(await bad("B1", { status: 19 })).toMatchObject({ status: 400 }); // no move of the table enters 19
    expect(await bad("B1", { status: 87 })).toMatchObject({ status: 400 }); // AWAITING_PAYMENT only after IN_PROCESS
    expect(await bad("B1", { status: 77 })).toMatchObject({ status: 400 });
    expect(await bad("B1", { status: "two" })).toMatchObject({ status: 465 });
    expect(errorOf(await call("B2", "order/update", { id: first, attributes: { status: 3 } }))).toMatchObject({ status: 403 });
    expect(errorOf(await call("B1", "order/update", { id: "999999", attributes: { status: 3 } }))).toMatchObject({ status: 410 });
    expect(errorOf(await get(`${X}/order/update`, { token: tokens.B1 }))).toMatchObject({ status: 461 });
  });

  it("rejectdriver by the executor: the seller is told with the reason, the order is offered again", async () => {
    expect(errorOf(await call("B2", "order/rejectdriver", { id: first }))).toMatchObject({ status: 403 });
    expect(errorOf(await call("B1", "order/rejectdriver", {}))).toMatchObject({ status: 462 });
    expect(errorOf(await call("B1", "order/rejectdriver", { reason: "x" }))).toMatchObject({ status: 463 });
    expect(errorOf(await call("B1", "order/rejectdriver", { id: true }))).toMatchObject({ status: 465 });
    const before = rx.B2.topics(first).length;
    const r = await call("B1", "order/rejectdriver", { id: first, reason: "машина сломалась" });
    expect(r.body).toEqual({ data: { id: Number(first) } });
    await until("rejectdriver at S", () => rx.S.topics(first).includes("order/rejectdriver"));
    expect(rx.S.events(first).find((e) => e.path.endsWith("rejectdriver"))!.data).toEqual({ id: first, reason: "машина сломалась" });
    await until("re-offer at B2", () => rx.B2.topics(first).length > before);
    expect(rx.B2.topics(first).at(-1)).toBe("order/received");
    expect(rx.B2.events(first).at(-1)!.data).toMatchObject({ attributes: { status: 9 } });
    await outbox.settled();
    expect(rx.B1.topics(first)).not.toContain("order/rejectdriver");
    expect(rx.B1.topics(first).filter((t) => t === "order/received")).toHaveLength(1); // B1 gave it back: not offered again
    expect(errorOf(await call("S", "order/rejectdriver", { id: first }))).toMatchObject({ status: 406, code: "NotAcceptable" });
  });

  it("rejectdriver by the seller: the executor is told (no reason); the trip begun is Not acceptable", async () => {
    expect((await take("B2", first, "B2-1")).status).toBe(200);
    expect((await call("S", "order/rejectdriver", { id: first, reason: "опаздывает" })).status).toBe(200);
    await until("rejectdriver at B2", () => rx.B2.topics(first).includes("order/rejectdriver"));
    expect(rx.B2.events(first).find((e) => e.path.endsWith("rejectdriver"))!.data).toEqual({ id: first });
    await until("re-offer to P", () => rx.P.topics(first).filter((t) => t === "order/received").length >= 3);
    expect((await take("P", first)).status).toBe(403); // still no money
    expect((await take("R", first)).status).toBe(401); // R's token is bound to 127.0.0.2
    const r = await post(`${X}/order/take`, { data: { id: first, orderId: "r-1", attributes: { time: { arrival: 4 }, executor: executor("R-1") } } }, { token: tokens.R, localAddress: "127.0.0.2" });
    expect(r.status, r.text).toBe(200);
    for (const status of [2, 3, 4]) {
      const u = await post(`${X}/order/update`, { data: { id: first, attributes: { status } } }, { token: tokens.R, localAddress: "127.0.0.2" });
      expect(u.status, u.text).toBe(200);
    }
    expect(errorOf(await call("S", "order/rejectdriver", { id: first }))).toMatchObject({ status: 406 });
  });

  it("complete: only the executor; the seller is told with the completion data; again: the same answer, nothing sent", async () => {
    expect(errorOf(await call("S", "order/complete", { id: first }))).toMatchObject({ status: 403 });
    expect(errorOf(await get(`${X}/order/complete`, { token: tokens.S }))).toMatchObject({ status: 461 });
    const completion = { fare: "130.00", distance: "5400", time: { completed: "2026-11-21T12:00:00Z", standing: "0", waiting: "120" } };
    const r = await post(`${X}/order/complete`, { data: { id: first, attributes: completion } }, { token: tokens.R, localAddress: "127.0.0.2" });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ data: { id: first } });
    await until("completed at S", () => rx.S.topics(first).includes("order/completed"));
    expect(rx.S.events(first).at(-1)!.data).toEqual({ id: first, attributes: completion });
    const again = await post(`${X}/order/complete`, { data: { id: first } }, { token: tokens.R, localAddress: "127.0.0.2" });
    expect(again.body).toEqual({ data: { id: first } });
    // ...and the seller mirroring the status it was told: the same order, unchanged.
    const mirrored = await call("S", "order/update", { id: first, attributes: { status: 100 } });
    expect(updateOp.output.parse(mirrored.body).order.attributes.status).toBe(100);
    expect(errorOf(await call("S", "order/update", { id: first, attributes: { status: 4 } }))).toMatchObject({ status: 400 });
    expect(errorOf(await call("S", "order/cancel", { id: first }))).toMatchObject({ status: 410 });
  });

  it("notifications carry their delivery id in the header and in meta, each once, in order", () => {
    for (const name of ["S", "B1", "B2", "P"] as const) {
      const seen = new Set<string>();
      for (const e of rx[name].events()) {
        expect(e.deliveryId).toBeTruthy();
        expect((e.body.meta as { deliveryId: string }).deliveryId).toBe(e.deliveryId);
        expect(seen.has(e.deliveryId!)).toBe(false);
        seen.add(e.deliveryId!);
      }
    }
    expect(rx.S.topics(first)).toEqual([
      "order/registered",
      "order/accepted",
      "order/taken",
      "order/updated",
      "order/rejectdriver",
      "order/taken",
      "order/taken",
      "order/updated",
      "order/updated",
      "order/updated",
      "order/completed",
    ]);
  });
});

describe("cancel and revoke", () => {
  it("the seller cancels with a status; the offered are told; then Gone", async () => {
    const id = await register("S", "S-2");
    await topicsOf("B1", id, 1);
    expect(errorOf(await call("B1", "order/cancel", { id }))).toMatchObject({ status: 403 });
    expect(errorOf(await call("S", "order/cancel", { id, status: 4 }))).toMatchObject({ status: 465, code: "TypeError" }); // ends nothing
    expect(errorOf(await call("S", "order/cancel", { id, status: "95" }))).toMatchObject({ status: 465 });
    expect(errorOf(await call("S", "order/cancel", { status: 95 }))).toMatchObject({ status: 463 });
    expect(errorOf(await call("S", "order/cancel", {}))).toMatchObject({ status: 462 });
    expect(errorOf(await call("S", "order/cancel", { id: "999999" }))).toMatchObject({ status: 410 });
    expect(errorOf(await get(`${X}/order/cancel`, { token: tokens.S }))).toMatchObject({ status: 461 });
    expect(errorOf(await post(`${X}/order/cancel`, { data: { id } }))).toMatchObject({ status: 401 });
    const r = await call("S", "order/cancel", { id, status: 95, reason: "клиент передумал" });
    expect(r.body).toEqual({ data: { id: Number(id) } });
    for (const name of ["B1", "B2", "P"] as const) {
      await until(`cancelled at ${name}`, () => rx[name].topics(id).includes("order/cancelled"));
      expect(rx[name].events(id).at(-1)!.data).toEqual({ id, status: "95", reason: "клиент передумал" });
    }
    // The same cancellation again: the same answer, nothing sent; another status: Gone.
    const sent = rx.B1.topics(id).length;
    expect((await call("S", "order/cancel", { id, status: 95, reason: "клиент передумал" })).body).toEqual({ data: { id: Number(id) } });
    expect(errorOf(await call("S", "order/cancel", { id, status: 93 }))).toMatchObject({ status: 410, code: "Gone" });
    expect(errorOf(await take("B1", id))).toMatchObject({ status: 410 });
    // Registered again under the same id: a new order.
    const again = await register("S", "S-2");
    expect(again).not.toBe(id);
    await topicsOf("B1", again, 1);
    expect(rx.B1.topics(id)).toHaveLength(sent);
    expect((await call("S", "order/revoke", { id: again })).status).toBe(200);
  });

  it("the executor cancels: the seller is told", async () => {
    const id = await register("S", "S-2b");
    await topicsOf("B1", id, 1);
    expect((await take("B1", id)).status).toBe(200);
    expect((await call("B1", "order/cancel", { id, status: 94, reason: "не выходит" })).status).toBe(200);
    await until("cancelled at S", () => rx.S.topics(id).includes("order/cancelled"));
    expect(rx.S.events(id).at(-1)!.data).toEqual({ id, status: "94", reason: "не выходит" });
    expect(errorOf(await call("S", "order/cancel", { id }))).toMatchObject({ status: 410 });
  });

  it("the seller revokes: the executor and the offered are told; then Gone", async () => {
    const untaken = await register("S", "S-3");
    await topicsOf("B2", untaken, 1);
    expect(errorOf(await call("B1", "order/revoke", { id: untaken }))).toMatchObject({ status: 403 });
    expect(errorOf(await call("S", "order/revoke", {}))).toMatchObject({ status: 462 });
    expect(errorOf(await call("S", "order/revoke", { id: [1] }))).toMatchObject({ status: 465 });
    expect(errorOf(await get(`${X}/order/revoke`, { token: tokens.S }))).toMatchObject({ status: 461 });
    expect(errorOf(await post(`${X}/order/revoke`, { data: { id: untaken } }))).toMatchObject({ status: 401 });
    expect((await call("S", "order/revoke", { id: untaken })).body).toEqual({ data: { id: Number(untaken) } });
    for (const name of ["B1", "B2", "P"] as const) {
      await until(`revoked at ${name}`, () => rx[name].topics(untaken).includes("order/revoked"));
      expect(rx[name].events(untaken).at(-1)!.data).toEqual({ id: Number(untaken) });
    }
    expect(errorOf(await call("S", "order/revoke", { id: untaken }))).toMatchObject({ status: 410, code: "Gone" });
    expect(errorOf(await call("S", "order/revoke", { id: "999999" }))).toMatchObject({ status: 410 });

    const taken = await register("S", "S-4");
    await topicsOf("B1", taken, 1);
    expect((await take("B1", taken)).status).toBe(200);
    await topicsOf("B2", taken, 2);
    expect((await call("S", "order/revoke", { id: taken })).status).toBe(200);
    await until("revoked at B1", () => rx.B1.topics(taken).includes("order/revoked"));
    await outbox.settled();
    expect(rx.B2.topics(taken)).toEqual(["order/received", "order/revoked"]); // only once: at the take
    expect(errorOf(await call("B1", "order/rejectdriver", { id: taken }))).toMatchObject({ status: 410 });
    expect(errorOf(await call("B1", "order/update", { id: taken, attributes: { status: 2 } }))).toMatchObject({ status: 400 });
  });
});

describe("driver update", () => {
  it("passes the executing driver's state on to the seller", async () => {
    const id = await register("S", "S-5");
    await topicsOf("B2", id, 1);
    expect((await take("B2", id, "B2-55")).status).toBe(200);
    await topicsOf("S", id, 3);
    const driverId = String(((rx.S.events(id)[2]!.data.attributes as { executor: { id: string } }).executor).id);
    expect(driverId).toMatch(/[0-9a-f-]{36}/);
    const r = await call("B2", "driver/update", { id: driverId, attributes: { callSign: "B2-55", latitude: 55.76, longitude: "37.64", speed: 42, bearing: 180, status: 2 } });
    expect(r.body).toEqual({ data: { id: driverId } });
    const update = await until("driver/update at S", () => rx.S.received.find((e) => e.path === "/on/driver/update" && e.data.id === driverId));
    expect(update.data).toMatchObject({ id: driverId, attributes: { callSign: "B2-55", latitude: 55.76, longitude: 37.64, speed: 42, bearing: 180, status: 2 }, orders: [id] });
    const seen = driverById.output.parse((await get(`${X}/drivers/${driverId}`, { token: tokens.S })).body).data.driver;
    expect(seen.callSign).toBe("B2-55");
    // By call sign, with an id the exchange does not know.
    expect((await call("B2", "driver/update", { id: "local-9", attributes: { callSign: "B2-9", latitude: 55.7 } })).status).toBe(200);
    expect(errorOf(await call("B2", "driver/update", { id: "local-10", attributes: { latitude: 55.7 } }))).toMatchObject({ status: 400 });
    expect(errorOf(await call("B2", "driver/update", { id: driverId, attributes: { latitude: 155 } }))).toMatchObject({ status: 400 });
    expect(errorOf(await call("B2", "driver/update", { id: driverId }))).toMatchObject({ status: 463 });
    expect(errorOf(await call("B2", "driver/update", { attributes: {} }))).toMatchObject({ status: 463 });
    expect(errorOf(await post(`${X}/driver/update`, { data: { id: driverId, attributes: {} } }))).toMatchObject({ status: 401 });
    const dOne = driversOp.output.parse((await post(`${X}/drivers`, { where: { callSign: "D-1" } }, { token: tokens.S })).body).data.drivers[0]!;
    // Another participant's driver is no driver of B2's: without a call sign, BadRequest (Forbidden is not in driver/update's list).
    expect(errorOf(await call("B2", "driver/update", { id: dOne.id, attributes: { latitude: 55 } }))).toMatchObject({ status: 400 });
    // B2 completes this one: its own commission rate (250 bp) applies.
    expect((await call("B2", "order/complete", { id, attributes: { fare: "123.45" } })).status).toBe(200);
  });
});

describe("concurrency and delivery", () => {
  it("of five participants taking one order at once exactly one wins", async () => {
    const id = await register("S", "S-race", { carClass: 5 });
    for (const n of ["T1", "T2", "T3", "T4", "T5"] as const) await topicsOf(n, id, 1);
    const replies = await Promise.all((["T1", "T2", "T3", "T4", "T5"] as const).map((n) => take(n, id)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 410, 410, 410, 410]);
    const got = getOp.output.parse((await call("S", "order/get", { id })).body).data;
    const winner = (["T1", "T2", "T3", "T4", "T5"] as const)[replies.findIndex((r) => r.status === 200)]!;
    expect(got).toMatchObject({ attributes: { executor: { callSign: `${winner}-7` } } });
    await topicsOf("S", id, 3);
    expect(rx.S.topics(id).filter((t) => t === "order/taken")).toHaveLength(1);
  });

  it("a participant that is down gets every notification, in order, after it comes back", async () => {
    await rx.B1.down();
    const id = await register("S", "S-down");
    await topicsOf("B2", id, 1);
    expect((await call("S", "order/update", { id, attributes: { note: "первое" } })).status).toBe(200);
    expect((await call("S", "order/update", { id, attributes: { note: "второе", to: { street: "ул. Новая" } } })).status).toBe(200);
    expect((await take("B2", id)).status).toBe(200);
    expect((await call("B2", "order/rejectdriver", { id, reason: "далеко" })).status).toBe(200);
    expect((await call("S", "order/cancel", { id, status: 93, reason: "нет машин" })).status).toBe(200);
    await until("cancelled at P", () => rx.P.topics(id).includes("order/cancelled"));
    // Deliveries to B1 were tried and failed: its messages wait, none given up.
    await until("failed attempts at B1", async () => {
      const toB1 = (await outbox.messages({ channel: "exchange", status: "PENDING" })).filter((m) => m.target.startsWith(rx.B1.url));
      return toB1.some((m) => m.attempts > 0 && m.lastError);
    });
    expect(rx.B1.events(id)).toHaveLength(0);
    await rx.B1.up();
    const expected = ["order/received", "order/updated", "order/updated", "order/revoked", "order/received", "order/cancelled"];
    expect(await topicsOf("B1", id, expected.length)).toEqual(expected);
    const notes = rx.B1.events(id).slice(1, 3).map((e) => (e.data.attributes as { note: string }).note);
    expect(notes).toEqual(["первое", "второе"]);
    expect(rx.B1.events(id).at(-1)!.data).toEqual({ id, status: "93", reason: "нет машин" });
    expect(rx.P.topics(id)).toEqual(expected);
  });

  it("a notification the receiver refuses (4xx) is not retried for ever and does not hold up the next", async () => {
    rx.P.options.status = (path) => (path === "/on/order/updated" ? 410 : 200);
    const id = await register("S", "S-refusal");
    await topicsOf("P", id, 1);
    expect((await call("S", "order/update", { id, attributes: { note: "a" } })).status).toBe(200);
    expect((await call("S", "order/revoke", { id })).status).toBe(200);
    await until("revoked at P after the refused update", () => rx.P.topics(id).includes("order/revoked"), 15_000);
    expect(rx.P.received.some((r) => r.path === "/on/order/updated" && r.status === 410 && r.data.id === id)).toBe(true);
    rx.P.options.status = undefined;
  });
});

describe("a participant mirroring its own statuses", () => {
  it("the executor: every status through update, 100 completes it", async () => {
    const id = await register("P", "P-mirror-1");
    await topicsOf("B1", id, 1);
    expect((await take("B1", id)).status).toBe(200);
    for (const status of [2, 10, 3, 11, 4]) {
      const u = await call("B1", "order/update", { id, attributes: { status } });
      expect(u.status, u.text).toBe(200);
    }
    const done = await call("B1", "order/update", { id, attributes: { status: 100 } });
    expect(updateOp.output.parse(done.body).order.attributes.status).toBe(100);
    await until("completed at P", () => rx.P.topics(id).includes("order/completed"));
    // The seller mirrors what it was told: nothing changes, nothing is sent.
    expect((await call("P", "order/cancel", { id, status: 100 })).body).toEqual({ data: { id: Number(id) } });
    expect(errorOf(await call("P", "order/cancel", { id, status: 95 }))).toMatchObject({ status: 410 });
  });

  it("the executor gives it back with update 9: as rejectdriver", async () => {
    const id = await register("P", "P-mirror-2");
    await topicsOf("B2", id, 1);
    expect((await take("B1", id)).status).toBe(200);
    expect((await call("B1", "order/update", { id, attributes: { status: 9 } })).status).toBe(200);
    await until("rejectdriver at P", () => rx.P.topics(id).includes("order/rejectdriver"));
    await until("offered again to B2", () => rx.B2.topics(id).filter((t) => t === "order/received").length === 2);
    const seen = getOp.output.parse((await call("P", "order/get", { id })).body).data;
    expect(seen).toMatchObject({ attributes: { status: 9 } });
    expect(seen).not.toHaveProperty("attributes.executor");
    expect((await call("P", "order/revoke", { id })).status).toBe(200);
  });

  it("the seller: its own driver takes it off the market and back; 19 and 100 end it", async () => {
    const id = await register("P", "P-mirror-3");
    await topicsOf("B2", id, 1);
    expect((await call("P", "order/update", { id, attributes: { status: 1 } })).status).toBe(200);
    expect(await topicsOf("B2", id, 3)).toEqual(["order/received", "order/updated", "order/revoked"]);
    expect(errorOf(await take("B2", id))).toMatchObject({ status: 410 });
    expect((await call("P", "order/update", { id, attributes: { status: 9 } })).status).toBe(200);
    expect(await topicsOf("B2", id, 4)).toEqual(["order/received", "order/updated", "order/revoked", "order/received"]);
    expect((await call("P", "order/cancel", { id, status: 19, reason: "клиент отказался" })).status).toBe(200);
    expect(await topicsOf("B2", id, 5)).toContain("order/cancelled");
    expect(rx.B2.events(id).at(-1)!.data).toEqual({ id, status: "95", reason: "клиент отказался" });

    const own = await register("P", "P-mirror-4");
    await topicsOf("B2", own, 1);
    expect((await call("P", "order/cancel", { id: own, status: 100 })).status).toBe(200);
    await until("cancelled at B2", () => rx.B2.topics(own).includes("order/cancelled"));
    expect(rx.B2.events(own).at(-1)!.data).toEqual({ id: own, status: "100", reason: "done by the seller" });
    // An order with an executor is completed by the executor only.
    const taken = await register("P", "P-mirror-5");
    await topicsOf("B1", taken, 1);
    expect((await take("B1", taken)).status).toBe(200);
    expect(errorOf(await call("P", "order/update", { id: taken, attributes: { status: 100 } }))).toMatchObject({ status: 403 });
    expect((await call("P", "order/revoke", { id: taken })).status).toBe(200);
  });
});

describe("money", () => {
  it("the ledger: the seller credited the price, each side its commission, exactly once", async () => {
    await server.stop();
    await withDatabase(prepared, async (prisma) => {
      const fare = 12_345n;
      const entries = await prisma.exchangeLedgerEntry.findMany({ orderBy: { id: "asc" } });
      const of = (name: string) => entries.filter((e) => e.participantId === ids[name]);
      // S sold two completed orders (to R at 5 %, to B2 at 2.5 %), paying 5 % on each sale.
      expect(of("S").map((e) => [e.kind, e.amount])).toEqual([
        ["SALE", fare],
        ["COMMISSION", -commission(fare, 500)],
        ["SALE", fare],
        ["COMMISSION", -commission(fare, 500)],
      ]);
      expect(commission(fare, 500)).toBe(617n); // 617.25 rounds down
      expect(commission(fare, 250)).toBe(309n); // 308.625 rounds up
      expect(of("R").map((e) => [e.kind, e.amount])).toEqual([
        ["DEPOSIT", DEPOSIT],
        ["PURCHASE", -fare],
        ["COMMISSION", -617n],
      ]);
      expect(of("B2").map((e) => [e.kind, e.amount])).toEqual([
        ["DEPOSIT", DEPOSIT],
        ["PURCHASE", -fare],
        ["COMMISSION", -309n],
      ]);
      const balances = await prisma.exchangeParticipant.findMany({ select: { id: true, balance: true } });
      const balance = (name: string) => balances.find((b) => b.id === ids[name])!.balance;
      expect(balance("S")).toBe(2n * (fare - 617n));
      expect(balance("R")).toBe(DEPOSIT - fare - 617n);
      expect(balance("B2")).toBe(DEPOSIT - fare - 309n);
      for (const name of ["S", "R", "B2"]) expect(of(name).at(-1)!.balanceAfter).toBe(balance(name));
      // Posting the same completion again changes nothing (txnId).
      const order = await prisma.exchangeOrder.findFirstOrThrow({ where: { sourceOrderId: "S-1" } });
      const again = await prisma.$transaction((tx) =>
        postEntries(tx, completionEntries({ exchangeOrderId: order.id, price: fare, seller: { id: ids.S!, commissionBp: null }, buyer: { id: ids.R!, commissionBp: null } })),
      );
      expect(again).toEqual([]);
      // The history of the first order follows the state machine.
      const history = await prisma.exchangeStatusChange.findMany({ where: { exchangeOrderId: order.id }, orderBy: { id: "asc" } });
      expect(history.map((h) => h.toCode)).toEqual([0, 9, 1, 2, 10, 9, 1, 9, 1, 2, 3, 4, 100]);
      // No session token is stored in the clear.
      const sessions = await prisma.exchangeSession.findMany({ select: { tokenHash: true } });
      expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.tokenHash))).toBe(true);
      expect(sessions.some((s) => s.tokenHash === tokens.S)).toBe(false);
    });
  });
});
