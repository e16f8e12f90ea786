// The reports (docs/reports.md) on their own server and database: orders
// with known outcomes made through the real interfaces — the dispatch API
// (created, cancelled by the client), the driver app interface (taken,
// arrived, completed with the commission debited, an offer refused), the
// console's tRPC (a phone order, an order closed as "no cars", an offer sent
// by hand) — give known figures in every report; the money report equals
// the drivers' ledger (read through the accountants' tRPC); the CSV and XLSX
// exports, parsed back with csv-parse and exceljs, hold the screen's numbers;
// the passengers' ratings (given through the trips' tracking links) appear
// per driver as their average and count;
// the exchange's money follows the city, service, region and driver filters
// (orders sold to and bought from a participant that trades on this
// server's own exchange); waits and the share assigned within 60 s equal
// what the orders' own timestamps give, with one order taken after more
// than 60 s;
// a manager reads the board and the reports and can change nothing; a
// dispatcher is refused the reports (403, audited); bad input is refused in
// the operator's language.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseCsv } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { provisioningKeyFor } from "@/server/driver-app/keys";
import type { TestDatabase } from "../reliability/support/db";
import { freshDatabase, startInstance, template, type AppInstance } from "../reliability/support/instance";
import { signInApi, trpc, type Session } from "../../e2e/support/console-api";
import { addParticipants } from "../support/exchange/fixtures";
import { post as xpost, until } from "../support/exchange/http";
import { startReceiver, type Receiver } from "../support/exchange/receiver";

let database: TestDatabase;
let app: AppInstance;
const sessions = {} as Record<"admin" | "manager" | "dispatcher", Session>;
const PASSWORD = "reports-password-1";
let apiKey = "";
let apiKeyId = 0;
/** A second dispatch API key: the orders of the waits' and the 60-second checks. */
const timing = { key: "", id: 0 };
/** Participant C: trades with us on this server's own exchange (the demo exchange, server/seed/demo-exchange.ts). */
const keyC = `xk_reports_c_${Date.now().toString(36)}`;
let receiverC: Receiver;
const drivers = {} as Record<"A" | "B" | "X", { callSign: string; id: number; key: string }>;
const fares = { revenue: 0n, commission: 0n };
const PERIOD = { period: "shift" as const };
const tag = `Rep${Date.now().toString(36)}`;

async function api<T = Record<string, unknown>>(method: "GET" | "POST", path: string, params: Record<string, string>, key = apiKey): Promise<T> {
  const body = new URLSearchParams({ api_key: key, ...params });
  const res = method === "GET" ? await fetch(`${app.url}/api/${path}?${body}`) : await fetch(`${app.url}/api/${path}`, { method, headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  const json = (await res.json()) as { status: string; response: T; error?: unknown };
  expect(json.status, `${path}: ${JSON.stringify(json.error)}`).toBe("DONE");
  return json.response;
}

async function driverApp(key: string, path: string, body: unknown = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.url}/driver-app/v1/${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, `${path}: ${JSON.stringify(json)}`).toBe(200);
  return json;
}

async function ok<T>(session: Session, path: string, input: unknown, type: "query" | "mutation" = "query"): Promise<T> {
  const r = await trpc<T>(app.url, session, path, input, type);
  expect(r.error, `${path}: ${JSON.stringify(r.error)}`).toBeUndefined();
  return r.data as T;
}

/** An order through the dispatch API under the test's own key. */
async function apiOrder(n: number): Promise<{ uuid: string; id: number; version: number }> {
  const { uuid } = await api<{ uuid: string }>("POST", "order", { phone: `7916555${String(n).padStart(4, "0")}`, street: "ул. Ленина", house: "2", name: `${tag} ${n}`, moderation_required: "no", need_notify: "no" });
  return { uuid, ...(await idOf(`${tag} ${n}`)) };
}

async function idOf(name: string): Promise<{ id: number; version: number }> {
  const page = await ok<{ items: Array<{ id: number; version: number; clientName: string }> }>(sessions.admin, "orders.board", { filter: { group: "all", q: name }, limit: 20 });
  const row = page.items.find((r) => r.clientName === name);
  expect(row, name).toBeDefined();
  return { id: row!.id, version: row!.version };
}

/** A driver takes the order and drives it to the end; its fare and commission are added to `fares` (A's and B's trips under the API key and the console's). */
async function drive(key: string, uuid: string, counted = true): Promise<void> {
  await driverApp(key, "orders/accept", { uuid, arrival_minutes: 3 });
  await driverApp(key, "orders/status", { uuid, status: "AWAITING_CLIENT" });
  await driverApp(key, "orders/status", { uuid, status: "IN_PROCESS" });
  const done = await driverApp(key, "orders/complete", { uuid });
  if (!counted) return;
  fares.revenue += BigInt(Math.round(Number(done.fare) * 100));
  fares.commission += BigInt(Math.round(Number(done.commission) * 100));
}

type Report<T> = { meta: { from: Date; to: Date; days: string[] }; data: T };
interface Orders {
  totals: Record<string, number>;
  funnel: Array<{ step: string; count: number }>;
  byHour: Array<{ hour: number; created: number; completed: number }>;
  cancellations: Array<{ actor: string; state: string; reason: string; count: number }>;
}
interface WaitFigure {
  count: number;
  meanSeconds: number | null;
  p90Seconds: number | null;
}
interface Waits {
  toOffer: WaitFigure;
  toAccept: WaitFigure;
  toPickup: WaitFigure;
  trouble: Array<{ orderId: number; phone: string; outcome: string }>;
}
interface Money {
  totals: { orders: number; revenue: bigint; commission: bigint; driverEarnings: bigint };
  exchange: { sales: bigint; purchases: bigint; commission: bigint };
  byDay: Array<{ day: string; revenue: bigint; commission: bigint }>;
  byDriver: Array<{ driverId: number; revenue: bigint; commission: bigint; orders: number }>;
}
interface Drivers {
  drivers: Array<{ driverId: number; offers: number; refused: number; accepted: number; completed: number; revenue: bigint; commission: bigint; shiftSeconds: number; averageRating: number | null; ratings: number }>;
}
interface Dispatch {
  totals: { orders: number; offers: number; assigned: number; assignedWithin60: number; shareWithin60: number | null };
  rows: Array<{ strategy: string; orders: number; offers: number }>;
}

let baseline: { consoleOrders: Orders; drivers: Drivers };
const orderIds: number[] = [];
const uuids = {} as Record<"o1" | "o2" | "console", string>;

beforeAll(async () => {
  database = await freshDatabase();
  // C's server (a recorder) and C itself, an exchange participant with executor services of classes 1 and 2.
  receiverC = await startReceiver({ services: [{ id: 1, name: "Эконом", carClass: 1 }, { id: 2, name: "Комфорт", carClass: 2 }], drivers: [] });
  const classes = [
    { externalId: 1, name: "Эконом", carClass: 1, executes: true },
    { externalId: 2, name: "Комфорт", carClass: 2, executes: true },
  ];
  await database.use((prisma) => addParticipants(prisma, [{ name: "Reports C", url: receiverC.url, key: keyC, services: classes, deposit: 10_000_000n }]));
  // The demo exchange (on by default): this server is the exchange and trades on it. Nothing is sold by itself here.
  app = await startInstance(database, { env: { SIMULATE: "0", EXCHANGE_SELL_AFTER_MINUTES: "0", EXCHANGE_COMMISSION_BP: "500" } });
  const t = template();
  sessions.admin = await signInApi(app.url, t.adminEmail, t.adminPassword);
  // The order taken after more than 60 s is created first, so that the rest of the suite runs while it waits.
  const issuedTiming = await ok<{ id: number; key: string }>(sessions.admin, "admin.apiKeys.issue", { name: `reports timing ${tag}` }, "mutation");
  timing.key = issuedTiming.key;
  timing.id = issuedTiming.id;
  timingOrders.slow = await timingOrder("slow");
  for (const [who, role] of [
    ["manager", "MANAGER"],
    ["dispatcher", "DISPATCHER"],
  ] as const) {
    const email = `${who}-${tag.toLowerCase()}@reports.test`;
    await ok(sessions.admin, "admin.users.create", { email, name: who, password: PASSWORD, roles: [role], locale: "en" }, "mutation");
    sessions[who] = await signInApi(app.url, email, PASSWORD);
  }
  const issued = await ok<{ id: number; key: string }>(sessions.admin, "admin.apiKeys.issue", { name: `reports ${tag}` }, "mutation");
  apiKey = issued.key;
  apiKeyId = issued.id;
  // No distribution rules in the template: nothing is offered by itself, drivers take free orders (docs/dispatch.md).
  // Three drivers of the main city holding no order.
  const idle: Array<{ callSign: string; id: number }> = [];
  for (let n = 140; n <= 180 && idle.length < 3; n++) {
    const res = await fetch(`${app.url}/api/drivers?${new URLSearchParams({ api_key: apiKey, code: String(n) })}`);
    const body = (await res.json()) as { status: string; response?: { order_id: number | null; city_id: number; id?: number } };
    if (body.status === "DONE" && body.response?.order_id === null && body.response.city_id === 1) {
      const list = await ok<{ items: Array<{ id: number; callSign: string }> }>(sessions.admin, "drivers.list", { q: String(n) });
      const found = list.items.find((d) => d.callSign === String(n));
      if (found) idle.push({ callSign: String(n), id: found.id });
    }
  }
  expect(idle).toHaveLength(3);
  const provisioning = provisioningKeyFor(t.appSecret);
  for (const [name, d] of [["A", idle[0]!], ["B", idle[1]!], ["X", idle[2]!]] as const) {
    const res = await fetch(`${app.url}/driver-app/v1/keys`, { method: "POST", headers: { authorization: `Bearer ${provisioning}`, "content-type": "application/json" }, body: JSON.stringify({ call_sign: d.callSign }) });
    const key = String(((await res.json()) as { app_key: string }).app_key);
    drivers[name] = { ...d, key };
    await driverApp(key, "shift/start", { lat: 55.75, lon: 37.6 });
  }
  baseline = {
    consoleOrders: (await ok<Report<Orders>>(sessions.manager, "reports.orders", { ...PERIOD, source: "CONSOLE" })).data,
    drivers: (await ok<Report<Drivers>>(sessions.manager, "reports.drivers", PERIOD)).data,
  };

  // 1, 2: completed by A and by B.
  const o1 = await apiOrder(1);
  await drive(drivers.A.key, o1.uuid);
  const o2 = await apiOrder(2);
  await drive(drivers.B.key, o2.uuid);
  // 3: the client cancels through the dispatch API.
  const o3 = await apiOrder(3);
  await api("POST", "cancel_order", { uuid: o3.uuid, reason: "client changed plans" });
  // 4: the dispatcher closes it: no cars (lost).
  const o4 = await apiOrder(4);
  await ok(sessions.admin, "orders.move", { orderId: o4.id, to: "DONE_NO_CARS", expectedVersion: o4.version, reason: "no cars nearby" }, "mutation");
  // 5: sent by hand to B, who refuses; it stays open.
  const o5 = await apiOrder(5);
  await ok(sessions.admin, "dispatch.send", { orderId: o5.id, driverId: drivers.B.id }, "mutation");
  await driverApp(drivers.B.key, "offer/refuse", { uuid: o5.uuid, reason: "too far" });
  orderIds.push(o1.id, o2.id, o3.id, o4.id, o5.id);
  uuids.o1 = o1.uuid;
  uuids.o2 = o2.uuid;
  // A phone order in the console, completed by A (not under the API key).
  const phoneOrder = await ok<{ uuid?: string; id?: number }>(sessions.admin, "orders.create", { phone: "79165550099", clientName: `${tag} console`, pickup: { street: "ул. Ленина", house: "2" }, needNotify: false }, "mutation");
  const consoleUuid = phoneOrder.uuid ?? "";
  expect(consoleUuid).toMatch(/[0-9a-f-]{36}/);
  await drive(drivers.A.key, consoleUuid);
  uuids.console = consoleUuid;
  // Timing: one taken at once by X and driven to the end, one the client cancels (the slow one waits, below).
  timingOrders.fast = await timingOrder("fast");
  await drive(drivers.X.key, timingOrders.fast.uuid, false);
  const never = await timingOrder("never");
  await api("POST", "cancel_order", { uuid: never.uuid, reason: "changed plans" }, timing.key);
}, 300_000);

/** The last test stops the server on PGlite to read the database itself. */
let stopped = false;

afterAll(async () => {
  if (!stopped) await app?.stop();
  await receiverC?.stop();
  await database?.drop();
});

const timingOrders = {} as Record<"slow" | "fast", { uuid: string; id: number }>;

/** An order under the timing key. */
async function timingOrder(label: string): Promise<{ uuid: string; id: number }> {
  const name = `${tag} timing ${label}`;
  const { uuid } = await api<{ uuid: string }>("POST", "order", { phone: "79165557000", street: "ул. Ленина", house: "2", name, moderation_required: "no", need_notify: "no" }, timing.key);
  return { uuid, id: (await idOf(name)).id };
}

interface OrderDetails {
  id: number;
  createdAt: Date;
  service: { id: number } | null;
  region: { id: number } | null;
  driver: { id: number } | null;
  history: Array<{ toState: string; at: Date }>;
}

/** What the waits report measures of one order, in seconds, from its own history (docs/reports.md). */
function waitsOf(o: OrderDetails): { offer: number | null; accept: number | null; pickup: number | null } {
  const first = (states: string[]) => {
    const h = o.history.find((x) => states.includes(x.toState));
    return h ? (h.at.getTime() - o.createdAt.getTime()) / 1000 : null;
  };
  return { offer: first(["SENT_TO_DRIVER", "ORDER_ON_RADIO"]), accept: first(["CONFIRMED", "BOUND", "PREORDER_ATTACHED"]), pickup: first(["AWAITING_CLIENT"]) };
}

/** PostgreSQL's percentile_cont: linear between the two nearest ranks. */
function percentileCont(values: number[], p: number): number {
  const v = [...values].sort((a, b) => a - b);
  const at = p * (v.length - 1);
  const lo = Math.floor(at);
  return v[lo]! + (at - lo) * ((v[lo + 1] ?? v[lo]!) - v[lo]!);
}

/** The report's figure equals the one computed here, to its rounding (0.1 s; the timestamps travel in milliseconds). */
function expectSeconds(actual: number | null, expected: number, label: string): void {
  expect(actual, label).not.toBeNull();
  expect(Math.abs(actual! - Math.round(expected * 10) / 10), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(0.1 + 1e-9);
}

function expectWaits(data: Waits, orders: OrderDetails[], label: string): void {
  for (const [name, key] of [
    ["toOffer", "offer"],
    ["toAccept", "accept"],
    ["toPickup", "pickup"],
  ] as const) {
    const values = orders.map((o) => waitsOf(o)[key]).filter((v): v is number => v !== null);
    expect(data[name].count, `${label} ${name} count`).toBe(values.length);
    if (values.length === 0) continue;
    expectSeconds(data[name].meanSeconds, values.reduce((a, b) => a + b, 0) / values.length, `${label} ${name} mean`);
    expectSeconds(data[name].p90Seconds, percentileCont(values, 0.9), `${label} ${name} p90`);
  }
}

async function details(id: number): Promise<OrderDetails> {
  return ok<OrderDetails>(sessions.admin, "orders.get", { id });
}

const mine = () => ({ ...PERIOD, apiKeyId });

describe("known orders give known figures", () => {
  it("orders: created, offered, assigned, at the pickup, completed, cancelled (who, why), lost, open; the funnel and the hours", async () => {
    const { data } = await ok<Report<Orders>>(sessions.manager, "reports.orders", mine());
    expect(data.totals).toMatchObject({ created: 5, offered: 3, assigned: 2, atPickup: 2, completed: 2, cancelled: 1, lost: 1, open: 1, bought: 0, sold: 0 });
    expect(data.funnel.map((s) => s.count)).toEqual([5, 3, 2, 2, 2]);
    expect(data.byHour.reduce((n, h) => n + h.created, 0)).toBe(5);
    expect(data.byHour.reduce((n, h) => n + h.completed, 0)).toBe(2);
    expect(data.cancellations).toEqual(
      expect.arrayContaining([
        { actor: "API_KEY", state: "DONE_CANCELLED", reason: "client changed plans", count: 1 },
        { actor: "USER", state: "DONE_NO_CARS", reason: "no cars nearby", count: 1 },
      ]),
    );
    expect(data.cancellations).toHaveLength(2);
    // The console's phone order counts under the console's source.
    const consoleNow = (await ok<Report<Orders>>(sessions.manager, "reports.orders", { ...PERIOD, source: "CONSOLE" })).data;
    expect(consoleNow.totals.created! - baseline.consoleOrders.totals.created!).toBe(1);
    expect(consoleNow.totals.completed! - baseline.consoleOrders.totals.completed!).toBe(1);
  });

  it("waits: counts of each wait, mean and 90th percentile; the lost order is in trouble, its phone hidden from a manager", async () => {
    const { data } = await ok<Report<Waits>>(sessions.manager, "reports.waits", mine());
    expect(data.toOffer.count).toBe(3);
    expect(data.toAccept.count).toBe(2);
    expect(data.toPickup.count).toBe(2);
    // Mean and 90th percentile of each wait, as the orders' own timestamps give them.
    expectWaits(data, await Promise.all(orderIds.map(details)), "API key");
    expect(data.trouble.map((r) => [r.orderId, r.outcome])).toEqual([[orderIds[3], "lost"]]);
    expect(data.trouble[0]!.phone).not.toContain("5550004");
    const asAdmin = (await ok<Report<Waits>>(sessions.admin, "reports.waits", mine())).data;
    expect(asAdmin.trouble[0]!.phone).toContain("79165550004");
  });

  it("money: the fares and the commission the driver app reported, to the kopeck; per day and per driver", async () => {
    const { data, meta } = await ok<Report<Money>>(sessions.manager, "reports.money", mine());
    expect(data.totals.orders).toBe(2);
    expect(data.totals.revenue).toBe(fares.revenue - (await consoleFare()));
    expect(data.totals.commission).toBeGreaterThan(0n);
    expect(data.totals.driverEarnings).toBe(data.totals.revenue - data.totals.commission);
    expect(data.byDay).toHaveLength(meta.days.length);
    expect(data.byDay.reduce((s, d) => s + d.revenue, 0n)).toBe(data.totals.revenue);
    expect(data.byDriver.map((d) => d.driverId).sort()).toEqual([drivers.A.id, drivers.B.id].sort());
  });

  it("money equals the drivers' ledger: each driver's commission is the sum of their COMMISSION entries in the period", async () => {
    let total = 0n;
    for (const d of [drivers.A, drivers.B]) {
      const { data, meta } = await ok<Report<Money>>(sessions.manager, "reports.money", { ...PERIOD, driverId: d.id });
      const ledger = await ok<{ items: Array<{ txnId: string; amount: bigint; createdAt: Date }> }>(sessions.admin, "balances.driverLedger", { id: d.id, limit: 200 });
      const commission = ledger.items
        .filter((e) => e.txnId.startsWith("commission:order:") && e.createdAt >= meta.from && e.createdAt < meta.to)
        .reduce((s, e) => s - e.amount, 0n);
      expect(data.totals.commission, d.callSign).toBe(commission);
      total += commission;
    }
    expect(total).toBe(fares.commission);
  });

  it("drivers: offers refused, orders completed, fares and commission, hours on shift", async () => {
    const { data } = await ok<Report<Drivers>>(sessions.manager, "reports.drivers", PERIOD);
    const delta = (id: number, key: "offers" | "refused" | "completed") => (data.drivers.find((d) => d.driverId === id)?.[key] ?? 0) - (baseline.drivers.drivers.find((d) => d.driverId === id)?.[key] ?? 0);
    expect(delta(drivers.B.id, "offers")).toBe(1);
    expect(delta(drivers.B.id, "refused")).toBe(1);
    expect(delta(drivers.A.id, "completed")).toBe(2);
    expect(delta(drivers.B.id, "completed")).toBe(1);
    const a = data.drivers.find((d) => d.driverId === drivers.A.id)!;
    expect(a.shiftSeconds).toBeGreaterThan(0);
  });

  it("drivers: the passengers' ratings given in the period, their average and count, on the screen and in the CSV", async () => {
    const before = (id: number) => baseline.drivers.drivers.find((d) => d.driverId === id);
    for (const d of [drivers.A, drivers.B]) expect(before(d.id)?.ratings ?? 0, "no ratings before").toBe(0);
    // Rated the way passengers rate: through each trip's tracking link (GET /api/order names it).
    for (const [uuid, stars] of [
      [uuids.o1, 5],
      [uuids.console, 2],
      [uuids.o2, 4],
    ] as const) {
      const { tracking_url: url } = await api<{ tracking_url: string }>("GET", "order", { uuid });
      const res = await fetch(`${app.url}${new URL(url).pathname}/rating`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ stars }) });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const { data } = await ok<Report<Drivers>>(sessions.manager, "reports.drivers", PERIOD);
    const row = (id: number) => data.drivers.find((d) => d.driverId === id)!;
    expect(row(drivers.A.id)).toMatchObject({ averageRating: 3.5, ratings: 2 });
    expect(row(drivers.B.id)).toMatchObject({ averageRating: 4, ratings: 1 });
    // Another driver's row, with no ratings: none, not zero stars.
    for (const other of data.drivers.filter((d) => d.driverId !== drivers.A.id && d.driverId !== drivers.B.id && d.ratings === 0)) expect(other.averageRating).toBeNull();
    // A period before the trips holds none of these ratings.
    const earlier = (await ok<Report<Drivers>>(sessions.manager, "reports.drivers", { period: "range", from: "2020-01-01", to: "2020-01-31" })).data;
    expect(earlier.drivers.find((d) => d.driverId === drivers.A.id)?.ratings ?? 0).toBe(0);
    const csv: string[][] = parseCsv((await (await download(sessions.manager, "/reports/drivers.csv?period=shift")).text()).replace(/^\uFEFF/, ""), { relax_column_count: true, skip_empty_lines: true });
    const headers = csv[0]!;
    const a = csv.find((r) => r[headers.indexOf("Call sign")] === drivers.A.callSign)!;
    expect(a[headers.indexOf("Average rating")]).toBe("3.5");
    expect(a[headers.indexOf("Ratings")]).toBe("2");
  });

  it("dispatch: offers per order and by strategy (the one sent by hand)", async () => {
    const { data } = await ok<Report<Dispatch>>(sessions.manager, "reports.dispatch", mine());
    expect(data.totals).toMatchObject({ orders: 5, offers: 1, assigned: 2 });
    // o1 and o2 were taken seconds after creation (their histories say how many seconds).
    const within = (await Promise.all(orderIds.map(details))).filter((o) => (waitsOf(o).accept ?? Infinity) <= 60).length;
    expect(within).toBe(2);
    expect(data.totals.assignedWithin60).toBe(within);
    const byStrategy = Object.fromEntries(data.rows.map((r) => [r.strategy, r.orders]));
    expect(byStrategy).toEqual({ DISPATCHER: 1, NONE: 4 });
  });
});

/** The console order's fare (it is A's third trip but not under the API key). */
async function consoleFare(): Promise<bigint> {
  const { data } = await ok<Report<Money>>(sessions.manager, "reports.money", { ...PERIOD, source: "CONSOLE", driverId: drivers.A.id });
  return data.totals.revenue;
}

async function download(session: Session, path: string): Promise<Response> {
  return fetch(`${app.url}${path}`, { headers: { cookie: session.cookie } });
}

describe("exports", () => {
  it("CSV: UTF-8 with a BOM, the screen's numbers, parsed back with csv-parse", async () => {
    const res = await download(sessions.manager, `/reports/orders.csv?period=shift&apiKeyId=${apiKeyId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/csv/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.toString("utf8").slice(1), { relax_column_count: true, skip_empty_lines: true });
    const value = (label: string) => Number(rows.find((r) => r[0] === label)?.[1]);
    expect(value("Created")).toBe(5);
    expect(value("Completed")).toBe(2);
    expect(value("Lost")).toBe(1);
    const money = await download(sessions.manager, `/reports/money.csv?period=shift&apiKeyId=${apiKeyId}`);
    const moneyRows = parseCsv((await money.text()).replace(/^\uFEFF/, ""), { relax_column_count: true, skip_empty_lines: true });
    const screen = (await ok<Report<Money>>(sessions.manager, "reports.money", mine())).data;
    const revenue = moneyRows.find((r) => r[0] === "Revenue, ₽")?.[1];
    expect(revenue).toBe(`${screen.totals.revenue / 100n}.${String(screen.totals.revenue % 100n).padStart(2, "0")}`);
  });

  it("CSV cells that start with = + - @ are escaped; a manager sees no passenger's phone, Russian headers with the Russian locale", async () => {
    const res = await fetch(`${app.url}/reports/orders.csv?period=shift&apiKeyId=${apiKeyId}`, { headers: { cookie: `${sessions.manager.cookie}; locale=ru` } });
    const text = await res.text();
    expect(text).toContain("Создано");
    const waits = await (await download(sessions.manager, `/reports/waits.csv?period=shift&apiKeyId=${apiKeyId}`)).text();
    expect(waits).not.toContain("79165550004");
    const asAdmin = await (await download(sessions.admin, `/reports/waits.csv?period=shift&apiKeyId=${apiKeyId}`)).text();
    // A phone starts with +: escaped as text, never a formula.
    expect(asAdmin).toContain("'+79165550004");
  });

  it("XLSX: read back with exceljs, the same numbers as tRPC", async () => {
    const res = await download(sessions.manager, `/reports/drivers.xlsx?period=shift`);
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const col = (name: string) => headers.indexOf(name) + 1;
    const screen = (await ok<Report<Drivers>>(sessions.manager, "reports.drivers", PERIOD)).data;
    const a = screen.drivers.find((d) => d.driverId === drivers.A.id)!;
    let found = false;
    sheet.eachRow((row, n) => {
      if (n === 1 || row.getCell(col("Call sign")).value !== drivers.A.callSign) return;
      found = true;
      expect(row.getCell(col("Completed")).value).toBe(a.completed);
      expect(row.getCell(col("Revenue, ₽")).value).toBe(Number(a.revenue) / 100);
      expect(row.getCell(col("Commission, ₽")).value).toBe(Number(a.commission) / 100);
      expect(row.getCell(col("Average rating")).value).toBe(3.5);
      expect(row.getCell(col("Ratings")).value).toBe(2);
    });
    expect(found).toBe(true);
  });

  it("bad input: a period over a year, an unknown filter, a malformed date, an unknown report — clear errors in the operator's language", async () => {
    const cases: Array<[string, number, RegExp]> = [
      ["/reports/orders.csv?period=range&from=2025-01-01&to=2026-06-01", 400, /longer than a year/],
      ["/reports/orders.csv?period=shift&colour=red", 400, /Unknown filter “colour”/],
      ["/reports/orders.xlsx?period=shift&date=2026-13-45", 400, /Bad date in “date”/],
      ["/reports/orders.csv?period=fortnight", 400, /filter “period”/],
      ["/reports/salaries.csv?period=shift", 404, /No such report/],
    ];
    for (const [path, status, message] of cases) {
      const res = await download(sessions.manager, path);
      expect(res.status, path).toBe(status);
      expect(await res.text(), path).toMatch(message);
    }
    const ru = await fetch(`${app.url}/reports/orders.csv?period=range&from=2025-01-01&to=2026-06-01`, { headers: { cookie: `${sessions.manager.cookie}; locale=ru` } });
    expect(await ru.text()).toMatch(/Период длиннее года/);
    const viaTrpc = await trpc(app.url, sessions.manager, "reports.orders", { period: "range", from: "2025-01-01", to: "2026-06-01" });
    expect(viaTrpc.error).toMatchObject({ code: "BAD_REQUEST", domainCode: "BAD_PARAMETER" });
    expect(viaTrpc.error!.message).toMatch(/longer than a year/);
  });
});

describe("money: the exchange follows the filters", () => {
  // Our trades on this server's own exchange with participant C: two orders
  // we sold (Moscow, Comfort; Tver) that C took and completed, and one C sold
  // that our driver X took and drove to the end.
  interface Trade {
    role: "SOLD" | "BOUGHT";
    price: bigint;
    cityId: number;
    serviceId: number;
    regionId: number | null;
    driverId: number | null;
  }
  const trades: Trade[] = [];
  let tokenC = "";
  let services: Array<{ id: number; cityId: number; nameEn: string }> = [];
  /** The exchange's commission on each side (EXCHANGE_COMMISSION_BP 500: 5 %, half up), docs/exchange.md. */
  const commissionOf = (p: bigint) => (p * 500n + 5000n) / 10000n;

  async function exchangeCall(path: string, data: unknown): Promise<Record<string, unknown>> {
    const r = await xpost(`${app.url}/exchange/${path}`, { data }, { token: tokenC });
    expect(r.status, `${path}: ${r.text}`).toBe(200);
    return r.body;
  }

  async function link(role: "SOLD" | "BOUGHT", q: string, phase: string): Promise<{ orderId: number; exchangeOrderId: string }> {
    return until(`${role} ${q} ${phase}`, async () => {
      const page = await ok<{ items: Array<{ orderId: number; exchangeOrderId: string | null; phase: string }> }>(sessions.admin, "exchangeDesk.links", { role, q, limit: 10 });
      const row = page.items.find((r) => r.phase === phase && r.exchangeOrderId);
      return row ? { orderId: row.orderId, exchangeOrderId: row.exchangeOrderId! } : undefined;
    }, 30_000, 200);
  }

  async function trade(role: Trade["role"], orderId: number, price: bigint): Promise<void> {
    const o = await details(orderId);
    const service = services.find((s) => s.id === o.service?.id)!;
    trades.push({ role, price, cityId: service.cityId, serviceId: service.id, regionId: o.region?.id ?? null, driverId: o.driver?.id ?? null });
  }

  /** Sells an order of ours made in the console at `amount` kopecks; C takes it and completes it. */
  async function soldToC(serviceId: number, at: { lat: number; lon: number }, amount: number): Promise<void> {
    const made = await ok<{ id: number }>(sessions.admin, "orders.create", { phone: "79165557100", clientName: `${tag} sold ${amount}`, pickup: { street: "ул. Биржевая", house: "1", ...at }, serviceId, amount, needNotify: false }, "mutation");
    await ok(sessions.admin, "exchangeDesk.sell", { orderId: made.id }, "mutation");
    const { exchangeOrderId } = await link("SOLD", String(made.id), "ACCEPTED");
    await exchangeCall("order/take", { id: exchangeOrderId, orderId: `c-${exchangeOrderId}`, attributes: { time: { arrival: 7 }, executor: { callSign: "C-1", brand: "Lada", model: "Vesta", phone: "79990000001" } } });
    await exchangeCall("order/complete", { id: exchangeOrderId });
    await until(`sold order ${made.id} completed`, async () => (await details(made.id)).history.some((h) => h.toState === "DONE_SUCCESSFUL"), 30_000, 200);
    await trade("SOLD", made.id, BigInt(amount));
  }

  beforeAll(async () => {
    const session = await xpost(`${app.url}/exchange/session`, { data: { key: keyC } });
    expect(session.status, session.text).toBe(200);
    tokenC = (session.body.data as { token: string }).token;
    const choices = await ok<{ cities: Array<{ id: number; lat?: number }>; services: Array<{ id: number; cityId: number; nameEn: string }> }>(sessions.manager, "reports.choices", undefined);
    services = choices.services;
    const moscowComfort = services.find((s) => s.cityId === 1 && s.nameEn === "Comfort")!;
    const tverEconomy = services.find((s) => s.cityId !== 1 && s.nameEn === "Economy")!;
    await soldToC(moscowComfort.id, { lat: 55.75, lon: 37.62 }, 30_000);
    await soldToC(tverEconomy.id, { lat: 56.8587, lon: 35.9176 }, 50_000);
    // C sells an order at 200.00 ₽; it is offered to us, and X takes it and drives it to the end.
    const registered = await exchangeCall("order", {
      id: `${tag}-b1`,
      type: "order",
      attributes: {
        client: { phone: "79161234567", name: "Иван" },
        from: { street: "ул. Ленина", house: "1", latitude: 55.76, longitude: 37.6 },
        to: { street: "пр. Мира", house: "10", latitude: 55.78, longitude: 37.63 },
        carClass: 1,
        fare: 200,
      },
    });
    const exchangeId = String((registered.data as { id: string | number }).id);
    const offered = await link("BOUGHT", exchangeId, "OFFERED");
    const local = await details(offered.orderId);
    await ok(sessions.admin, "exchangeDesk.take", { exchangeOrderId: exchangeId, driverId: drivers.X.id, arrivalMinutes: 4 }, "mutation");
    const uuid = (await ok<{ uuid: string }>(sessions.admin, "orders.get", { id: local.id })).uuid;
    await driverApp(drivers.X.key, "orders/status", { uuid, status: "AWAITING_CLIENT" });
    await driverApp(drivers.X.key, "orders/status", { uuid, status: "IN_PROCESS" });
    await driverApp(drivers.X.key, "orders/complete", { uuid });
    await trade("BOUGHT", local.id, 20_000n);
    // The completion reaches the exchange through our outbox: wait until its ledger has our purchase.
    await until("our purchase on the exchange's ledger", async () => {
      const { data } = await ok<Report<Money>>(sessions.manager, "reports.money", { ...PERIOD, driverId: drivers.X.id });
      return data.exchange.purchases > 0n;
    }, 30_000, 250);
  }, 180_000);

  const expected = (match: (t: Trade) => boolean) => {
    const mine = trades.filter(match);
    const sum = (role: Trade["role"]) => mine.filter((t) => t.role === role).reduce((s, t) => s + t.price, 0n);
    return { sales: sum("SOLD"), purchases: sum("BOUGHT"), commission: mine.reduce((s, t) => s + commissionOf(t.price), 0n) };
  };

  async function exchangeWith(filters: Record<string, number>): Promise<Money["exchange"]> {
    return (await ok<Report<Money>>(sessions.manager, "reports.money", { ...PERIOD, ...filters })).data.exchange;
  }

  it("without filters: our sales, purchases and the commission we paid, to the kopeck", async () => {
    expect(await exchangeWith({})).toEqual({ sales: 80_000n, purchases: 20_000n, commission: 1_500n + 2_500n + 1_000n });
  });

  it("by city, service, region and driver: only the trades of the orders in the filter", async () => {
    const dimensions = [
      ["cityId", (t: Trade) => t.cityId],
      ["serviceId", (t: Trade) => t.serviceId],
      ["regionId", (t: Trade) => t.regionId],
      ["driverId", (t: Trade) => t.driverId],
    ] as const;
    for (const [filter, of] of dimensions) {
      const values = [...new Set(trades.map(of).filter((v): v is number => v !== null))];
      // Each filter splits the trades: at least two values (the driver: X, and A who traded nothing).
      if (filter === "driverId") values.push(drivers.A.id);
      expect(values.length, `${filter}: ${JSON.stringify(trades, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`).toBeGreaterThanOrEqual(2);
      const seen = new Set<string>();
      for (const value of values) {
        const want = expected((t) => of(t) === value);
        expect(await exchangeWith({ [filter]: value }), `${filter}=${value}`).toEqual(want);
        seen.add(JSON.stringify(want, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)));
      }
      expect(seen.size, `${filter}: the values give different money`).toBeGreaterThanOrEqual(2);
    }
    // The other sections follow the city too: Tver's console revenue is the order sold there.
    const tver = trades.find((t) => t.cityId !== 1)!;
    const { data } = await ok<Report<Money>>(sessions.manager, "reports.money", { ...PERIOD, cityId: tver.cityId, source: "CONSOLE" });
    expect(data.totals.revenue).toBe(tver.price);
  });
});

describe("access", () => {
  it("without a session: 401; a dispatcher: 403, and the attempt is audited", async () => {
    expect((await fetch(`${app.url}/reports/orders.csv?period=shift`)).status).toBe(401);
    const refused = await download(sessions.dispatcher, "/reports/money.xlsx?period=shift");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/Manager/);
    expect((await trpc(app.url, sessions.dispatcher, "reports.money", PERIOD)).error?.code).toBe("FORBIDDEN");
    const audit = await ok<{ items: Array<{ action: string; entityId: string | null; details: { ok?: boolean } }> }>(sessions.admin, "admin.audit", { limit: 50, action: "reports.export" });
    expect(audit.items.some((a) => a.action === "reports.export" && a.entityId === "money" && a.details.ok === false)).toBe(true);
  });

  it("a manager reads the board and the reports, and every change is refused", async () => {
    await ok(sessions.manager, "orders.board", { filter: { group: "all" }, limit: 20 });
    await ok(sessions.manager, "orders.get", { id: orderIds[4] });
    await ok(sessions.manager, "map.overview", {});
    const target = await idOf(`${tag} 5`);
    const changes: Array<[string, unknown]> = [
      ["orders.move", { orderId: target.id, to: "DONE_CANCELLED", expectedVersion: target.version }],
      ["orders.create", { phone: "79165550100", pickup: { street: "ул. Ленина", house: "1" } }],
      ["dispatch.send", { orderId: target.id, driverId: drivers.A.id }],
      ["balances.adjust", { account: "driver", id: drivers.A.id, amount: 100, reason: "x", txnId: "manager-try" }],
      ["reports.setShiftStart", { hour: 6 }],
      ["admin.users.create", { email: "x@reports.test", name: "x", password: PASSWORD, roles: ["ADMIN"] }],
    ];
    for (const [path, input] of changes) {
      const r = await trpc(app.url, sessions.manager, path, input, "mutation");
      expect(r.error?.code, path).toBe("FORBIDDEN");
    }
    const after = await ok<{ items: Array<{ id: number; version: number }> }>(sessions.admin, "orders.board", { filter: { group: "all", q: `${tag} 5` }, limit: 20 });
    expect(after.items[0]!.version).toBe(target.version);
  });

  it("the shift start hour is the administrator's setting: the shift's bounds move with it", async () => {
    const before = (await ok<Report<Orders>>(sessions.admin, "reports.orders", { period: "shift", date: "2026-11-20" })).meta;
    await ok(sessions.admin, "reports.setShiftStart", { hour: 6 }, "mutation");
    const after = (await ok<Report<Orders>>(sessions.admin, "reports.orders", { period: "shift", date: "2026-11-20" })).meta;
    await ok(sessions.admin, "reports.setShiftStart", { hour: 8 }, "mutation");
    // Europe/Moscow, UTC+3: 08:00 is 05:00 UTC, 06:00 is 03:00 UTC.
    expect(before.from.toISOString()).toBe("2026-11-20T05:00:00.000Z");
    expect(before.to.toISOString()).toBe("2026-11-21T05:00:00.000Z");
    expect(after.from.toISOString()).toBe("2026-11-20T03:00:00.000Z");
  });
});

describe("waits and the share assigned within 60 s, from the orders' own timestamps", () => {
  beforeAll(async () => {
    // The slow order was created at the start of the suite: X takes it once more than 60 s have passed.
    const created = (await details(timingOrders.slow.id)).createdAt.getTime();
    await until("the slow order is over 61 s old", () => Date.now() - created > 61_000 || undefined, 120_000, 250);
    await drive(drivers.X.key, timingOrders.slow.uuid, false);
  }, 180_000);

  it("dispatch: one taken in seconds, one after more than 60 s, one never: a third within 60 s", async () => {
    const { data } = await ok<Report<Dispatch>>(sessions.manager, "reports.dispatch", { ...PERIOD, apiKeyId: timing.id });
    const slow = waitsOf(await details(timingOrders.slow.id)).accept!;
    const fast = waitsOf(await details(timingOrders.fast.id)).accept!;
    expect(slow).toBeGreaterThan(60);
    expect(fast).toBeLessThan(60);
    expect(data.totals).toMatchObject({ orders: 3, assigned: 2, assignedWithin60: 1, shareWithin60: 0.333 });
  });

  it("waits: the mean and the 90th percentile of each wait equal the ones computed from the histories", async () => {
    const { data } = await ok<Report<Waits>>(sessions.manager, "reports.waits", { ...PERIOD, apiKeyId: timing.id });
    const orders = await Promise.all([timingOrders.slow.id, timingOrders.fast.id].map(details));
    expect(data.toAccept.count).toBe(2);
    expectWaits(data, orders, "timing");
    // Two waits seconds and a minute apart: the 90th percentile is near the slow one, far from the mean.
    expect(data.toAccept.p90Seconds! - data.toAccept.meanSeconds!).toBeGreaterThan(20);
  });
});

// The reports read order_fact (docs/reports.md, "Speed"), kept by triggers in the transactions that change the orders.
// After everything above (orders created through the API and the console, offers sent, refused and accepted, moves,
// cancellations, "no cars", completions with their ledger entries, exchange trades) and, on PostgreSQL, a burst of the
// same done concurrently, every order's facts equal the facts computed afresh from the raw tables (the view
// order_fact_source, the reports' former reading of the history), and each outcome and wait follows from them.
describe("order_fact: kept by the triggers equal to the facts recomputed from the raw tables", () => {
  const COLUMNS = `order_id, city_id, service_id, region_id, driver_id, api_key_id, source::text AS source, created_at, preorder, state, status_code, amount,
    offered_at, accepted_at, at_pickup_at, completed_at, offers, first_source, first_offer_at, first_offer_id, last_change_id, last_actor, last_reason, bought, sold`;
  const OUTCOME = `CASE WHEN state = 'DONE_SUCCESSFUL' THEN 'completed'
    WHEN status_code >= 90 AND accepted_at IS NULL AND (state = 'DONE_NO_CARS' OR last_actor = 'SYSTEM') THEN 'lost'
    WHEN status_code >= 90 THEN 'cancelled' ELSE 'open' END`;

  it("after creations, offers, moves, cancellations, completions with commission and exchange trades (concurrent ones on PostgreSQL)", async () => {
    if (database.kind === "postgres") {
      // Eight orders at once, then at once: three cancelled by the client, one closed as "no cars", one sent by hand
      // and refused, two driven to the end by A and B (commission entries), one left open.
      const made = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const name = `${tag} burst ${i}`;
          const { uuid } = await api<{ uuid: string }>("POST", "order", { phone: `7916556${String(i).padStart(4, "0")}`, street: "ул. Ленина", house: "2", name, moderation_required: "no", need_notify: "no" });
          return { uuid, ...(await idOf(name)) };
        }),
      );
      await Promise.all([
        ...made.slice(0, 3).map((o) => api("POST", "cancel_order", { uuid: o.uuid, reason: "burst" })),
        ok(sessions.admin, "orders.move", { orderId: made[3]!.id, to: "DONE_NO_CARS", expectedVersion: made[3]!.version, reason: "no cars" }, "mutation"),
        (async () => {
          await ok(sessions.admin, "dispatch.send", { orderId: made[4]!.id, driverId: drivers.X.id }, "mutation");
          await driverApp(drivers.X.key, "offer/refuse", { uuid: made[4]!.uuid, reason: "busy" });
        })(),
        drive(drivers.A.key, made[5]!.uuid, false),
        drive(drivers.B.key, made[6]!.uuid, false),
      ]);
    } else {
      // PGlite: one process opens the data directory at a time.
      await app.stop();
      stopped = true;
    }
    const [kept, computed, wrongOutcomes] = await database.use(async (_prisma, query) =>
      Promise.all([
        query(`SELECT ${COLUMNS} FROM order_fact ORDER BY order_id`),
        query(`SELECT ${COLUMNS} FROM order_fact_source ORDER BY order_id`),
        query(
          `SELECT order_id, outcome, ${OUTCOME} AS expected, accept_ms FROM order_fact
            WHERE outcome <> ${OUTCOME} OR offer_ms IS DISTINCT FROM extract(epoch FROM offered_at - created_at) * 1000
               OR accept_ms IS DISTINCT FROM extract(epoch FROM accepted_at - created_at) * 1000 OR pickup_ms IS DISTINCT FROM extract(epoch FROM at_pickup_at - created_at) * 1000`,
        ),
      ]),
    );
    expect(kept.length).toBeGreaterThan(orderIds.length);
    expect(kept.some((r) => Number(r.offers) > 0) && kept.some((r) => r.accepted_at !== null) && kept.some((r) => r.last_actor === "SYSTEM" || r.state === "DONE_NO_CARS")).toBe(true);
    expect(kept).toEqual(computed);
    expect(wrongOutcomes).toEqual([]);
  });
});
