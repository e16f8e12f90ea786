// Starts the real application (the custom server, production build) for the
// tests: on the embedded PGlite in a temporary directory, or on a throwaway
// database of the PostgreSQL at 127.0.0.1:5432.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";

export type TestDb = "pglite" | "postgres";

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

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const root = path.resolve(import.meta.dirname, "..", "..");

export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `taxi_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function freePort(): Promise<number> {
  const net = await import("node:net");
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

export interface StartOptions {
  db?: TestDb;
  env?: Record<string, string>;
  seedDemo?: boolean;
}

export async function startServer(options: StartOptions = {}): Promise<StartedServer> {
  const db = options.db ?? ((process.env.TEST_DB as TestDb | undefined) ?? "pglite");
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "taxi-test-"));
  const apiKey = `test-key-${randomBytes(12).toString("hex")}`;
  const adminEmail = "admin@test.local";
  const adminPassword = "test-password-1";
  let database: { url: string; drop: () => Promise<void> } | undefined;
  if (db === "postgres") database = await createPostgresDatabase();

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SEED_API_KEY: apiKey,
    SEED_ADMIN_EMAIL: adminEmail,
    SEED_ADMIN_PASSWORD: adminPassword,
    SEED_DEMO: options.seedDemo === false ? "0" : "1",
    APP_SECRET: process.env.APP_SECRET ?? "test-secret-test-secret-test-secret-0123",
    LANGUAGE: "en",
    LOG_LEVEL: "warn",
    SIMULATE: "0",
    DEMO_EXCHANGE: "0",
    // The suites' receivers, fake exchanges and participants listen on loopback (server/http/outgoing.ts refuses it by default).
    OUTGOING_ALLOW: "127.0.0.0/8,::1",
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  };
  if (!database) delete env.DATABASE_URL;

  let output = "";
  let child!: ChildProcess;
  const launch = async () => {
    // node itself (not the tsx wrapper), so that a signal reaches the server.
    child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/version`);
        if (res.ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`server did not start:\n${output}`);
  };
  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  await launch();

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    apiKey,
    adminEmail,
    adminPassword,
    db,
    databaseUrl: database?.url,
    dataDir,
    get process() {
      return child;
    },
    output: () => output,
    stop: async (signal) => {
      await kill(signal);
      await database?.drop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
    restart: async (signal) => {
      await kill(signal);
      await launch();
    },
  };
}
