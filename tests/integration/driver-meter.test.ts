// The GPS taximeter and the messages between dispatch and drivers, over the
// product's own interfaces on a server of its own (the suite makes a service's
// rates METERED): a metered trip whose fare is the rate's formula (as
// docs/driver-app.md, "The taximeter", states it) for the distance and the
// time driven, with the waiting charged; positions replayed in a batch after a
// "connection loss" counted in the meter and the impossible ones dropped; the
// completion repeated once-only (one commission); an order with a guaranteed
// price keeping it; messages both ways, pushed on the offer stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedServer } from "../support/server";
import { Console, DEFAULT_SETTINGS, DriverApp, dispatchApi, openDispatchWorld, postOrderAt, type DispatchWorld } from "../support/dispatch-world";

let world: DispatchWorld | undefined;
let server: StartedServer;
let console_: Console;
let drivers: DriverApp[];
let serviceId: number;
let centre: { lat: number; lon: number };
let phone = 9165550700;

// The rate the suite gives the service: 50 ₽ boarding, 20 ₽/km after the first km, 5 ₽/min, no free waiting then
// 10 ₽/min, no minimum, to the kopeck (so the formula shows through unrounded).
const RATE = { pickUp: 5000, kmCost: 2000, kmStart: 1, minuteCost: 500, freeWaitTime: 0, waitCost: 1000, minFare: 0, roundTo: 1 };
/** The formula of docs/driver-app.md in kopecks. */
function expectedFare(m: { distance_m: number; trip_seconds: number; waiting_seconds: number }): number {
  const distance = Math.round(Math.max(0, m.distance_m / 1000 - RATE.kmStart) * RATE.kmCost);
  const time = Math.round((m.trip_seconds / 60) * RATE.minuteCost);
  const waiting = Math.round(Math.max(0, m.waiting_seconds / 60 - RATE.freeWaitTime) * RATE.waitCost);
  return RATE.pickUp + distance + time + waiting;
}

// Along a meridian d metres are d / 111 195.08 degrees of latitude (the mean radius 6 371 008.8 m).
const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;
const north = (p: { lat: number; lon: number }, metres: number) => ({ lat: p.lat + metres / METRES_PER_DEGREE, lon: p.lon });

interface MeterView {
  distance_m: number;
  trip_seconds: number;
  waiting_seconds: number;
  fare: number;
  breakdown: { boarding: number; distance: number; time: number; waiting: number; extras: number; minimum_added: number; rounding: number };
}
interface OrderView {
  uuid: string;
  state: string;
  amount: number | null;
  rate_kind: string;
  meter: MeterView | null;
}

async function order(at: { lat: number; lon: number }, more: Record<string, string | number> = {}): Promise<string> {
  phone += 1;
  return postOrderAt(server, at, String(phone), serviceId, more);
}

async function myOrder(app: DriverApp, uuid: string): Promise<OrderView> {
  const orders = (await app.ok("GET", "orders")).orders as OrderView[];
  const found = orders.find((o) => o.uuid === uuid);
  expect(found, "the driver's order").toBeDefined();
  return found!;
}

async function balance(app: DriverApp): Promise<number> {
  return ((await app.ok("GET", "me")).driver as { balance: number }).balance;
}

beforeAll(async () => {
  world = await openDispatchWorld({});
  ({ server, console: console_ } = world);
  const city = world.city!;
  drivers = city.apps;
  serviceId = city.serviceId;
  centre = city.centre;
  // The radio: drivers take the service's free orders themselves.
  await console_.mutate("dispatch.saveSettings", { ...DEFAULT_SETTINGS, serviceId, mode: "RADIO" });
  const rates = await console_.query<Array<Record<string, unknown> & { id: number; serviceId: number; queueId: number | null }>>("referenceAdmin.rates", { serviceId });
  expect(rates.length).toBeGreaterThan(0);
  for (const r of rates) {
    const { id, serviceId: s, queueId, name, isBasic, standCost, freeStandTime, startHour, endHour } = r;
    await console_.mutate("referenceAdmin.saveRate", { id, serviceId: s, queueId, name, isBasic, standCost, freeStandTime, startHour, endHour, ...RATE, kind: "METERED" });
  }
}, 240_000);

afterAll(() => world?.close());

describe("a metered trip", () => {
  const trip: { uuid: string; fare: number; commission: number; balance: number } = { uuid: "", fare: 0, commission: 0, balance: 0 };

  it("runs the meter from the arrival: waiting, then the distance and the minutes of the trip, replayed positions included", async () => {
    const app = drivers[0]!;
    const pickup = north(centre, 300);
    await app.ok("POST", "shift/start", centre);
    await app.ok("POST", "position", { ...north(centre, 250), speed: 20, bearing: 0 });
    trip.uuid = await order(pickup);
    const accepted = (await app.ok("POST", "orders/accept", { uuid: trip.uuid, arrival_minutes: 3 })).order as OrderView;
    expect(accepted).toMatchObject({ rate_kind: "METERED", meter: null });
    trip.balance = await balance(app);

    await app.ok("POST", "orders/status", { uuid: trip.uuid, status: "AWAITING_CLIENT" });
    const waiting = await myOrder(app, trip.uuid);
    expect(waiting.meter).toMatchObject({ distance_m: 0, trip_seconds: 0 });
    await new Promise((r) => setTimeout(r, 2_000)); // the passenger takes a moment to come out
    await app.ok("POST", "orders/status", { uuid: trip.uuid, status: "IN_PROCESS" });

    // The phone lost its connection for the whole trip and replays what it recorded: forty legs of 50 m north 15 s
    // apart (2 000 m in 10 min), with a GPS jump of 5 km (dropped by the meter), a fix in the future and one out of
    // range (dropped at the door), and standing noise of a few metres at the end.
    const now = Date.now();
    const fixes: Array<{ lat: number; lon: number; speed: number; at: string }> = [];
    for (let i = 0; i <= 40; i++) fixes.push({ ...north(pickup, i * 50), speed: 12, at: new Date(now - 610_000 + i * 15_000).toISOString() });
    fixes.splice(20, 0, { ...north(pickup, 5_000), speed: 12, at: new Date(now - 610_000 + 19 * 15_000 + 5_000).toISOString() });
    fixes.push({ ...north(pickup, 2_003), speed: 0, at: new Date(now - 9_000).toISOString() });
    fixes.push({ ...north(pickup, 1_998), speed: 0, at: new Date(now - 8_000).toISOString() });
    fixes.push({ ...north(pickup, 2_100), speed: 0, at: new Date(now + 3_600_000).toISOString() });
    fixes.push({ lat: 95, lon: centre.lon, speed: 0, at: new Date(now - 7_000).toISOString() });
    const replay = await app.ok("POST", "positions", { positions: fixes });
    expect(replay).toMatchObject({ state: "BUSY", accepted: fixes.length - 2, dropped: 2 });
    // Sent again (the reply was lost): the same fixes count once.
    await app.ok("POST", "positions", { positions: fixes });

    const running = (await myOrder(app, trip.uuid)).meter!;
    expect(running.distance_m).toBe(2000);
    expect(running.trip_seconds).toBeGreaterThanOrEqual(600);
    expect(running.waiting_seconds).toBeGreaterThanOrEqual(2);
    expect(Math.round(running.fare * 100)).toBe(expectedFare(running));
  });

  it("completes with the formula's fare for the distance and time driven, its breakdown, and the commission on it", async () => {
    const app = drivers[0]!;
    const done = (await app.ok("POST", "orders/complete", { uuid: trip.uuid })) as {
      order: OrderView;
      fare: number;
      commission: number;
      balance: number;
      breakdown: MeterView["breakdown"];
    };
    const meter = done.order.meter!;
    expect(meter.distance_m).toBe(2000);
    expect(Math.round(done.fare * 100)).toBe(expectedFare(meter));
    expect(done.order.amount).toBe(done.fare);
    expect(done.breakdown).toEqual(meter.breakdown);
    expect(done.breakdown).toMatchObject({ boarding: 50, distance: 20, extras: 0, minimum_added: 0, rounding: 0 });
    expect(Math.round(done.breakdown.time * 100)).toBe(Math.round((meter.trip_seconds / 60) * RATE.minuteCost));
    expect(Math.round(done.breakdown.waiting * 100)).toBe(Math.round((meter.waiting_seconds / 60) * RATE.waitCost));
    expect(done.commission).toBe(Math.round(done.fare * 100 * 0.15) / 100);
    expect(done.balance).toBeCloseTo(trip.balance - done.commission, 2);
    trip.fare = done.fare;
    trip.commission = done.commission;
    trip.balance = done.balance;
    // The passenger's app (the dispatch API) reads the metered amount.
    const read = await dispatchApi(server.url, server.apiKey, "GET", "order", { uuid: trip.uuid });
    expect(Number(read.response.amount)).toBe(done.fare);
    // The passenger's tracking page shows the fare with the meter's breakdown, to the kopeck.
    const link = String(read.response.tracking_url);
    const view = (await (await fetch(`${link}/state`)).json()) as { phase: string; fare: { amount: string; breakdown: Record<string, string> | null } };
    const kopecks = (rub: number) => (Math.round(rub * 100) / 100).toFixed(2);
    expect(view.phase).toBe("done");
    expect(view.fare.amount).toBe(kopecks(done.fare));
    expect(view.fare.breakdown).toEqual({
      boarding: kopecks(done.breakdown.boarding),
      distance: kopecks(done.breakdown.distance),
      time: kopecks(done.breakdown.time),
      waiting: kopecks(done.breakdown.waiting),
      extras: "0.00",
      minimum_added: "0.00",
      rounding: "0.00",
    });
    const page = await fetch(`${link}?lang=en`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // Each non-zero line as its label and amount (the page leaves zero lines out).
    for (const [label, amount] of [
      ["Boarding", done.breakdown.boarding],
      ["Distance", done.breakdown.distance],
      ["Time", done.breakdown.time],
      ["Waiting", done.breakdown.waiting],
    ] as const) {
      if (amount === 0) continue;
      expect(html).toMatch(new RegExp(`<dt>${label}</dt><dd>${kopecks(amount).replace(".", "\\.")} RUB</dd>`));
    }
    expect(html).toContain(`${kopecks(done.fare)} RUB`);
  });

  it("replies the same to a repeated completion and debits nothing more", async () => {
    const app = drivers[0]!;
    const again = (await app.ok("POST", "orders/complete", { uuid: trip.uuid })) as { fare: number; commission: number; balance: number };
    expect(again).toMatchObject({ fare: trip.fare, commission: trip.commission, balance: trip.balance });
    expect(await balance(app)).toBeCloseTo(trip.balance, 2);
    await app.ok("POST", "shift/end");
  });
});

/** Until the clock reaches `t` (ms): the moves below are "replayed" with times already past. */
const until = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

/** Sets up a metered order accepted by `app` at `pickup`; `accepted` is a moment after the acceptance was recorded. */
async function acceptedOrder(app: DriverApp, pickup: { lat: number; lon: number }): Promise<{ uuid: string; accepted: number }> {
  await app.ok("POST", "shift/start", pickup);
  await app.ok("POST", "position", { ...pickup, speed: 0, bearing: 0 });
  const uuid = await order(pickup);
  await app.ok("POST", "orders/accept", { uuid, arrival_minutes: 2 });
  return { uuid, accepted: Date.now() };
}

describe("moves replayed after a connection loss, each with its own time (at)", () => {
  it("meters the waiting and the trip between the moments the driver made the moves, not when they arrived", async () => {
    const app = drivers[4]!;
    const pickup = north(centre, -800);
    const { uuid, accepted } = await acceptedOrder(app, pickup);
    const at = (ms: number) => new Date(accepted + ms).toISOString();
    // The phone was offline from the acceptance on: it arrived 1 s later, the passenger came out 4 s after
    // that, the trip ended 3 s later; all of it reaches the server at once, 10 s after the acceptance.
    await until(accepted + 10_000);
    await app.ok("POST", "orders/status", { uuid, status: "AWAITING_CLIENT", at: at(1_000) });
    await app.ok("POST", "orders/status", { uuid, status: "IN_PROCESS", at: at(5_000) });
    const fixes = [0, 1, 2, 3].map((i) => ({ ...north(pickup, i * 40), speed: 30, at: at(5_000 + i * 1_000) }));
    await app.ok("POST", "positions", { positions: fixes });
    const done = (await app.ok("POST", "orders/complete", { uuid, at: at(8_000) })) as { fare: number; order: OrderView };
    expect(done.order.meter).toMatchObject({ distance_m: 120, waiting_seconds: 4, trip_seconds: 3 });
    expect(Math.round(done.fare * 100)).toBe(expectedFare(done.order.meter!));
    // The history keeps those moments (the dispatch API's order reads the same amount).
    const read = await dispatchApi(server.url, server.apiKey, "GET", "order", { uuid });
    expect(Number(read.response.amount)).toBe(done.fare);
    await app.ok("POST", "shift/end");
  });

  it("refuses a time in the future or older than a replay can be, naming `at`; clamps one before the order's last move to it", async () => {
    const app = drivers[5]!;
    const pickup = north(centre, -1_200);
    const { uuid, accepted } = await acceptedOrder(app, pickup);
    const future = await app.call("POST", "orders/status", { uuid, status: "AWAITING_CLIENT", at: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.status).toBe(400);
    expect(future.body.error).toMatchObject({ code: "BAD_PARAMETER", parameter: "at", expected: "a time not in the future" });
    const stale = await app.call("POST", "orders/status", { uuid, status: "AWAITING_CLIENT", at: new Date(Date.now() - 7 * 3_600_000).toISOString() });
    expect(stale.status).toBe(400);
    expect(stale.body.error).toMatchObject({ code: "BAD_PARAMETER", parameter: "at", expected: "a time within the last 6 hours" });
    const notIso = await app.call("POST", "orders/complete", { uuid, at: "an hour ago" });
    expect(notIso.status).toBe(400);
    expect(notIso.body.error).toMatchObject({ code: "BAD_PARAMETER", parameter: "at" });
    // Nothing moved; an hour ago (before the acceptance: a phone's clock behind) counts from the acceptance.
    expect((await myOrder(app, uuid)).state).toBe("CONFIRMED");
    await until(accepted + 3_000);
    await app.ok("POST", "orders/status", { uuid, status: "AWAITING_CLIENT", at: new Date(Date.now() - 3_600_000).toISOString() });
    await app.ok("POST", "orders/status", { uuid, status: "IN_PROCESS", at: new Date(accepted + 2_000).toISOString() });
    const waited = (await myOrder(app, uuid)).meter!.waiting_seconds;
    expect(waited).toBeGreaterThanOrEqual(1);
    expect(waited).toBeLessThanOrEqual(3);
    await app.ok("POST", "orders/complete", { uuid });
    await app.ok("POST", "shift/end");
  });
});

describe("the waiting at the pickup", () => {
  it("runs on when the passenger is told the car is waiting (AWAITING_CLIENT_NOTIFIED), until the passenger is aboard", async () => {
    const app = drivers[7]!;
    const { uuid } = await acceptedOrder(app, north(centre, -2_000));
    await app.ok("POST", "orders/status", { uuid, status: "AWAITING_CLIENT" });
    const arrived = Date.now();
    // What the SMS's delivery does (server/orders/client-notified.ts), here through the dispatch API's status call.
    const told = await dispatchApi(server.url, server.apiKey, "POST", "order/status", { uuid, code: 11 });
    expect(told.status, JSON.stringify(told.error)).toBe("DONE");
    // The driver's app still shows the meter running.
    expect(await myOrder(app, uuid)).toMatchObject({ state: "AWAITING_CLIENT_NOTIFIED", meter: { distance_m: 0, trip_seconds: 0 } });
    await until(arrived + 3_000);
    await app.ok("POST", "orders/status", { uuid, status: "IN_PROCESS" });
    expect((await myOrder(app, uuid)).meter!.waiting_seconds).toBeGreaterThanOrEqual(3);
    await app.ok("POST", "orders/complete", { uuid });
    await app.ok("POST", "shift/end");
  });
});

describe("a metered trip completed by a dispatcher", () => {
  it("gets the metered fare as its amount, as the driver's own completion would", async () => {
    const app = drivers[6]!;
    const pickup = north(centre, -1_600);
    const { uuid, accepted } = await acceptedOrder(app, pickup);
    const at = (ms: number) => new Date(accepted + ms).toISOString();
    await until(accepted + 8_000);
    await app.ok("POST", "orders/status", { uuid, status: "AWAITING_CLIENT", at: at(1_000) });
    await app.ok("POST", "orders/status", { uuid, status: "IN_PROCESS", at: at(3_000) });
    await app.ok("POST", "positions", { positions: [0, 1, 2, 3].map((i) => ({ ...north(pickup, i * 40), speed: 30, at: at(3_000 + i * 1_000) })) });
    await app.ok("POST", "orders/status", { uuid, status: "AWAITING_PAYMENT", at: at(6_000) });
    const estimate = Number((await dispatchApi(server.url, server.apiKey, "GET", "order", { uuid })).response.amount);
    // The dispatcher completes it on the console's order card.
    const mine = ((await app.ok("GET", "orders")).orders as Array<{ id: number; uuid: string; version: number }>).find((o) => o.uuid === uuid)!;
    await console_.mutate("orders.move", { orderId: mine.id, to: "DONE_SUCCESSFUL", expectedVersion: mine.version, reason: "оплачено, водитель без связи" });
    // Waiting 2 s, the trip 3 s (to the AWAITING_PAYMENT move), 120 m (inside the first paid km).
    const expected = expectedFare({ distance_m: 120, waiting_seconds: 2, trip_seconds: 3 });
    const read = await dispatchApi(server.url, server.apiKey, "GET", "order", { uuid });
    expect(read.response.status).toBe(100);
    expect(Math.round(Number(read.response.amount) * 100)).toBe(expected);
    expect(Math.round(estimate * 100)).not.toBe(expected);
    await app.ok("POST", "shift/end");
  });
});

describe("a guaranteed price", () => {
  it("keeps the estimate's price on a metered service", async () => {
    const app = drivers[1]!;
    const pickup = north(centre, -400);
    const est = await dispatchApi(server.url, server.apiKey, "GET", "order/pre_cost", {
      phone: "+79161234599",
      service_id: serviceId,
      way_points: JSON.stringify([{ latitude: pickup.lat, longitude: pickup.lon }, { latitude: centre.lat + 0.02, longitude: centre.lon }]),
    });
    expect(est.status, JSON.stringify(est.error)).toBe("DONE");
    const price = Number(est.response.amount);
    const created = await dispatchApi(server.url, server.apiKey, "POST", "order", { token: String(est.response.token), moderation_required: "no", need_notify: "no", service_id: serviceId });
    expect(created.status, JSON.stringify(created.error)).toBe("DONE");
    const uuid = String(created.response.uuid);
    await app.ok("POST", "shift/start", pickup);
    await app.ok("POST", "position", { ...pickup, speed: 0, bearing: 0 });
    const accepted = (await app.ok("POST", "orders/accept", { uuid, arrival_minutes: 2 })).order as OrderView;
    expect(accepted).toMatchObject({ rate_kind: "FIXED", amount: price, meter: null });
    await app.ok("POST", "orders/status", { uuid, status: "AWAITING_CLIENT" });
    await app.ok("POST", "orders/status", { uuid, status: "IN_PROCESS" });
    await app.ok("POST", "positions", { positions: [0, 1, 2].map((i) => ({ ...north(pickup, i * 500), at: new Date(Date.now() - (3 - i) * 60_000).toISOString() })) });
    const done = (await app.ok("POST", "orders/complete", { uuid })) as { fare: number; breakdown: unknown; order: OrderView };
    expect(done).toMatchObject({ fare: price, breakdown: null });
    expect(done.order.meter).toBeNull();
    await app.ok("POST", "shift/end");
  });
});

describe("positions", () => {
  it("refuses batches off shift, too large or with a bad time, naming the parameter", async () => {
    const app = drivers[2]!;
    const fix = { ...centre, at: new Date().toISOString() };
    expect((await app.call("POST", "positions", { positions: [fix] })).status).toBe(409);
    await app.ok("POST", "shift/start", centre);
    expect((await app.call("POST", "positions", { positions: Array.from({ length: 501 }, () => fix) })).status).toBe(400);
    expect((await app.call("POST", "positions", { positions: [] })).status).toBe(400);
    const badTime = await app.call("POST", "positions", { positions: [{ ...centre, at: "yesterday" }] });
    expect(badTime.status).toBe(400);
    expect(badTime.body.error).toMatchObject({ code: "BAD_PARAMETER" });
    // A single position with a time in the future is dropped, not stored.
    expect(await app.ok("POST", "position", { ...centre, at: new Date(Date.now() + 3_600_000).toISOString() })).toMatchObject({ accepted: 0, dropped: 1 });
    expect(await app.ok("POST", "position", { ...centre })).toMatchObject({ accepted: 1, dropped: 0 });
    await app.ok("POST", "shift/end");
  });
});

describe("messages between dispatch and drivers", () => {
  it("a dispatcher writes to one driver (pushed on the offer stream), the driver reads and answers, the console sees the answer unread", async () => {
    const app = drivers[3]!;
    const me = (await app.ok("GET", "me")).driver as { id: number };
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/driver-app/v1/offer/stream`, { headers: { authorization: `Bearer ${app.key}` }, signal: controller.signal });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes("event: offer")) seen += decoder.decode((await reader.read()).value);

    expect(await console_.mutate("messages.send", { to: { driverId: me.id }, text: "  Заберите посылку на Ленина, 1  " })).toEqual({ sent: 1 });
    while (!seen.includes("event: message")) seen += decoder.decode((await reader.read()).value);
    controller.abort();
    const pushed = /event: message\ndata: (.*)\n/.exec(seen)![1]!;
    expect(JSON.parse(pushed).message).toMatchObject({ from: "DISPATCHER", text: "Заберите посылку на Ленина, 1", read: false });

    const thread = (await app.ok("GET", "messages")).messages as Array<{ id: number; from: string; text: string; read: boolean }>;
    expect(thread.at(-1)).toMatchObject({ from: "DISPATCHER", text: "Заберите посылку на Ленина, 1", read: false });
    expect(await app.ok("POST", "messages/read", { up_to: thread.at(-1)!.id })).toEqual({ read: 1 });
    expect(((await app.ok("GET", "messages")).messages as Array<{ read: boolean }>).at(-1)!.read).toBe(true);

    const unreadBefore = await console_.query<number>("messages.unread");
    const answer = (await app.ok("POST", "messages", { text: "Понял, еду" })).message as { id: number; from: string };
    expect(answer.from).toBe("DRIVER");
    expect(await console_.query<number>("messages.unread")).toBe(unreadBefore + 1);
    const recent = await console_.query<Array<{ id: number; sender: string; text: string; callSign: string }>>("messages.recent", { driverId: me.id });
    expect(recent[0]).toMatchObject({ id: answer.id, sender: "DRIVER", text: "Понял, еду", callSign: app.callSign });
    expect(await console_.mutate("messages.markRead", { driverId: me.id })).toEqual({ read: 1 });
    expect(await console_.query<number>("messages.unread")).toBe(unreadBefore);

    // Only newer ones with `after`; an empty text is refused.
    expect((await app.ok("GET", "messages", undefined, { after: String(answer.id) })).messages).toEqual([]);
    expect((await app.call("POST", "messages", { text: "   " })).status).toBe(400);
  });

  it("a message written between two streams is pushed on the next one, opened with the last stream's cursor", async () => {
    const app = drivers[3]!;
    const me = (await app.ok("GET", "me")).driver as { id: number };
    /** Opens the stream and reads until `until` has been seen; returns what was read, the stream ended. */
    // Reads the stream until `until` matches; `started` is called once its first turn (the offer event) has come.
    const readStream = async (query: string, until: RegExp, started?: () => void): Promise<string> => {
      const controller = new AbortController();
      const stream = await fetch(`${server.url}/driver-app/v1/offer/stream${query}`, { headers: { authorization: `Bearer ${app.key}` }, signal: controller.signal });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let seen = "";
      while (!until.test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${until}: ${seen}`);
        seen += decoder.decode(value, { stream: true });
        if (/event: offer\n/.test(seen)) started?.();
      }
      controller.abort();
      return seen;
    };
    // The first stream's cursor: the `id:` of its events.
    const first = await readStream("", /event: offer\ndata: .*\n/);
    const cursor = Number(/id: (\d+)\nevent: offer/.exec(first)![1]);
    expect(Number.isInteger(cursor)).toBe(true);
    // Written while no stream is open (a phone between two connections).
    expect(await console_.mutate("messages.send", { to: { driverId: me.id }, text: "Пока вас не было: зайдите в диспетчерскую" })).toEqual({ sent: 1 });
    const next = await readStream(`?after_message=${cursor}`, /event: message\ndata: .*\n/);
    const pushed = /id: (\d+)\nevent: message\ndata: (.*)\n/.exec(next)!;
    expect(JSON.parse(pushed[2]!).message).toMatchObject({ from: "DISPATCHER", text: "Пока вас не было: зайдите в диспетчерскую" });
    expect(Number(pushed[1])).toBeGreaterThan(cursor);
    // A cursor past the newest message (from another phone, or made up) does not mute the next ones.
    // The message is sent once the stream has begun (a fixed pause was too short on a loaded machine).
    let begun!: () => void;
    const begin = new Promise<void>((resolve) => (begun = resolve));
    const ahead = readStream("?after_message=2147483647", /event: message\ndata: .*Новое после курсора.*\n/, begun);
    await begin;
    expect(await console_.mutate("messages.send", { to: { driverId: me.id }, text: "Новое после курсора" })).toEqual({ sent: 1 });
    expect(await ahead).toMatch(/Новое после курсора/);
    // Not a number: refused in the interface's error form.
    const bad = await fetch(`${server.url}/driver-app/v1/offer/stream?after_message=-1`, { headers: { authorization: `Bearer ${app.key}` } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("BAD_PARAMETER");
  });

  it("a message to all drivers of the service reaches each of them", async () => {
    const sent = await console_.mutate<{ sent: number }>("messages.send", { to: { serviceId }, text: "Завтра перекрыт центр" });
    expect(sent.sent).toBeGreaterThanOrEqual(2);
    for (const app of drivers.slice(0, 2)) {
      const thread = (await app.ok("GET", "messages")).messages as Array<{ text: string; from: string }>;
      expect(thread.at(-1)).toMatchObject({ from: "DISPATCHER", text: "Завтра перекрыт центр" });
    }
  });
});
