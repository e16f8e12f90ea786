// A small exchange written only from the reference (../shared/spec/
// exchange-api.md), for our participant to trade with: POST /session gives
// a token and `slaves` (its second address, as host:port); every order call;
// POST /driver/update. Its notifications carry `data` only — no delivery id,
// which the reference never names. It listens on two ports: the main one
// (EXCHANGE_URL) can be made to fail (503, or refuse connections) while the
// slave answers; it can forget every token (a restart) and change an order
// without telling anyone (a notification lost).
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RefCall {
  port: "main" | "slave";
  path: string;
  data: Record<string, unknown>;
  token: string | undefined;
  status: number;
}

export interface RefExchangeOrder {
  id: number;
  seller: "us" | "other";
  sourceId: string;
  attributes: Record<string, unknown>;
  status: number;
  executor?: Record<string, unknown>;
  arrival?: number;
}

export class ReferenceExchange {
  readonly calls: RefCall[] = [];
  readonly orders = new Map<number, RefExchangeOrder>();
  /** our participant's endpoints, e.g. http://127.0.0.1:4000/participant */
  participantUrl = "";
  mainMode: "up" | "failing" | "down" = "up";
  logins = 0;
  private tokens = new Set<string>();
  private seq = 9000;
  private main: http.Server;
  private slave: http.Server;
  private sockets = new Set<Socket>();
  mainPort = 0;
  slavePort = 0;

  constructor(readonly key: string) {
    this.main = this.create("main");
    this.slave = this.create("slave");
  }

  private create(port: "main" | "slave"): http.Server {
    const server = http.createServer((req, res) => {
      let text = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (text += c));
      req.on("end", () => this.handle(port, req, res, text));
    });
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      if (port === "main" && this.mainMode === "down") socket.destroy();
    });
    return server;
  }

  async start(): Promise<this> {
    for (const [server, set] of [
      [this.main, (p: number) => (this.mainPort = p)],
      [this.slave, (p: number) => (this.slavePort = p)],
    ] as const) {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      set((server.address() as AddressInfo).port);
    }
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.mainPort}/exchange`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all([this.main, this.slave].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  /** A restart that forgets every session. */
  forgetSessions(): void {
    this.tokens.clear();
  }

  private handle(port: "main" | "slave", req: http.IncomingMessage, res: http.ServerResponse, text: string): void {
    const send = (status: number, body: unknown = {}) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      return send(400);
    }
    const path = (req.url ?? "/").split("?")[0]!.replace(/^\/exchange\//, "");
    const data = (body.data ?? {}) as Record<string, unknown>;
    const token = ((body.meta ?? {}) as { token?: string }).token;
    const record = (status: number) => this.calls.push({ port, path, data, token, status });
    // A connection kept alive from before: cut as a new one would be.
    if (port === "main" && this.mainMode === "down") {
      req.socket.destroy();
      return;
    }
    if (port === "main" && this.mainMode === "failing") {
      record(503);
      return send(503);
    }
    if (path === "session") {
      if (data.key !== this.key) {
        record(401);
        return send(401);
      }
      const fresh = `ref-token-${++this.logins}`;
      this.tokens.add(fresh);
      record(200);
      return send(200, { data: { token: fresh, slaves: `127.0.0.1:${this.slavePort}`, trusted: "" } });
    }
    if (!token || !this.tokens.has(token)) {
      record(401);
      return send(401);
    }
    const order = this.orders.get(Number(data.id));
    const gone = () => {
      record(410);
      send(410);
    };
    const done = (reply: unknown) => {
      record(200);
      send(200, reply);
    };
    switch (path) {
      case "order": {
        const id = ++this.seq;
        const sourceId = String(data.id);
        this.orders.set(id, { id, seller: "us", sourceId, attributes: (data.attributes ?? {}) as Record<string, unknown>, status: 9 });
        done({ data: { id: String(id), orderId: sourceId } });
        void this.notify("order/registered", { id: String(id), orderId: Number(sourceId) }).then(() => this.notify("order/accepted", { orderId: Number(sourceId) }));
        return;
      }
      case "order/get": {
        const resource = (o: RefExchangeOrder) => ({
          type: "order",
          id: String(o.id),
          attributes: { ...o.attributes, status: o.status, ...(o.executor ? { executor: o.executor, time: { arrival: o.arrival } } : {}) },
        });
        if (Array.isArray(data.orders)) return done({ data: data.orders.map((i) => this.orders.get(Number(i))).filter((o) => o !== undefined).map(resource) });
        return order ? done({ data: resource(order) }) : gone();
      }
      case "order/take": {
        if (!order || order.status !== 9 || order.executor) return gone();
        const attributes = (data.attributes ?? {}) as { time?: { arrival?: number }; executor?: Record<string, unknown> };
        order.executor = attributes.executor ?? {};
        order.arrival = attributes.time?.arrival;
        order.status = 1;
        return done({ data: { id: order.id } });
      }
      case "order/update": {
        if (!order) return gone();
        const attributes = (data.attributes ?? {}) as Record<string, unknown>;
        if (typeof attributes.status === "number") order.status = attributes.status;
        return done({ order: { type: "order", id: String(order.id), attributes: { ...order.attributes, status: order.status } } });
      }
      case "order/cancel":
        if (!order) return gone();
        order.status = typeof data.status === "number" ? data.status : 95;
        return done({ data: { id: order.id } });
      case "order/complete":
        if (!order) return gone();
        order.status = 100;
        return done({ data: { id: String(order.id) } });
      case "order/rejectdriver":
        if (!order) return gone();
        delete order.executor;
        order.status = 9;
        return done({ data: { id: order.id } });
      case "order/revoke":
        if (!order) return gone();
        order.status = 91;
        return done({ data: { id: order.id } });
      case "driver/update":
        return done({});
      default:
        record(404);
        return send(404);
    }
  }

  /** Another participant's order, offered to ours (`received`, with the client as the attributes carry it). */
  offer(attributes: Record<string, unknown>): RefExchangeOrder {
    const id = ++this.seq;
    const order: RefExchangeOrder = { id, seller: "other", sourceId: `other-${id}`, attributes, status: 9 };
    this.orders.set(id, order);
    return order;
  }

  /** A notification as the reference shapes it: POST <server>/on/<event> with `data` and nothing else. */
  async notify(event: string, data: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${this.participantUrl}/on/${event}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ data }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  /** Successful calls to a path (below /exchange), optionally about one order. */
  ok(path: string, id?: number | string): RefCall[] {
    return this.calls.filter((c) => c.path === path && c.status === 200 && (id === undefined || String(c.data.id) === String(id)));
  }
}
