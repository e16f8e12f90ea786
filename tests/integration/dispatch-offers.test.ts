// Automatic dispatch over the product's own interfaces, against a server of
// its own (its settings would change the other suites' city): the console
// sets the distribution, the dispatch API makes orders, drivers play the
// driver app. Offers to the nearest driver, acceptance, refusal and timeout
// to the next candidate, escalation to the radio, the pushed event stream,
// the parking-queue rule, a chained order (BOUND), advance orders with their
// confirmation, and the dispatcher's override (pause, candidates, send, take
// back), each attempt recorded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedServer } from "../support/server";
import { Console, DEFAULT_SETTINGS, DriverApp, dispatchApi, localText, offset, openDispatchWorld, placeOrderAt, waitFor, type DispatchWorld } from "../support/dispatch-world";

let world: DispatchWorld | undefined;
let server: StartedServer;
let console_: Console;
let drivers: DriverApp[];
let serviceId: number;
let centre: { lat: number; lon: number };
let timeZone = "UTC";
let phone = 9165550300;

async function settings(more: Partial<Record<keyof typeof DEFAULT_SETTINGS, unknown>> = {}) {
  await console_.mutate("dispatch.saveSettings", { ...DEFAULT_SETTINGS, serviceId, ...more });
}

async function order(at: { lat: number; lon: number }, more: Record<string, string | number> = {}): Promise<{ uuid: string; id: number }> {
  phone += 1;
  return placeOrderAt(server, console_, at, String(phone), serviceId, more);
}

async function code(uuid: string): Promise<number> {
  return Number((await dispatchApi(server.url, server.apiKey, "GET", "order/status", { uuid })).response.code);
}

async function attempts(orderId: number) {
  return (await console_.query<{ attempts: Array<{ callSign: string; state: string; reason: string; source: string; kind: string }>; control: { paused: boolean } }>("dispatch.order", { orderId }));
}

async function onShift(app: DriverApp, at: { lat: number; lon: number }) {
  await app.ok("POST", "shift/start", { lat: at.lat, lon: at.lon });
  await app.at(at.lat, at.lon);
}

async function offShift(...apps: DriverApp[]) {
  for (const app of apps) await app.ok("POST", "shift/end");
}

beforeAll(async () => {
  world = await openDispatchWorld({ DISPATCH_TICK_MS: "200", DISPATCH_SCARCE_RADIUS_KM: "0" });
  ({ server, console: console_ } = world);
  const city = world.city!;
  drivers = city.apps;
  serviceId = city.serviceId;
  centre = city.centre;
  timeZone = city.timeZone;
  expect(drivers.length).toBeGreaterThanOrEqual(4);
  await settings();
}, 300_000);

// What the dispatcher logged (a failed round shows there).
afterAll(() => world?.close({ printDispatchLog: true }));

describe("automatic offers", () => {
  it("offers the order to the nearest free driver; accepting confirms it; the attempt is recorded", async () => {
    const [a, b] = drivers as [DriverApp, DriverApp];
    await onShift(a, offset(centre, 100));
    await onShift(b, offset(centre, 1200));
    const o = await order(centre);
    const offer = await a.offerOf(o.uuid);
    expect(offer.kind).toBe("LIVE");
    expect(offer.seconds_left).toBeGreaterThan(0);
    expect(await code(o.uuid)).toBe(1); // SENT_TO_DRIVER
    expect(await b.offer(0)).toBeNull();
    const accepted = (await a.ok("POST", "offer/accept", { uuid: o.uuid })).order as { state: string; arrival_at: string | null };
    expect(accepted.state).toBe("CONFIRMED");
    expect(accepted.arrival_at).not.toBeNull();
    const card = await attempts(o.id);
    expect(card.attempts).toEqual([expect.objectContaining({ callSign: a.callSign, state: "ACCEPTED", kind: "LIVE", source: "AUTO" })]);
    await a.finish(o.uuid);
    await offShift(a, b);
  });

  it("a refusal goes to the next candidate, a timeout too; after the attempts the order goes on the radio and a driver takes it there", async () => {
    const [a, b] = drivers as [DriverApp, DriverApp];
    await onShift(a, offset(centre, 50));
    await onShift(b, offset(centre, 800));
    const o = await order(centre);
    await a.offerOf(o.uuid);
    const refused = (await a.ok("POST", "offer/refuse", { uuid: o.uuid, reason: "колесо спустило" })).order as { state: string };
    expect(refused.state).toBe("FREE");
    await b.offerOf(o.uuid);
    // B does not answer: the deadline passes, two attempts made, the radio.
    await waitFor("the radio", async () => (await code(o.uuid)) === 12, 20);
    const card = await attempts(o.id);
    expect(card.attempts.map((t) => [t.callSign, t.state])).toEqual([
      [a.callSign, "REFUSED"],
      [b.callSign, "TIMED_OUT"],
    ]);
    expect(card.attempts[0]!.reason).toContain("колесо спустило");
    // Not offered to A again, but on the radio A may take it.
    const free = (await a.ok("GET", "offers", undefined, { radius_km: "5" })).offers as Array<{ uuid: string; state: string }>;
    expect(free.find((f) => f.uuid === o.uuid)?.state).toBe("ORDER_ON_RADIO");
    const taken = (await a.ok("POST", "orders/accept", { uuid: o.uuid })).order as { state: string };
    expect(taken.state).toBe("CONFIRMED");
    await a.finish(o.uuid);
    await offShift(a, b);
  });

  it("an order under automatic offers cannot be grabbed from the list of free orders", async () => {
    const [a, b] = drivers as [DriverApp, DriverApp];
    await onShift(a, offset(centre, 50));
    const o = await order(centre);
    await a.offerOf(o.uuid);
    await onShift(b, offset(centre, 60));
    const grab = await b.call("POST", "orders/accept", { uuid: o.uuid });
    expect(grab.status).toBe(409);
    expect((await b.ok("GET", "offers", undefined, { radius_km: "5" })).offers).toEqual([]);
    await a.ok("POST", "offer/accept", { uuid: o.uuid });
    await a.finish(o.uuid);
    await offShift(a, b);
  });

  it("pushes the offer on the event stream as it is made", async () => {
    const [, , c] = drivers as [DriverApp, DriverApp, DriverApp];
    await onShift(c, offset(centre, -300));
    const refused = await fetch(`${server.url}/driver-app/v1/offer/stream`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toMatch(/UNAUTHORIZED|MISSING_API_KEY/);
    const stream = await fetch(`${server.url}/driver-app/v1/offer/stream`, { headers: { authorization: `Bearer ${c.key}` } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil('"offer":null'); // nothing offered yet
    const o = await order(offset(centre, -300));
    await readUntil(o.uuid);
    expect(text).toMatch(/event: offer\ndata: \{"offer":\{"offer_id":\d+,"kind":"LIVE"/);
    await reader.cancel();
    await c.ok("POST", "offer/accept", { uuid: o.uuid, arrival_minutes: 3 });
    await c.finish(o.uuid);
    await offShift(c);
  });
});

describe("parking queues", () => {
  it("the head of the pickup region's queue gets the order though another car is nearer", async () => {
    const [a, b, c] = drivers as [DriverApp, DriverApp, DriverApp];
    const spot = offset(centre, 200, 200);
    await onShift(b, offset(spot, 150));
    const place = await b.at(offset(spot, 150).lat, offset(spot, 150).lon);
    expect(place.region_id).not.toBeNull();
    await settings({ mode: "QUEUE", regionId: place.region_id });
    const joinedB = (await b.ok("POST", "queue/join")).queue as { position: number; region_id: number };
    expect(joinedB).toMatchObject({ position: 1, region_id: place.region_id });
    await onShift(c, offset(spot, 10));
    const joinedC = (await c.ok("POST", "queue/join")).queue as { position: number };
    expect(joinedC.position).toBe(2);
    await onShift(a, offset(spot, 5)); // nearest, not in the queue
    const queues = await console_.query<Array<{ regionId: number; drivers: Array<{ callSign: string; position: number }> }>>("dispatch.queues", {});
    expect(queues.find((q) => q.regionId === place.region_id)?.drivers.map((d) => d.callSign)).toEqual([b.callSign, c.callSign]);
    const o = await order(spot);
    const offer = await b.offerOf(o.uuid);
    expect(offer.kind).toBe("LIVE");
    expect((await attempts(o.id)).attempts[0]).toMatchObject({ callSign: b.callSign, source: "QUEUE" });
    await b.ok("POST", "offer/accept", { uuid: o.uuid });
    // Taking the order leaves the queue: C is the head now.
    expect(((await c.ok("GET", "queue")).queue as { position: number }).position).toBe(1);
    expect((await b.ok("GET", "queue")).queue).toBeNull();
    await b.finish(o.uuid);
    // Driving out of the region leaves its queue.
    await c.at(centre.lat + 0.5, centre.lon + 0.5);
    expect((await c.ok("GET", "queue")).queue).toBeNull();
    const rows = await console_.query<Array<{ id: number; regionId: number | null }>>("dispatch.settings");
    await console_.mutate("dispatch.deleteSettings", { id: rows.find((r) => r.regionId === place.region_id)!.id });
    await offShift(a, b, c);
  });
});

describe("chains", () => {
  it("a driver finishing a trip near the pickup is offered the next order, which is bound to them", async () => {
    const [a] = drivers as [DriverApp];
    await settings({ chainMinutes: 60, radiusKm: 1 });
    const start = offset(centre, -1500);
    const end = offset(centre, 1500);
    await onShift(a, start);
    const first = await order(start, { dst_street: "ул. Ленина", dst_house: "3", dst_lat: end.lat, dst_lon: end.lon });
    await a.offerOf(first.uuid);
    await a.ok("POST", "offer/accept", { uuid: first.uuid });
    await a.status(first.uuid, "AWAITING_CLIENT");
    await a.status(first.uuid, "IN_PROCESS");
    const next = await order(offset(end, 100));
    const offer = await a.offerOf(next.uuid);
    expect(offer.kind).toBe("CHAIN");
    expect(await code(next.uuid)).toBe(9); // still FREE while offered as a chain
    const bound = (await a.ok("POST", "offer/accept", { uuid: next.uuid })).order as { state: string };
    expect(bound.state).toBe("BOUND");
    await a.ok("POST", "orders/complete", { uuid: first.uuid });
    await a.finish(next.uuid);
    await settings();
    await offShift(a);
  });
});

describe("advance orders", () => {
  it("are attached ahead of their time, the driver is asked to confirm, confirms and drives", async () => {
    const [a] = drivers as [DriverApp];
    await onShift(a, offset(centre, 100));
    const o = await order(centre, { pre_order_time: localText(new Date(Date.now() + 30 * 60_000), timeZone) });
    const offer = await a.offerOf(o.uuid);
    expect(offer.kind).toBe("ADVANCE");
    expect(((await a.ok("POST", "offer/accept", { uuid: o.uuid })).order as { state: string }).state).toBe("PREORDER_ATTACHED");
    // The confirmation time comes (the lead set longer than the time left).
    await settings({ confirmLeadMinutes: 40, advanceLeadMinutes: 90 });
    await waitFor("confirmation requested", async () => (await code(o.uuid)) === 53);
    await a.status(o.uuid, "PREORDER_CONFIRM_SUCCESSFUL");
    expect(await code(o.uuid)).toBe(54);
    await a.finish(o.uuid);
    await settings();
    await offShift(a);
  });

  it("a refused confirmation frees the advance order for another driver", async () => {
    const [a, b] = drivers as [DriverApp, DriverApp];
    await onShift(a, offset(centre, 100));
    const o = await order(centre, { pre_order_time: localText(new Date(Date.now() + 30 * 60_000), timeZone) });
    await a.offerOf(o.uuid);
    await a.ok("POST", "offer/accept", { uuid: o.uuid });
    await settings({ confirmLeadMinutes: 40, advanceLeadMinutes: 90, attempts: 5 });
    await waitFor("confirmation requested", async () => (await code(o.uuid)) === 53);
    const back = (await a.ok("POST", "offer/refuse", { uuid: o.uuid, reason: "не успею" })).order as { state: string };
    expect(back.state).toBe("PREORDER_FREE");
    await onShift(b, offset(centre, 900));
    // Within the confirmation lead now, nobody attached: dispatched live, and not to A again.
    await b.offerOf(o.uuid);
    await b.ok("POST", "offer/accept", { uuid: o.uuid });
    expect((await attempts(o.id)).attempts.map((t) => [t.callSign, t.state])).toEqual([
      [a.callSign, "ACCEPTED"],
      [a.callSign, "REFUSED"],
      [b.callSign, "ACCEPTED"],
    ]);
    await b.finish(o.uuid);
    await settings();
    await offShift(a, b);
  });
});

describe("the dispatcher stays in charge", () => {
  it("pauses an order, lists the candidates with their arrival times, sends it to a chosen driver, takes it back", async () => {
    const [a, b] = drivers as [DriverApp, DriverApp];
    await settings({ mode: "MANUAL" });
    const o = await order(centre);
    await console_.mutate("dispatch.pause", { orderId: o.id, paused: true });
    await settings();
    await onShift(a, offset(centre, 100));
    await onShift(b, offset(centre, 2000));
    const candidates = await console_.query<Array<{ callSign: string; arrivalSeconds: number; eligible: boolean }>>("dispatch.candidates", { orderId: o.id });
    const ca = candidates.find((c) => c.callSign === a.callSign)!;
    const cb = candidates.find((c) => c.callSign === b.callSign)!;
    expect(ca.eligible && cb.eligible).toBe(true);
    expect(ca.arrivalSeconds).toBeLessThan(cb.arrivalSeconds);
    const trouble = await console_.query<Array<{ id: number; paused: boolean }>>("dispatch.trouble");
    expect(trouble.find((t) => t.id === o.id)?.paused).toBe(true);
    // Paused: the dispatcher's choice (the farther car) is what reaches a driver, nothing automatic.
    const driverB = (await console_.query<Array<{ driverId: number; callSign: string }>>("dispatch.candidates", { orderId: o.id })).find((c) => c.callSign === b.callSign)!;
    await console_.mutate("dispatch.send", { orderId: o.id, driverId: driverB.driverId });
    const offer = await b.offerOf(o.uuid);
    expect(offer.kind).toBe("LIVE");
    expect(await a.offer(0)).toBeNull();
    const card = await attempts(o.id);
    expect(card.attempts).toEqual([expect.objectContaining({ callSign: b.callSign, source: "DISPATCHER", state: "LIVE" })]);
    await console_.mutate("dispatch.takeBack", { orderId: o.id, reason: "клиент просит другую машину" });
    expect(await code(o.uuid)).toBe(9);
    expect(await b.offer(0)).toBeNull();
    expect((await attempts(o.id)).attempts[0]).toMatchObject({ state: "WITHDRAWN" });
    // Resumed: automatic dispatch offers it to the nearest (A).
    await console_.mutate("dispatch.pause", { orderId: o.id, paused: false });
    await a.offerOf(o.uuid);
    await a.ok("POST", "offer/accept", { uuid: o.uuid });
    await a.finish(o.uuid);
    await offShift(a, b);
  });

  it("refuses bad settings and a dispatcher's send to a busy driver, changing nothing", async () => {
    const bad = await console_.mutateError("dispatch.saveSettings", { ...DEFAULT_SETTINGS, serviceId, confirmLeadMinutes: 90, advanceLeadMinutes: 60 });
    expect(bad?.data.httpStatus).toBe(400);
    const [a] = drivers as [DriverApp];
    await onShift(a, offset(centre, 100));
    const o1 = await order(centre);
    await a.offerOf(o1.uuid);
    await settings({ mode: "MANUAL" });
    const o2 = await order(centre);
    const me = (await a.ok("GET", "me")).driver as { id: number };
    const busy = await console_.mutateError("dispatch.send", { orderId: o2.id, driverId: me.id });
    expect(busy?.data.httpStatus).toBe(409);
    expect((await attempts(o2.id)).attempts).toEqual([]);
    await a.ok("POST", "offer/accept", { uuid: o1.uuid });
    await a.finish(o1.uuid);
    await dispatchApi(server.url, server.apiKey, "POST", "cancel_order", { uuid: o2.uuid, reason: "test" });
    await settings();
    await offShift(a);
  });
});
