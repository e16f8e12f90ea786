// GET /healthz: the load balancer's health check (docs/operations.md). 200
// when this instance serves and its database answers, 503 otherwise. No
// credentials, and nothing in the reply but the verdict.
//
// The check never waits behind user traffic (docs/operations.md, "Faults"):
// it answers from a probe that runs beside the requests, once a second, on
// a connection of its own (PostgreSQL; PGlite is one session, whose queue
// the load shedding keeps short), and from what the instance knows:
//   - "draining": SIGTERM received, the instance finishes its requests;
//   - "database unavailable": the probe has not succeeded for PROBE_STALE_MS;
//   - "database pool stuck": requests wait for a pooled connection and none
//     has been handed out (server/db/pool.ts; the watchdog is on it);
//   - "writes failing: disk full": a write failed for want of disk space
//     within the last 30 s (server/db/failures.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import pg from "pg";
import { connection, SESSION_OPTIONS } from "../db";
import { diskFullRecently } from "../db/failures";
import { sqlQuery } from "../db/sql";
import { db } from "../db";

const TIMEOUT_MS = 2_000;
const PROBE_EVERY_MS = 1_000;
const PROBE_STALE_MS = 5_000;

const stateKey = Symbol.for("taxi.health");
interface HealthState {
  draining: boolean;
  probing: boolean;
  lastOkAt: number;
}
function state(): HealthState {
  const holder = globalThis as { [stateKey]?: HealthState };
  holder[stateKey] ??= { draining: false, probing: false, lastOkAt: 0 };
  return holder[stateKey];
}

/** From SIGTERM on, /healthz answers 503 "draining". */
export function setDraining(): void {
  state().draining = true;
}

export function isDraining(): boolean {
  return state().draining;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), ms)))]).finally(() => clearTimeout(timer));
}

/** A PostgreSQL connection of the probe's own, opened again after any failure. */
function ownConnection(url: string): { check: () => Promise<void>; close: () => Promise<void> } {
  let client: pg.Client | undefined;
  const drop = () => {
    const c = client;
    client = undefined;
    c?.end().catch(() => undefined);
  };
  return {
    check: async () => {
      try {
        if (!client) {
          const c = new pg.Client({ connectionString: url, application_name: "taxi-health", options: SESSION_OPTIONS, connectionTimeoutMillis: TIMEOUT_MS });
          c.on("error", () => {
            if (client === c) drop();
          });
          await c.connect();
          client = c;
        }
        await withTimeout(client.query("SELECT 1"), TIMEOUT_MS);
      } catch (error) {
        drop();
        throw error;
      }
    },
    close: async () => drop(),
  };
}

/** Starts the probe; returns its stop. */
export function startHealthProbe(): () => Promise<void> {
  const conn = connection();
  const own = conn.url ? ownConnection(conn.url) : undefined;
  const s = state();
  s.probing = true;
  let busy = false;
  const probe = async () => {
    if (busy) return;
    busy = true;
    try {
      if (own) await own.check();
      else await withTimeout(conn.query("SELECT 1"), TIMEOUT_MS);
      s.lastOkAt = Date.now();
    } catch {
      // stale: the verdict says so after PROBE_STALE_MS
    } finally {
      busy = false;
    }
  };
  void probe();
  const timer = setInterval(() => void probe(), PROBE_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    s.probing = false;
    await own?.close();
  };
}

async function databaseAnswers(): Promise<boolean> {
  const s = state();
  if (s.probing) return Date.now() - s.lastOkAt < PROBE_STALE_MS;
  // No probe running (a process that serves without server/main.ts): ask now.
  try {
    await withTimeout(sqlQuery(db(), "SELECT 1"), TIMEOUT_MS);
    return true;
  } catch {
    return false;
  }
}

/** The verdict: undefined when healthy, else what is wrong. */
export async function healthProblem(): Promise<string | undefined> {
  if (isDraining()) return "draining";
  if (!(await databaseAnswers())) return "database unavailable";
  if (connection().poolHealth?.().stalled) return "database pool stuck";
  if (diskFullRecently()) return "writes failing: disk full";
  return undefined;
}

export async function handleHealth(req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { "content-type": "application/json; charset=utf-8", allow: "GET, HEAD" });
    res.end(JSON.stringify({ status: "method not allowed" }));
    return;
  }
  const problem = await healthProblem();
  res.writeHead(problem ? 503 : 200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : JSON.stringify({ status: problem ?? "ok" }));
}
