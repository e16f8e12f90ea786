// A stand-in exchange for testing our participant side: answers POST
// /exchange/session with a fresh token, records every call with the token it
// carried, refuses calls with a revoked or unknown token (401), and answers
// the rest 200 {data: {id}} unless a test says otherwise.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Call {
  path: string;
  body: Record<string, unknown>;
  data: Record<string, unknown>;
  token: string | undefined;
  headerToken: string | undefined;
  status: number;
  at: number;
}

export class FakeExchange {
  readonly calls: Call[] = [];
  logins = 0;
  private valid = new Set<string>();
  private server = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => this.handle(req, res, text));
  });
  port = 0;
  /** Answer of a call (path below /exchange, data); undefined: the default. */
  override?: (path: string, data: Record<string, unknown>) => { status: number; body: unknown } | undefined;

  private handle(req: http.IncomingMessage, res: http.ServerResponse, text: string): void {
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = {};
    }
    const path = (req.url ?? "/").replace(/^\/exchange\/?/, "").split("?")[0] ?? "";
    const data = (body.data ?? {}) as Record<string, unknown>;
    const meta = (body.meta ?? {}) as { token?: string };
    const auth = req.headers.authorization;
    const headerToken = auth?.startsWith("Bearer ") ? auth.slice(7) : undefined;
    const token = meta.token || headerToken;
    let status = 200;
    let reply: unknown;
    if (path === "session") {
      this.logins++;
      const fresh = `tok-${this.logins}`;
      this.valid.add(fresh);
      reply = { data: { token: fresh, slaves: "", trusted: "127.0.0.1" } };
    } else if (!token || !this.valid.has(token)) {
      status = 401;
      reply = { errors: [{ status: 401, code: "Unauthorized", title: "Unauthorized access", detail: "unknown token" }] };
    } else {
      const custom = this.override?.(path, data);
      if (custom) {
        status = custom.status;
        reply = custom.body;
      } else {
        reply = { data: { id: typeof data.id === "string" && /^\d+$/.test(data.id) ? Number(data.id) : (data.id ?? 1) } };
      }
    }
    this.calls.push({ path, body, data, token, headerToken, status, at: Date.now() });
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(reply));
  }

  revokeTokens(): void {
    this.valid.clear();
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/exchange`;
  }

  /** Successful calls to a path, optionally about one order id. */
  ok(path: string, id?: string | number): Call[] {
    return this.calls.filter((c) => c.path === path && c.status === 200 && (id === undefined || String(c.data.id) === String(id)));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
