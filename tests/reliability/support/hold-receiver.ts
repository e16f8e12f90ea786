// An HTTP receiver that records every request with its delivery id and can
// hold its replies until a number of requests are in flight at once (or a
// deadline passes): with it a test sees how many deliveries were under way
// together, and so whether more than one worker was delivering.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Hit {
  path: string;
  deliveryId: string | undefined;
  at: number;
}

export class HoldReceiver {
  readonly hits: Hit[] = [];
  maxInFlight = 0;
  private inFlight = 0;
  private waiting: Array<() => void> = [];
  private holdUntil = 0;
  private holdDeadline = 0;
  private server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => void this.handle(req, res));
  });
  port = 0;

  /** From now on, replies wait until `count` requests are in flight together, or `ms` pass. */
  hold(count: number, ms: number): void {
    this.holdUntil = count;
    this.holdDeadline = Date.now() + ms;
    // A bound, not a wait: replies are held at most this long if fewer deliveries come at once.
    setTimeout(() => this.release(), ms);
  }

  release(): void {
    this.holdUntil = 0;
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const deliveryId = typeof req.headers["x-delivery-id"] === "string" ? req.headers["x-delivery-id"] : undefined;
    this.hits.push({ path: req.url ?? "/", deliveryId, at: Date.now() });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    if (this.holdUntil > 0 && Date.now() < this.holdDeadline) {
      if (this.inFlight >= this.holdUntil) this.release();
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.inFlight--;
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    this.release();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
