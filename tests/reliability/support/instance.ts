// An application instance of the reliability suites: the real custom server
// (production build) in its own process, on a database of ./db.ts. Unlike
// tests/support/server.ts it can be killed and left down (to inspect a PGlite
// directory, or to crash it) and started again later on the same port.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { cloneTemplate, type Template, type TestDatabase } from "./db";

const root = path.resolve(import.meta.dirname, "..", "..", "..");

export function template(): Template {
  return inject("reliabilityTemplate");
}

/** A fresh copy of the run's seeded template. */
export function freshDatabase(): Promise<TestDatabase> {
  return cloneTemplate(template());
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export interface AppInstance {
  url: string;
  port: number;
  readonly process: ChildProcess | undefined;
  readonly running: boolean;
  /** Everything the process wrote (all its lives). */
  output(): string;
  start(): Promise<void>;
  /** Kills with the signal (SIGTERM: a clean stop) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Kills (SIGTERM) and forgets its scratch directory; the database is the caller's. */
  stop(): Promise<void>;
}

export interface InstanceOptions {
  env?: Record<string, string>;
  port?: number;
}

/** An instance on `database` (not started yet). */
export async function appInstance(database: TestDatabase, options: InstanceOptions = {}): Promise<AppInstance> {
  const t = template();
  const port = options.port ?? (await freePort());
  const scratch = mkdtempSync(path.join(tmpdir(), "taxi-rel-app-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: scratch,
    SEED_API_KEY: t.apiKey,
    SEED_ADMIN_EMAIL: t.adminEmail,
    SEED_ADMIN_PASSWORD: t.adminPassword,
    SEED_DEMO: "1",
    APP_SECRET: t.appSecret,
    LANGUAGE: "en",
    LOG_LEVEL: "warn",
    OUTBOX_POLL_MS: "100",
    EXCHANGE_JOB_INTERVAL_MS: "500",
    EXCHANGE_CHECK_SECONDS: "0",
    // The built-in simulator (on by default) would write by itself.
    SIMULATE: "0",
    // The suites' receivers, fake exchanges and participants listen on loopback (server/http/outgoing.ts refuses it by default).
    OUTGOING_ALLOW: "127.0.0.0/8,::1",
    ...database.env,
    ...options.env,
  };
  if (!database.env.DATABASE_URL && !options.env?.DATABASE_URL) delete env.DATABASE_URL;
  let child: ChildProcess | undefined;
  let output = "";

  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const start = async () => {
    if (running()) throw new Error("already running");
    const proc = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    proc.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server exited (${proc.exitCode ?? proc.signalCode}):\n${output.slice(-4000)}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/version`);
        if (res.ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`server did not start:\n${output.slice(-4000)}`);
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
    url: `http://127.0.0.1:${port}`,
    port,
    get process() {
      return child;
    },
    get running() {
      return running();
    },
    output: () => output,
    start,
    kill,
    stop: async () => {
      await kill("SIGTERM");
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** An instance started on `database`. */
export async function startInstance(database: TestDatabase, options: InstanceOptions = {}): Promise<AppInstance> {
  const app = await appInstance(database, options);
  await app.start();
  return app;
}
