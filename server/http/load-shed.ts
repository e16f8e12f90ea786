// Load shedding (docs/operations.md, "Faults"). At three times what it could
// serve, an instance used to queue every request (medians of 6–11 s, clients
// timing out after the work was done anyway) and refused nothing. Now the
// work in progress is bounded: at most MAX_REQUESTS_IN_FLIGHT requests are
// served at once, at most MAX_REQUESTS_QUEUED wait for a place, each for at
// most MAX_QUEUE_WAIT_MS; the rest are refused at once, in their protocol's
// own error form, with Retry-After:
//   dispatch API   HTTP 200, {"status":"ERROR","error":{"code":"RATE_LIMITED",...}}
//                  (its clients treat any non-2xx as a transport failure)
//   exchange API, participant endpoints, driver app
//                  HTTP 429 RATE_LIMITED (TooManyRequests)
//   console tRPC   HTTP 429, tRPC's TOO_MANY_REQUESTS
//   pages          HTTP 503, a short page
// A refused request did nothing: the client may retry it as it is.
//
// A place is held until the reply starts (its head is written), so that a
// live stream (server-sent events) does not hold one for its life. The
// health check, the metrics and Next's static files are never limited.
// (A small queue of our own: the limiter must know the protocol of each
// request to refuse it in its form, which the generic limiters do not.)
import type { IncomingMessage, ServerResponse } from "node:http";
import { config } from "../config";
import { failure } from "../dispatch-api/reply";
import { driverAppError } from "../driver-app/api/reply";
import { exchangeError, participantError } from "../exchange-api/reply";
import type { ApiResponse } from "./types";
import { underPrefix } from "./request-target";

export interface LimiterSettings {
  maxInFlight: number;
  maxQueued: number;
  maxWaitMs: number;
}

type Release = () => void;

/** Bounded work in progress with a bounded, time-limited queue. */
export class WorkLimiter {
  private active = 0;
  private readonly waiting: Array<{ grant: (release: Release | undefined) => void; timer: NodeJS.Timeout }> = [];

  constructor(private readonly settings: LimiterSettings) {}

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** A release when the request may go on (at once or after a wait), undefined when refused. */
  acquire(): Release | undefined | Promise<Release | undefined> {
    if (this.settings.maxInFlight <= 0) return () => undefined;
    if (this.active < this.settings.maxInFlight) return this.grant();
    if (this.waiting.length >= this.settings.maxQueued || this.settings.maxWaitMs <= 0) return undefined;
    return new Promise((resolve) => {
      const entry = {
        grant: resolve,
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(entry);
          if (at !== -1) this.waiting.splice(at, 1);
          resolve(undefined);
        }, this.settings.maxWaitMs),
      };
      this.waiting.push(entry);
    });
  }

  private grant(): Release {
    this.active += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant(this.grant());
      }
    };
  }
}

/** Paths never limited: cheap, and needed most when the instance is busy. */
function exempt(path: string): boolean {
  return path === "/healthz" || path === "/metrics" || path.startsWith("/_next/static/") || path === "/favicon.ico" || path === "/favicon.svg";
}

const RETRY_AFTER_SECONDS = 1;

function send(res: ServerResponse, reply: ApiResponse): void {
  res.writeHead(reply.status, { ...reply.headers, "retry-after": String(RETRY_AFTER_SECONDS), "cache-control": "no-store" });
  res.end(reply.body);
}

function trpcBusy(path: string, search: string): ApiResponse {
  const error = { error: { json: { message: "The server is busy; try again in a moment", code: -32029, data: { code: "TOO_MANY_REQUESTS", httpStatus: 429 } } } };
  const batched = new URLSearchParams(search).get("batch") === "1";
  const calls = path.slice("/api/trpc/".length).split(",").length;
  return { status: 429, headers: { "content-type": "application/json" }, body: JSON.stringify(batched ? Array.from({ length: calls }, () => error) : error) };
}

/** The refusal of a request to `path`, in its protocol's form. */
export function busyReply(path: string, search = ""): ApiResponse {
  if (path.startsWith("/api/trpc/")) return trpcBusy(path, search);
  if (underPrefix(path, "/api") && !path.startsWith("/api/auth/")) return failure("RATE_LIMITED", {}, config().LANGUAGE);
  if (underPrefix(path, "/exchange")) return exchangeError("RATE_LIMITED");
  if (underPrefix(path, "/participant")) return participantError("RATE_LIMITED");
  if (underPrefix(path, "/driver-app")) return driverAppError("RATE_LIMITED");
  const ru = config().LANGUAGE === "ru";
  return {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8", "x-content-type-options": "nosniff" },
    body: ru
      ? "<!doctype html><meta charset=utf-8><title>Сервер занят</title><p>Сервер сейчас перегружен. Обновите страницу через несколько секунд."
      : "<!doctype html><meta charset=utf-8><title>Server busy</title><p>The server is overloaded right now. Reload the page in a few seconds.",
  };
}

const limiterKey = Symbol.for("taxi.workLimiter");

/** The process's limiter (MAX_REQUESTS_IN_FLIGHT, MAX_REQUESTS_QUEUED, MAX_QUEUE_WAIT_MS). */
export function workLimiter(): WorkLimiter {
  const holder = globalThis as { [limiterKey]?: WorkLimiter };
  const cfg = config();
  holder[limiterKey] ??= new WorkLimiter({ maxInFlight: cfg.MAX_REQUESTS_IN_FLIGHT, maxQueued: cfg.MAX_REQUESTS_QUEUED, maxWaitMs: cfg.MAX_QUEUE_WAIT_MS });
  return holder[limiterKey];
}

// Each admitted request's release, for a handler that waits without working
// (the driver app's long poll): it gives its place back while it waits.
const admissions = new WeakMap<IncomingMessage, Release>();

/**
 * Gives the request's place back before the reply (idempotent). For a wait
 * that does no work: a fleet of phones each holding a place for a 15-second
 * long poll would otherwise starve every other request of the instance.
 */
export function yieldAdmission(req: IncomingMessage): void {
  admissions.get(req)?.();
  admissions.delete(req);
}

/** Holds the place until the reply's head is written or the exchange ends. */
function releaseOnReply(res: ServerResponse, release: Release): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    release();
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
  res.once("close", release);
}

/**
 * Runs `handler` for the request when a place is free (now or within the
 * wait), else refuses it at once in its protocol's form.
 */
export function shedLoad(path: string, search: string, req: IncomingMessage, res: ServerResponse, handler: () => unknown): unknown {
  if (exempt(path)) return handler();
  const granted = workLimiter().acquire();
  const go = (release: Release | undefined) => {
    if (!release) {
      req.resume();
      return send(res, busyReply(path, search));
    }
    if (res.writableEnded || res.destroyed) return release(); // the client left while it waited
    releaseOnReply(res, release);
    admissions.set(req, release);
    return handler();
  };
  return granted instanceof Promise ? granted.then(go) : go(granted);
}
