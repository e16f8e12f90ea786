// A participant of the exchange written only from the reference
// (../shared/spec/exchange-api.md), as another company would write it: it
// reuses nothing of our participant code and none of our exchange's types.
// It is a server (GET /, GET /driver, POST /drivers, GET /services,
// POST /on/...) and a client of the exchange (POST /session, then every
// call, the token where the test says). Every notification is checked
// against the shape the reference gives it, and applied to a small model
// of the orders twice: the second application must change nothing (the
// reference says nothing of duplicates, so a notification must be safe to
// apply again).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

/** The reference's Driver resource. */
export interface RefDriver {
  id: string;
  callSign: string;
  name: string;
  phone: string;
  registrationNumber: string;
  brand: string;
  model: string;
  modelCode: string;
  color: string;
  colorCode: string;
  carage: string;
  connectBy: string;
  carClass: number;
  options: number[];
}

/** The reference's Service resource (server side list). */
export interface RefService {
  id: number;
  name: string;
  description: string;
}

const id = z.union([z.string(), z.number()]);
const object = z.record(z.string(), z.unknown());
const client = z.object({ phone: z.string().optional(), name: z.string().optional() }).optional();
const orderAttributes = z.looseObject({ client, status: z.number().int().optional(), carClass: z.number().int().optional(), fare: z.number().optional() });

/** The body of each notification as the reference's Events table shapes it. */
export const EVENT_SHAPES = {
  "order/registered": z.object({ id, orderId: z.number().int() }),
  "order/refused": z.looseObject({ orderId: z.number().int() }),
  "order/received": z.object({ id, type: z.literal("order"), attributes: orderAttributes }),
  "order/accepted": z.looseObject({ orderId: z.number().int() }),
  "order/taken": z.object({ id, orderId: id, attributes: z.object({ time: z.object({ arrival: z.number().int() }), executor: object }) }),
  "order/updated": z.object({ id, attributes: orderAttributes.extend({ status: z.number().int() }) }),
  "order/completed": z.object({ id, attributes: object }),
  "order/cancelled": z.object({ id, status: z.string(), reason: z.string() }),
  "order/rejectdriver": z.object({ id, reason: z.string().optional() }),
  "order/restore": z.looseObject({ id, attributes: z.object({ client: z.object({ phone: z.string(), name: z.string() }) }) }),
  "order/revoked": z.looseObject({ id: z.number().int() }),
  "driver/update": z.looseObject({ id, attributes: object }),
} as const;
export type RefEvent = keyof typeof EVENT_SHAPES;

/** What this participant knows of an order, from the notifications alone. */
export interface RefOrder {
  status?: number;
  offered?: boolean;
  client?: { phone?: string; name?: string };
  executor?: Record<string, unknown>;
  arrival?: number;
  completion?: Record<string, unknown>;
  cancelled?: { status: string; reason: string };
  rejected?: string;
  revoked?: boolean;
  registered?: string;
  refused?: boolean;
  accepted?: boolean;
}

export interface RefNotification {
  event: RefEvent;
  data: Record<string, unknown>;
  /** a problem with the body: its shape, or applying it twice changed the model */
  problem?: string;
}

function apply(model: Map<string, RefOrder>, byOwnId: Map<number, string>, event: RefEvent, data: Record<string, unknown>): void {
  const key = (value: unknown) => String(value);
  const at = (k: string): RefOrder => {
    const found = model.get(k) ?? {};
    model.set(k, found);
    return found;
  };
  switch (event) {
    case "order/registered":
      byOwnId.set(Number(data.orderId), key(data.id));
      at(`own:${key(data.orderId)}`).registered = key(data.id);
      return;
    case "order/refused":
      at(`own:${key(data.orderId)}`).refused = true;
      return;
    case "order/accepted":
      at(`own:${key(data.orderId)}`).accepted = true;
      return;
    case "order/received": {
      const o = at(key(data.id));
      const attributes = data.attributes as { status?: number; client?: RefOrder["client"] };
      o.offered = true;
      o.status = attributes.status ?? 9;
      if (attributes.client) o.client = attributes.client;
      return;
    }
    case "order/taken": {
      const o = at(key(data.id));
      const attributes = data.attributes as { time: { arrival: number }; executor: Record<string, unknown> };
      o.executor = attributes.executor;
      o.arrival = attributes.time.arrival;
      o.status = 1;
      return;
    }
    case "order/updated": {
      const o = at(key(data.id));
      const attributes = data.attributes as { status: number; client?: RefOrder["client"] };
      o.status = attributes.status;
      if (attributes.client) o.client = attributes.client;
      return;
    }
    case "order/completed": {
      const o = at(key(data.id));
      o.completion = data.attributes as Record<string, unknown>;
      o.status = 100;
      return;
    }
    case "order/cancelled": {
      const o = at(key(data.id));
      o.cancelled = { status: String(data.status), reason: String(data.reason) };
      o.status = Number(data.status);
      return;
    }
    case "order/rejectdriver": {
      const o = at(key(data.id));
      o.rejected = typeof data.reason === "string" ? data.reason : "";
      delete o.executor;
      o.status = 9;
      return;
    }
    case "order/restore":
      at(key(data.id)).client = (data.attributes as { client: RefOrder["client"] }).client;
      return;
    case "order/revoked":
      at(key(data.id)).revoked = true;
      return;
    case "driver/update":
      at(`driver:${key(data.id)}`).executor = data.attributes as Record<string, unknown>;
      return;
  }
}

export interface RefReply {
  status: number;
  body: Record<string, unknown>;
}

export type TokenPlace = "meta" | "query" | "bearer";

export class ReferenceParticipant {
  readonly notifications: RefNotification[] = [];
  readonly orders = new Map<string, RefOrder>();
  /** our own order id (data.id of POST /order) -> the exchange's id */
  readonly registered = new Map<number, string>();
  /** "METHOD /path" of every call the exchange made to this server */
  readonly served: string[] = [];
  token = "";
  private server = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => this.serve(req, res, text));
  });
  private port = 0;

  constructor(
    readonly name: string,
    readonly options: { exchange: string; key: string; services: RefService[]; drivers: RefDriver[] },
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private reply(res: http.ServerResponse, status: number, body: Record<string, unknown> = {}): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ meta: { vendor: `ref-${this.name}`, status }, ...body }));
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse, text: string): void {
    const url = new URL(req.url ?? "/", "http://participant");
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      return this.reply(res, 400);
    }
    const path = url.pathname;
    this.served.push(`${req.method ?? ""} ${path}`);
    if (req.method === "GET" && path === "/") return this.reply(res, 200);
    if (req.method === "GET" && path === "/services") return this.reply(res, 200, { data: { services: this.options.services } });
    if (req.method === "GET" && path === "/driver") {
      const callsign = url.searchParams.get("callsign");
      const driver = this.options.drivers.find((d) => d.callSign === callsign);
      return driver ? this.reply(res, 200, { data: { drivers: driver } }) : this.reply(res, 410);
    }
    if (req.method === "POST" && path === "/drivers") {
      const q = { ...Object.fromEntries(url.searchParams), ...body } as { limit?: unknown; skip?: unknown; all?: unknown };
      const skip = Number(q.skip ?? 0);
      const list = q.all === true || q.all === "true" ? this.options.drivers.slice(skip) : this.options.drivers.slice(skip, skip + Number(q.limit ?? 100));
      return this.reply(res, 200, { data: { drivers: list } });
    }
    if (req.method === "POST" && path.startsWith("/on/")) {
      const event = path.slice(4);
      if (!(event in EVENT_SHAPES)) return this.reply(res, 404);
      const data = (body.data ?? {}) as Record<string, unknown>;
      const shape = EVENT_SHAPES[event as RefEvent].safeParse(data);
      let problem = shape.success ? undefined : `not the reference's shape: ${shape.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`;
      if (shape.success) {
        apply(this.orders, this.registered, event as RefEvent, data);
        const once = JSON.stringify([...this.orders]);
        apply(this.orders, this.registered, event as RefEvent, data);
        if (JSON.stringify([...this.orders]) !== once) problem = "applying it again changed the order";
      }
      this.notifications.push({ event: event as RefEvent, data, ...(problem ? { problem } : {}) });
      return this.reply(res, 200);
    }
    return this.reply(res, 404);
  }

  /** Notifications about one exchange order (or one of our own ids), in arrival order. */
  events(exchangeId: string): RefEvent[] {
    return this.notifications.filter((n) => String(n.data.id ?? "") === exchangeId).map((n) => n.event);
  }

  problems(): RefNotification[] {
    return this.notifications.filter((n) => n.problem !== undefined);
  }

  /** A call to the exchange, with the token where asked (meta.token as the reference says by default). */
  async call(method: "GET" | "POST", path: string, data?: unknown, place: TokenPlace = "meta"): Promise<RefReply> {
    const url = new URL(`${this.options.exchange}/${path}`);
    const headers: Record<string, string> = {};
    let body: Record<string, unknown> | undefined = data === undefined ? undefined : { data };
    if (place === "query") url.searchParams.set("token", this.token);
    if (place === "bearer") headers.authorization = `Bearer ${this.token}`;
    if (place === "meta") body = { ...(body ?? {}), meta: { token: this.token } };
    return send(method, url, body, headers);
  }

  /** POST /session: data.key; the reply's data.token. */
  async login(): Promise<{ token: string; slaves: string; trusted: string }> {
    const r = await send("POST", new URL(`${this.options.exchange}/session`), { data: { key: this.options.key } }, {});
    const parsed = z.object({ data: z.object({ token: z.string(), slaves: z.string(), trusted: z.string() }) }).parse(r.body);
    this.token = parsed.data.token;
    return parsed.data;
  }
}

/** One HTTP request with a JSON body (node:http: a GET may carry a body too). */
function send(method: string, url: URL, body: Record<string, unknown> | undefined, headers: Record<string, string>): Promise<RefReply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent: false,
        headers: { ...headers, ...(payload !== undefined ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) } : {}) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          let parsed: unknown = {};
          try {
            parsed = text ? JSON.parse(text) : {};
          } catch {
            parsed = { unparsed: text };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as Record<string, unknown> });
        });
      },
    );
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
