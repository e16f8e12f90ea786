// The application as production runs it, for the benchmark: plain `node` on
// the custom server's JavaScript build (build/server/main.mjs) and Next's
// build in NEXT_DIST_DIR, with a metrics listener on loopback so the
// benchmark can read the server's own figures (heap, pool, caches).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";

export interface BenchServer {
  url: string;
  metricsUrl: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
  process: ChildProcess;
  /** Milliseconds from the spawn to the first answer of GET /api/version. */
  readyMs: number;
  output: () => string;
  stop: () => Promise<void>;
}

const root = path.resolve(import.meta.dirname, "..", "..");

/**
 * The Node.js binary the servers under test run on (the application and the
 * limit): BENCH_SERVER_NODE, to compare runtimes in one session
 * (`BENCH_SERVER_NODE=/usr/bin/node npm run bench -- --short`), else the one
 * running the benchmark (the project's Node 24). The load generator stays on
 * the benchmark's own Node either way.
 */
export const serverNode = process.env.BENCH_SERVER_NODE || process.execPath;
/** What the server needs to start on an older Node than it supports (server/runtime/node-version.ts). */
export const serverNodeEnv: Record<string, string> = process.env.BENCH_SERVER_NODE ? { ALLOW_UNSUPPORTED_NODE: "yes" } : {};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
    srv.on("error", reject);
  });
}

/** `openFiles`: the descriptors the server needs (the fleet's open streams): its soft limit is raised to that (never above the hard one). */
export async function startBenchServer(env: Record<string, string>, nodeOptions: string[] = [], openFiles?: number): Promise<BenchServer> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const dataDir = env.DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), "taxi-bench-app-"));
  const apiKey = `bench-key-${randomBytes(12).toString("hex")}`;
  const adminEmail = "admin@bench.local";
  const adminPassword = "bench-password-1";
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    METRICS_PORT: String(metricsPort),
    SEED_API_KEY: apiKey,
    SEED_ADMIN_EMAIL: adminEmail,
    SEED_ADMIN_PASSWORD: adminPassword,
    SEED_DEMO: "0",
    APP_SECRET: "bench-secret-bench-secret-bench-secret-01",
    LANGUAGE: "en",
    SIMULATE: "0",
    DEMO_EXCHANGE: "0",
    OUTGOING_ALLOW: "127.0.0.0/8,::1",
    ...serverNodeEnv,
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...env,
  };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  let output = "";
  const started = performance.now();
  const argv = ["--enable-source-maps", ...nodeOptions, path.join(root, "build", "server", "main.mjs")];
  const child = openFiles
    ? spawn("sh", ["-c", `ulimit -n ${openFiles} 2>/dev/null || ulimit -n $(ulimit -Hn); exec "$0" "$@"`, serverNode, ...argv], { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(serverNode, argv, { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    try {
      if ((await fetch(`${url}/api/version`)).ok) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const readyMs = performance.now() - started;
  return {
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    apiKey,
    adminEmail,
    adminPassword,
    process: child,
    readyMs,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server's own figures from its metrics endpoint (bytes, counts), by series name with labels. */
export async function scrapeMetrics(metricsUrl: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  try {
    const text = await (await fetch(metricsUrl)).text();
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const space = line.lastIndexOf(" ");
      out.set(line.slice(0, space), Number(line.slice(space + 1)));
    }
  } catch {
    // the server is gone: no figures
  }
  return out;
}
