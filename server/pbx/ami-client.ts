// An AMI client that keeps one session to the PBX: connect, read the banner,
// Action: Login (with an ActionID, as every action), then events. It pings
// (Action: Ping) every pingMs and counts an unanswered ping as a dead
// connection; every loss reconnects with doubling, jittered delays up to
// reconnectMaxMs (the PBX may start after us, or restart). Failures go to the
// logger, which writes each kind once per incident (server/log.ts); a refused
// login is one such kind.
import net from "node:net";
import { randomUUID } from "node:crypto";
import { AmiReader, encodeAction, type AmiMessage, type AmiProblem } from "./ami-reader";

export interface AmiTarget {
  host: string;
  port: number;
  username: string;
  secret: string;
}

export interface AmiLogger {
  info(message: string, extra?: unknown): void;
  warn(message: string, extra?: unknown): void;
}

export interface AmiClientOptions extends AmiTarget {
  pingMs: number;
  reconnectMaxMs: number;
  /** How long an action (Login, Ping, Originate) may wait for its response. */
  actionTimeoutMs?: number;
  onEvent: (event: AmiMessage) => void;
  /** Called with true when logged in, false when the session is lost. */
  onState?: (ready: boolean) => void;
  log: AmiLogger;
}

export type AmiState = "connecting" | "ready" | "down" | "stopped";

const MAX_PENDING_ACTIONS = 100;
const RECONNECT_MIN_MS = 250;

/** ami://USER:SECRET@HOST:PORT (port 5038 by default), user and secret percent-decoded. */
export function parseAmiUrl(url: string): AmiTarget {
  const u = new URL(url);
  if (u.protocol !== "ami:") throw new Error("must be ami://USER:SECRET@HOST:5038");
  if (!u.username || !u.password || !u.hostname) throw new Error("must name a user, a secret and a host: ami://USER:SECRET@HOST:5038");
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port ? Number(u.port) : 5038,
    username: decodeURIComponent(u.username),
    secret: decodeURIComponent(u.password),
  };
}

interface Pending {
  resolve: (message: AmiMessage) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class AmiClient {
  private socket: net.Socket | undefined;
  private stateValue: AmiState = "down";
  private failures = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly actionTimeoutMs: number;

  constructor(private readonly opts: AmiClientOptions) {
    this.actionTimeoutMs = opts.actionTimeoutMs ?? 10_000;
  }

  get state(): AmiState {
    return this.stateValue;
  }

  start(): void {
    if (this.stateValue === "stopped" || this.socket) return;
    this.open();
  }

  stop(): void {
    this.stateValue = "stopped";
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.socket?.destroy();
    this.socket = undefined;
    this.failPending(new Error("AMI client stopped"));
  }

  /** Sends an action and waits for its Response (matched by ActionID). Fails at once when not logged in. */
  action(name: string, fields: ReadonlyArray<readonly [string, string]> = []): Promise<AmiMessage> {
    if (this.stateValue !== "ready") return Promise.reject(new Error("the PBX is not connected"));
    return this.send(name, fields);
  }

  private send(name: string, fields: ReadonlyArray<readonly [string, string]>, timeoutMs = this.actionTimeoutMs): Promise<AmiMessage> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new Error("the PBX is not connected"));
    if (this.pending.size >= MAX_PENDING_ACTIONS) return Promise.reject(new Error("too many AMI actions waiting"));
    const actionId = randomUUID();
    let text: string;
    try {
      text = encodeAction([["Action", name], ["ActionID", actionId], ...fields]);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return new Promise<AmiMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(actionId);
        reject(new Error(`AMI ${name}: no response in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(actionId, { resolve, reject, timer });
      socket.write(text);
    });
  }

  private open(): void {
    this.stateValue = "connecting";
    const socket = net.connect({ host: this.opts.host, port: this.opts.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setTimeout(Math.max(this.actionTimeoutMs, this.opts.pingMs * 2));
    const reader = new AmiReader(
      (message) => this.onMessage(message),
      (problem) => this.onProblem(problem),
      () => void this.login(socket),
    );
    socket.on("data", (chunk: Buffer) => {
      try {
        reader.feed(chunk);
      } catch (error) {
        // The reader does not throw on input; a handler's fault must not take the process down either.
        this.opts.log.warn("pbx: AMI message handling failed", error);
      }
    });
    socket.on("timeout", () => socket.destroy(new Error("AMI connection silent")));
    socket.on("error", (error) => this.opts.log.warn("pbx: AMI connection failed", error));
    socket.on("close", () => this.lost(socket));
  }

  private async login(socket: net.Socket): Promise<void> {
    try {
      const reply = await this.send("Login", [["Username", this.opts.username], ["Secret", this.opts.secret], ["Events", "on"]]);
      if (socket !== this.socket) return;
      if (reply.response?.toLowerCase() !== "success") {
        // Logged once per incident; retried with backoff, the PBX's administrator may fix the account.
        this.opts.log.warn("pbx: AMI login refused", new Error(`AMI login refused: ${reply.message ?? "no message"}`));
        socket.destroy();
        return;
      }
      if (this.failures > 0) this.opts.log.info("pbx: AMI connected again", { afterFailures: this.failures });
      else this.opts.log.info("pbx: AMI connected", { host: this.opts.host, port: this.opts.port });
      this.failures = 0;
      this.stateValue = "ready";
      this.opts.onState?.(true);
      this.pingTimer = setInterval(() => this.ping(socket), this.opts.pingMs);
      this.pingTimer.unref();
    } catch (error) {
      this.opts.log.warn("pbx: AMI login failed", error);
      socket.destroy();
    }
  }

  private ping(socket: net.Socket): void {
    // A ping unanswered by the next one means a dead session (a PBX that hangs keeps the TCP connection open).
    this.send("Ping", [], Math.min(this.actionTimeoutMs, Math.max(this.opts.pingMs, 1000))).catch((error: unknown) => {
      if (socket !== this.socket) return;
      this.opts.log.warn("pbx: AMI ping unanswered", error);
      socket.destroy();
    });
  }

  private onMessage(message: AmiMessage): void {
    const actionId = message.actionid;
    if (message.response !== undefined && actionId !== undefined) {
      const waiting = this.pending.get(actionId);
      if (waiting) {
        this.pending.delete(actionId);
        clearTimeout(waiting.timer);
        waiting.resolve(message);
      }
      return;
    }
    if (message.event !== undefined) this.opts.onEvent(message);
  }

  private onProblem(problem: AmiProblem): void {
    this.opts.log.warn("pbx: AMI input dropped", new Error(`AMI input dropped: ${problem}`));
  }

  private lost(socket: net.Socket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    clearInterval(this.pingTimer);
    this.failPending(new Error("the PBX connection was lost"));
    const wasReady = this.stateValue === "ready";
    if (this.stateValue === "stopped") return;
    this.stateValue = "down";
    if (wasReady) this.opts.onState?.(false);
    this.failures += 1;
    const base = Math.min(this.opts.reconnectMaxMs, RECONNECT_MIN_MS * 2 ** Math.min(this.failures - 1, 16));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.reconnectTimer = setTimeout(() => this.open(), delay);
    this.reconnectTimer.unref();
  }

  private failPending(error: Error): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(error);
      this.pending.delete(id);
    }
  }
}
