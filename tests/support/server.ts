// The one launcher of the real application for every suite (vitest,
// Playwright's global setup, the benchmark): the custom server (production
// build) in its own process, on a free port, HTTP or HTTPS with the
// participants' panel listener. Ready when the server says it is running
// (its start-up banner on stdout) and answers /api/version; stopped with a
// signal, SIGKILL after a deadline.
//
// - launchApp: a process that is not started yet; start, kill and start it
//   again on the same port and database (reliability suites crash it).
// - startServer: a started server on its own new database: the embedded
//   PGlite in a temporary directory, or a throwaway database of the
//   PostgreSQL at 127.0.0.1:5432 (TEST_DB=postgres).
// - startTlsServer (./tls-server.ts) and appInstance (tests/reliability/support/instance.ts)
//   are this launcher with their suites' defaults.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";

export type TestDb = "pglite" | "postgres";

/** The servers' APP_SECRET unless the environment or the caller gives one (tests derive keys from it). */
export const DEFAULT_APP_SECRET = "test-secret-test-secret-test-secret-0123";

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const root = path.resolve(import.meta.dirname, "..", "..");

/**
 * The custom server's production build (scripts/build-server.mjs), what
 * `npm start` runs: one bundled file on plain Node starts in about half the
 * time of compiling server/*.ts through tsx at every start (7–12 s against
 * 17–18 s each on a busy 2-core machine; the suites start 30–40 servers a
 * lane). Rebuilt when older than its sources, so a changed server file is
 * what the suites run; the global setups build it once before the test
 * files' workers start (`npm test` builds it beside Next's build).
 */
const SERVER_ENTRY = path.join(root, "build", "server", "main.mjs");
let serverBuild: Promise<void> | undefined;

interface BuildState {
  serverStale: boolean;
}

/** Builds build/server/main.mjs when it is missing or older than its sources (once per process). */
export function ensureServerBuild(): Promise<void> {
  serverBuild ??= (async () => {
    // @ts-expect-error: plain JavaScript modules of the build (no declarations)
    const { buildState } = (await import("../../scripts/build-state.mjs")) as { buildState: () => BuildState };
    if (!buildState().serverStale) return;
    // @ts-expect-error: plain JavaScript modules of the build (no declarations)
    const { buildServer } = (await import("../../scripts/build-server.mjs")) as { buildServer: () => Promise<{ ms: number }> };
    await buildServer();
  })();
  return serverBuild;
}

/** The database kind of this run: TEST_DB, PGlite by default. */
export function testDb(): TestDb {
  return process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
}

/** A port nobody listens on now (the server takes it a moment later; loopback ports are plenty). */
export async function freePort(avoid: number[] = []): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.listen(0, "127.0.0.1", () => {
        const address = srv.address();
        const p = typeof address === "object" && address ? address.port : 0;
        srv.close(() => resolve(p));
      });
      srv.on("error", reject);
    });
    if (!avoid.includes(port)) return port;
  }
}

/**
 * A free port for a listener that starts long after its clients begin to knock (a PBX a spec plays minutes
 * after the server began reconnecting to it), below the kernel's range for ephemeral ports. In that range a
 * client retrying every half second connects, sooner or later, from the very port it dials: a TCP
 * self-connection that "succeeds" and then stays silent (CI 2026-11-28: the browser suite's PBX never saw a
 * session), and any server listening on port 0 may take the number meanwhile.
 */
export async function freePortBelowEphemeral(): Promise<number> {
  let low = 32_768;
  try {
    low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || low;
  } catch {
    // Not Linux: the usual range's start.
  }
  const from = Math.max(1_024, Math.min(10_000, low - 2_000));
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = from + Math.floor(Math.random() * (low - from));
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port between ${from} and ${low}`);
}

export async function createPostgresDatabase(prefix = "taxi_test"): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

// ------------------------------------------------------------ the process

export interface LaunchOptions {
  /** The environment on top of the suites' defaults (database, seed, secrets...). */
  env: Record<string, string>;
  /** HTTPS with the panel's listener (TLS_DEV unless env gives TLS_CERT). */
  tls?: boolean;
  port?: number;
  /** Deadline of one start, ms. */
  startTimeoutMs?: number;
}

export interface AppProcess {
  /** http(s)://127.0.0.1:port */
  url: string;
  port: number;
  /** With tls: https://127.0.0.1:panelPort, the participants' panel. */
  panelUrl: string;
  panelPort: number;
  readonly env: NodeJS.ProcessEnv;
  readonly process: ChildProcess | undefined;
  readonly running: boolean;
  /** Everything the process wrote, all its lives. */
  output(): string;
  /** Starts the process and resolves once it serves requests. */
  start(): Promise<void>;
  /** Sends the signal (SIGTERM: a clean stop) and waits for the exit; SIGKILL after 20 s. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The line server/main.ts prints once it listens. */
const READY = /Taxi dispatch is running at /;

/** The suites' defaults: production mode, quiet, loopback receivers allowed (the simulator and the demo exchange are each launcher's choice). */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    HOST: "127.0.0.1",
    LANGUAGE: "en",
    LOG_LEVEL: "warn",
    // The suites' receivers, fake exchanges and participants listen on loopback (server/http/outgoing.ts refuses it by default).
    OUTGOING_ALLOW: "127.0.0.0/8,::1",
  };
  delete env.DATABASE_URL;
  return env;
}

function answers(url: string): Promise<boolean> {
  const u = new URL("/api/version", url);
  // node:http's get takes the same arguments (it ignores rejectUnauthorized).
  const get = u.protocol === "https:" ? https.get : (http.get);
  return new Promise((resolve) => {
    const req = get(u, { rejectUnauthorized: false, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
  });
}

/** The application's process (not started): see LaunchOptions. */
export async function launchApp(options: LaunchOptions): Promise<AppProcess> {
  const port = options.port ?? (await freePort());
  const panelPort = options.tls ? await freePort([port]) : 0;
  const scheme = options.tls ? "https" : "http";
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    PORT: String(port),
    ...(options.tls ? { PANEL_PORT: String(panelPort), ...(options.env.TLS_CERT ? {} : { TLS_DEV: "yes" }) } : {}),
    ...options.env,
  };
  let child: ChildProcess | undefined;
  let output = "";
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const start = async () => {
    if (running()) throw new Error("already running");
    await ensureServerBuild();
    // node itself (no wrapper), so that a signal reaches the server.
    const proc = spawn(process.execPath, ["--enable-source-maps", SERVER_ENTRY], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    const from = output.length;
    const timeoutMs = options.startTimeoutMs ?? 150_000;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`server did not start within ${timeoutMs} ms:\n${output.slice(-4000)}`)), timeoutMs);
      const done = (error?: Error) => {
        clearTimeout(timer);
        proc.off("exit", onExit);
        if (error) reject(error);
        else resolve();
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => done(new Error(`server exited (${code ?? signal}):\n${output.slice(-4000)}`));
      proc.on("exit", onExit);
      proc.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (READY.test(output.slice(from))) done();
      });
      proc.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    });
    // The banner comes after listen(): one request confirms it.
    if (!(await answers(`${scheme}://127.0.0.1:${port}`))) throw new Error(`server printed its banner but does not answer /api/version:\n${output.slice(-4000)}`);
  };

  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    const proc = child;
    if (!proc || !running()) return;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 20_000)))]);
    clearTimeout(timer);
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGKILL");
      await exited;
    }
  };

  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    panelUrl: options.tls ? `https://127.0.0.1:${panelPort}` : "",
    panelPort,
    env,
    get process() {
      return child;
    },
    get running() {
      return running();
    },
    output: () => output,
    start,
    kill,
  };
}

// ------------------------------------------------------------ a server on its own database

export interface StartedServer {
  url: string;
  port: number;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
  db: TestDb;
  databaseUrl?: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  /** Stops the process and starts it again on the same database. */
  restart: (signal?: NodeJS.Signals) => Promise<void>;
}

export interface StartOptions {
  db?: TestDb;
  env?: Record<string, string>;
  seedDemo?: boolean;
  /** The API key, administrator and secret a database was seeded with (a copy of a template): the server's seed then changes nothing. */
  seeded?: { apiKey: string; adminEmail: string; adminPassword: string; appSecret: string };
  /** Deadline of the start, ms (seeding the demo city on a loaded machine takes long). */
  startTimeoutMs?: number;
}

/** A started server on a new database (a PGlite directory, or a PostgreSQL database; env's DATA_DIR or DATABASE_URL wins). */
export async function startServer(options: StartOptions = {}): Promise<StartedServer> {
  const db = options.db ?? testDb();
  const dataDir = mkdtempSync(path.join(tmpdir(), "taxi-test-"));
  const apiKey = options.seeded?.apiKey ?? `test-key-${randomBytes(12).toString("hex")}`;
  const adminEmail = options.seeded?.adminEmail ?? "admin@test.local";
  const adminPassword = options.seeded?.adminPassword ?? "test-password-1";
  const database = db === "postgres" && !options.env?.DATABASE_URL ? await createPostgresDatabase() : undefined;
  const app = await launchApp({
    env: {
      DATA_DIR: dataDir,
      SEED_API_KEY: apiKey,
      SEED_ADMIN_EMAIL: adminEmail,
      SEED_ADMIN_PASSWORD: adminPassword,
      SEED_DEMO: options.seedDemo === false ? "0" : "1",
      // The built-in simulator and demo exchange would write by themselves.
      SIMULATE: "0",
      DEMO_EXCHANGE: "0",
      APP_SECRET: options.seeded?.appSecret ?? process.env.APP_SECRET ?? DEFAULT_APP_SECRET,
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...options.env,
    },
    startTimeoutMs: options.startTimeoutMs,
  });
  const cleanUp = async () => {
    await database?.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await app.start();
  } catch (error) {
    await app.kill("SIGKILL");
    await cleanUp();
    throw error;
  }
  return {
    url: app.url,
    port: app.port,
    apiKey,
    adminEmail,
    adminPassword,
    db,
    databaseUrl: database?.url ?? options.env?.DATABASE_URL,
    // The data directory the server uses (the caller's, when env gives one).
    dataDir: options.env?.DATA_DIR ?? dataDir,
    get process() {
      return app.process!;
    },
    output: app.output,
    stop: async (signal) => {
      await app.kill(signal);
      await cleanUp();
    },
    restart: async (signal) => {
      await app.kill(signal);
      await app.start();
    },
  };
}
