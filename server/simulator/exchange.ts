// The second participant of the exchange, simulated: another taxi firm's
// server trading on our exchange (/exchange) through the exchange API only.
// It sells orders of its own passengers (in the simulated city) and takes
// orders others sell (ours, when our dispatch trades there), then drives the
// orders it took through their statuses and completes them. Its server
// (a small HTTP listener) receives the exchange's notifications
// (`POST <url>/on/<event>`, applied once per delivery id) and answers the
// exchange's checks (`GET /`, `GET /services`, `POST /drivers`).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Rng } from "../seed/demo/random";
import { CallError, ExchangeClient, type TransportOptions } from "./http";
import { haversineMetres } from "./geo";
import type { Engine } from "./engine";
import { trimEndChar } from "../text/trim";

export interface ParticipantOptions {
  /** The exchange, e.g. http://127.0.0.1:3000/exchange */
  exchangeUrl: string;
  /** The participant's client key there. */
  clientKey: string;
  /** Orders it sells per simulated minute. */
  sellPerMinute: number;
  /** Share of the offers it takes. */
  takeShare?: number;
  /** Simulated minutes an order of its own waits for a taker before it is revoked. */
  patienceMinutes?: number;
  /** Simulated minutes of a ride it drives (default 6 to 25). */
  rideMinutes?: [number, number];
  transport?: TransportOptions;
  rng: Rng;
}

const VENDOR = "taxi-dispatch-simulator";

const DRIVERS = [
  { callSign: "Ю-1", name: "Рустам Алиевич Гасанов", phone: "79040000101", registrationNumber: "К101ЮГ77", brand: "Hyundai", model: "Solaris", color: "белый", carage: "2021", carClass: 1, options: [4, 5] },
  { callSign: "Ю-2", name: "Олег Петрович Зуев", phone: "79040000102", registrationNumber: "К102ЮГ77", brand: "Kia", model: "Rio", color: "серый", carage: "2020", carClass: 1, options: [5] },
  { callSign: "Ю-3", name: "Марина Игоревна Лаптева", phone: "79040000103", registrationNumber: "К103ЮГ77", brand: "Skoda", model: "Rapid", color: "синий", carage: "2022", carClass: 1, options: [1, 5, 6] },
];

interface Sold {
  localId: string;
  exchangeId: string | null;
  revokeAt: number;
  phase: "OFFERED" | "TAKEN" | "DONE";
  /** What it registers (again after an unknown outcome: the same id is safe to repeat). */
  attributes: Record<string, unknown>;
  attempts: number;
}

interface Bought {
  exchangeId: string;
  steps: Array<{ at: number; status: number | "complete" }>;
  fare: number;
  km: number;
  done: boolean;
}

export interface ParticipantCounts {
  sold: number;
  soldTaken: number;
  soldCompleted: number;
  soldEnded: number;
  refused: number;
  offers: number;
  taken: number;
  completed: number;
  lostRaces: number;
  failedCalls: number;
}

export class SimParticipant {
  private readonly client: ExchangeClient;
  private token: string | undefined;
  private server: Server | undefined;
  private engine: Engine | undefined;
  /** Orders owed to the exchange; starts at one, so the demo shows a sale in its first minute, not after 1/sellPerMinute minutes. */
  private credit = 1;
  private serial = 0;
  private readonly sold = new Map<string, Sold>();
  private readonly offers = new Map<string, { decideAt: number; from: { lat: number; lon: number } | null }>();
  private readonly bought = new Map<string, Bought>();
  private readonly deliveries = new Set<string>();
  readonly counts: ParticipantCounts = { sold: 0, soldTaken: 0, soldCompleted: 0, soldEnded: 0, refused: 0, offers: 0, taken: 0, completed: 0, lostRaces: 0, failedCalls: 0 };

  constructor(private readonly options: ParticipantOptions) {
    this.client = new ExchangeClient(options.exchangeUrl, options.transport);
  }

  /** Starts the participant's server; returns its base URL (register it as the participant's server). */
  async listen(host = "127.0.0.1", port = 0): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    this.server = server;
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Orders of its own not ended, and orders it took not completed: the drain waits for them. */
  open(): number {
    return [...this.sold.values()].filter((s) => s.phase !== "DONE").length + [...this.bought.values()].filter((b) => !b.done).length;
  }

  report(): string {
    const c = this.counts;
    return `| exchange participant: sold ${c.sold} (taken ${c.soldTaken}, completed ${c.soldCompleted}, ended otherwise ${c.soldEnded}, refused ${c.refused}), offers ${c.offers}, took ${c.taken}, completed ${c.completed}`;
  }

  // ------------------------------------------------------------ calls

  private async call(path: string, data: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (!this.token) await this.login();
    try {
      return await this.client.post(path, data, this.token);
    } catch (error) {
      if (!(error instanceof CallError) || error.httpStatus !== 401) throw error;
      await this.login();
      return this.client.post(path, data, this.token);
    }
  }

  private async login(): Promise<void> {
    const reply = await this.client.post("session", { key: this.options.clientKey });
    this.token = String((reply.data as { token: string }).token);
  }

  private failed(error: unknown): void {
    this.counts.failedCalls += 1;
    this.engine?.failure(error);
  }

  // ------------------------------------------------------------ the tick

  async tick(engine: Engine): Promise<void> {
    this.engine = engine;
    const now = engine.now;
    const work: Array<Promise<void>> = [];
    if (engine.creating) {
      this.credit += (this.options.sellPerMinute * engine.tickSeconds) / 60;
      while (this.credit >= 1) {
        this.credit -= 1;
        work.push(this.sell(engine));
      }
    }
    for (const order of this.sold.values()) {
      if (order.phase === "OFFERED" && order.exchangeId && now >= order.revokeAt) work.push(this.revoke(order));
      else if (order.phase === "OFFERED" && !order.exchangeId && order.attempts > 0) work.push(this.register(order));
    }
    for (const [id, offer] of this.offers) {
      if (now < offer.decideAt) continue;
      this.offers.delete(id);
      if (engine.creating && this.options.rng.chance(this.options.takeShare ?? 0.5)) work.push(this.take(id, offer.from, now));
    }
    for (const order of this.bought.values()) {
      const step = order.steps[0];
      if (!order.done && step && now >= step.at) work.push(this.advance(order));
    }
    await Promise.all(work);
  }

  private async sell(engine: Engine): Promise<void> {
    const rng = this.options.rng;
    const from = engine.city.any(rng);
    const to = engine.city.around(rng, from, rng.range(1500, 8000));
    const km = (haversineMetres(from, to) * 1.3) / 1000;
    const localId = `sim-${++this.serial}`;
    const order: Sold = {
      localId,
      exchangeId: null,
      revokeAt: engine.now + (this.options.patienceMinutes ?? 15) * 60,
      phase: "OFFERED",
      attempts: 0,
      attributes: {
        client: { phone: `7904${String(rng.int(0, 9_999_999)).padStart(7, "0")}`, name: "Пассажир Такси Юг" },
        from: { street: from.street, house: from.house, latitude: from.lat, longitude: from.lon },
        to: { street: to.street, house: to.house, latitude: to.lat, longitude: to.lon },
        carClass: 1,
        fare: Math.round(150 + 30 * km),
        note: "заказ симулятора",
      },
    };
    this.sold.set(localId, order);
    await this.register(order);
  }

  private async register(order: Sold): Promise<void> {
    order.attempts += 1;
    try {
      const reply = await this.call("order", { id: order.localId, attributes: order.attributes });
      order.exchangeId = String((reply.data as { id: string }).id);
      this.counts.sold += 1;
    } catch (error) {
      this.failed(error);
      // Not registered, or not known: the same id again is safe (the exchange answers the same order).
      if (!(error instanceof CallError && error.uncertain) || order.attempts >= 3) order.phase = "DONE";
    }
  }

  private async revoke(order: Sold): Promise<void> {
    order.revokeAt = Number.POSITIVE_INFINITY;
    try {
      await this.call("order/revoke", { id: order.exchangeId });
      if (order.phase !== "DONE") {
        order.phase = "DONE";
        this.counts.soldEnded += 1;
      }
    } catch (error) {
      // Taken or ended meanwhile: its notification tells the rest.
      if (error instanceof CallError && (error.code === "Gone" || error.code === "BadRequest")) return;
      order.revokeAt = (this.engine?.now ?? 0) + 60;
      this.failed(error);
    }
  }

  private async take(exchangeId: string, from: { lat: number; lon: number } | null, now: number): Promise<void> {
    const rng = this.options.rng;
    const arrival = rng.int(3, 12);
    const driver = rng.pick(DRIVERS);
    try {
      await this.call("order/take", {
        id: exchangeId,
        orderId: `sim-x-${++this.serial}`,
        attributes: {
          time: { arrival },
          executor: {
            callSign: driver.callSign,
            phone: driver.phone,
            registrationNumber: driver.registrationNumber,
            brand: driver.brand,
            model: driver.model,
            color: driver.color,
            autoAge: driver.carage,
            serviceName: "Эконом",
            ...(from ? { latitude: String(from.lat + 0.01), longitude: String(from.lon) } : {}),
          },
        },
      });
    } catch (error) {
      if (error instanceof CallError && (error.code === "Gone" || error.code === "Forbidden")) {
        this.counts.lostRaces += 1;
        return;
      }
      this.failed(error);
      return;
    }
    this.counts.taken += 1;
    const pickup = now + arrival * 60;
    const [shortest, longest] = this.options.rideMinutes ?? [6, 25];
    const ride = rng.range(shortest, longest) * 60;
    this.bought.set(exchangeId, {
      exchangeId,
      fare: 0,
      km: Math.round((ride / 3600) * 30 * 10) / 10,
      done: false,
      steps: [
        { at: now + rng.range(10, 40), status: 2 },
        { at: pickup, status: 3 },
        { at: pickup + rng.range(30, 180), status: 4 },
        { at: pickup + 180 + ride, status: "complete" },
      ],
    });
  }

  private async advance(order: Bought): Promise<void> {
    const step = order.steps[0]!;
    try {
      if (step.status === "complete") {
        await this.call("order/complete", { id: order.exchangeId, attributes: { distance: String(order.km), time: { completed: new Date().toISOString() } } });
        this.counts.completed += 1;
        order.done = true;
      } else {
        await this.call("order/update", { id: order.exchangeId, attributes: { status: step.status } });
      }
      order.steps.shift();
    } catch (error) {
      // The seller cancelled or revoked it meanwhile.
      if (error instanceof CallError && (error.code === "Gone" || error.code === "BadRequest" || error.code === "Forbidden")) {
        order.done = true;
        return;
      }
      this.failed(error);
    }
  }

  // ------------------------------------------------------------ the participant's server

  private reply(res: ServerResponse, status: number, body: Record<string, unknown> = {}): void {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ meta: { vendor: VENDOR, status }, ...body }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = trimEndChar(new URL(req.url ?? "/", "http://localhost").pathname, "/") || "/";
    let body: Record<string, unknown> = {};
    try {
      const text = Buffer.concat(chunks).toString("utf8");
      if (text) body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.reply(res, 400);
    }
    if (path === "/") return this.reply(res, 200);
    if (path === "/services") return this.reply(res, 200, { data: { services: [{ id: 1, name: "Эконом", description: "", carClass: 1 }] } });
    if (path === "/drivers") return this.reply(res, 200, { data: { drivers: DRIVERS.map((d, i) => ({ id: String(i + 1), connectBy: "api", ...d })) } });
    if (path === "/driver") return this.reply(res, 200, { data: { driver: { id: "1", connectBy: "api", ...DRIVERS[0]! } } });
    // Topics are "order/received", "order/taken" ... and "driver/update".
    const event = /^\/on\/(?:order\/)?(.+)$/.exec(path)?.[1];
    if (!event || req.method !== "POST") return this.reply(res, 404);
    const meta = (body.meta ?? {}) as { deliveryId?: string };
    const deliveryId = String(req.headers["x-delivery-id"] ?? meta.deliveryId ?? "");
    if (deliveryId && this.deliveries.has(deliveryId)) return this.reply(res, 200);
    if (deliveryId) this.deliveries.add(deliveryId);
    this.notified(event, (body.data ?? {}) as Record<string, unknown>);
    return this.reply(res, 200);
  }

  private soldBy(data: Record<string, unknown>): Sold | undefined {
    const local = typeof data.orderId === "string" ? this.sold.get(data.orderId) : undefined;
    if (local) return local;
    const id = data.id === undefined ? undefined : String(data.id);
    return [...this.sold.values()].find((s) => s.exchangeId !== null && s.exchangeId === id);
  }

  /** A notification of the exchange, applied once. */
  private notified(event: string, data: Record<string, unknown>): void {
    const now = this.engine?.now ?? 0;
    const id = data.id === undefined ? "" : String(data.id);
    const mine = this.soldBy(data);
    switch (event) {
      case "received": {
        if (mine) return;
        const from = ((data.attributes ?? {}) as { from?: { latitude?: number; longitude?: number } }).from;
        this.counts.offers += 1;
        this.offers.set(id, {
          decideAt: now + this.options.rng.range(10, 90),
          from: from && typeof from.latitude === "number" && typeof from.longitude === "number" ? { lat: from.latitude, lon: from.longitude } : null,
        });
        return;
      }
      case "registered":
      case "accepted":
        if (mine && id) mine.exchangeId = id;
        return;
      case "refused":
        if (mine && mine.phase !== "DONE") {
          mine.phase = "DONE";
          this.counts.refused += 1;
        }
        return;
      case "taken":
        if (mine && mine.phase !== "TAKEN") {
          mine.phase = "TAKEN";
          this.counts.soldTaken += 1;
        }
        return;
      case "rejectdriver":
        if (mine) {
          mine.phase = "OFFERED";
          mine.revokeAt = now + (this.options.patienceMinutes ?? 15) * 60;
        }
        if (this.bought.has(id)) this.bought.get(id)!.done = true;
        return;
      case "completed":
        if (mine && mine.phase !== "DONE") {
          mine.phase = "DONE";
          this.counts.soldCompleted += 1;
        }
        return;
      case "cancelled":
      case "revoked":
        this.offers.delete(id);
        if (this.bought.has(id)) this.bought.get(id)!.done = true;
        if (mine && mine.phase !== "DONE") {
          mine.phase = "DONE";
          this.counts.soldEnded += 1;
        }
        return;
      default:
        return;
    }
  }
}
