// A participant's server inside a test: a node:http server on loopback that
// records every request it gets (the exchange's notifications and checks)
// and answers 200 {meta}, or forwards to a real app instance (a recording
// proxy). It can be taken down (the port refuses connections) and brought
// back on the same port.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Received {
  method: string;
  path: string;
  deliveryId: string | undefined;
  body: Record<string, unknown>;
  /** data of the body, for convenience */
  data: Record<string, unknown>;
  status: number;
  at: number;
}

export interface ReceiverOptions {
  /** Forward everything to this base URL (e.g. http://127.0.0.1:4000/participant). */
  forwardTo?: string;
  /** Answer with this status (default 200) — for a path, or for all. */
  status?: (path: string) => number;
  /** Replies of GET /services and POST /drivers (the exchange's server check). */
  services?: unknown[];
  drivers?: unknown[];
}

export class Receiver {
  readonly received: Received[] = [];
  private server: http.Server;
  private sockets = new Set<Socket>();
  port = 0;
  options: ReceiverOptions;

  constructor(options: ReceiverOptions = {}) {
    this.options = options;
    this.server = this.create();
  }

  private create(): http.Server {
    const server = http.createServer((req, res) => {
      let text = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (text += c));
      req.on("end", () => void this.handle(req, res, text));
    });
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    return server;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, text: string): Promise<void> {
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = {};
    }
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const deliveryId = typeof req.headers["x-delivery-id"] === "string" ? req.headers["x-delivery-id"] : undefined;
    let status = this.options.status?.(path) ?? 200;
    let reply = JSON.stringify({ meta: { vendor: "test-receiver", status } });
    if (this.options.forwardTo && status === 200) {
      try {
        const upstream = await fetch(this.options.forwardTo.replace(/\/+$/, "") + (req.url ?? "/"), {
          method: req.method,
          headers: {
            ...(text ? { "content-type": "application/json" } : {}),
            ...(deliveryId ? { "x-delivery-id": deliveryId } : {}),
          },
          body: req.method === "GET" || req.method === "HEAD" ? undefined : text,
        });
        status = upstream.status;
        reply = await upstream.text();
      } catch (error) {
        status = 502;
        reply = JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
      }
    } else if (status === 200 && req.method === "GET" && path.endsWith("/services")) {
      reply = JSON.stringify({ meta: { vendor: "test-receiver", status }, data: { services: this.options.services ?? [] } });
    } else if (status === 200 && path.endsWith("/drivers")) {
      reply = JSON.stringify({ meta: { vendor: "test-receiver", status }, data: { drivers: this.options.drivers ?? [] } });
    }
    const data = body.data && typeof body.data === "object" && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : {};
    this.received.push({ method: req.method ?? "", path, deliveryId, body, data, status, at: Date.now() });
    res.writeHead(status, { "content-type": "application/json" });
    res.end(reply);
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops listening: the exchange's deliveries fail until up(). */
  async down(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
  }

  async up(): Promise<void> {
    this.server = this.create();
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    if (this.server.listening) await this.down();
  }

  /** Notifications (POST /on/...) received, optionally about one exchange order. */
  events(orderId?: string | number): Received[] {
    return this.received.filter(
      (r) => r.method === "POST" && r.path.includes("/on/") && r.status === 200 && (orderId === undefined || String(r.data.id ?? "") === String(orderId) || String(r.data.orderId ?? "") === String(orderId)),
    );
  }

  /** The topics (e.g. "order/received") of the successful notifications, in arrival order. */
  topics(orderId?: string | number): string[] {
    return this.events(orderId).map((r) => r.path.slice(r.path.indexOf("/on/") + 4));
  }
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  return new Receiver(options).start();
}
