// Starts the real application with TLS (the HTTPS variant of server.ts's
// startServer): the generated development set (TLS_DEV) unless the caller
// gives TLS_CERT/TLS_KEY, the console and APIs on https://127.0.0.1:port and
// the participants' control panel on https://127.0.0.1:panelPort. Readiness
// is checked over HTTPS; the caller brings the database (env DATA_DIR or
// DATABASE_URL, e.g. from tests/exchange-e2e/db.ts's prepareDatabase).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import https from "node:https";
import net from "node:net";
import path from "node:path";

export interface TlsServer {
  /** https://127.0.0.1:port: the console and the APIs. */
  url: string;
  /** https://127.0.0.1:panelPort: the control panel's listener. */
  panelUrl: string;
  port: number;
  panelPort: number;
  /** The development root (DATA_DIR/tls/root-ca.pem) when TLS_DEV made the set. */
  rootPem: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

const root = path.resolve(import.meta.dirname, "..", "..");

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

function ready(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = https.get({ host: "127.0.0.1", port, path: "/api/version", rejectUnauthorized: false, agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
  });
}

export async function startTlsServer(options: { env: Record<string, string>; appSecret: string }): Promise<TlsServer> {
  const port = await freePort();
  let panelPort = await freePort();
  while (panelPort === port) panelPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    PANEL_PORT: String(panelPort),
    HOST: "127.0.0.1",
    SEED_API_KEY: "tls-test-key-0123456789abcdef",
    SEED_ADMIN_EMAIL: "admin@tls.test",
    SEED_ADMIN_PASSWORD: "tls-test-password",
    SEED_DEMO: "0",
    APP_SECRET: options.appSecret,
    LANGUAGE: "en",
    LOG_LEVEL: "warn",
    EXCHANGE_CHECK_SECONDS: "0",
    // The suites' receivers, fake exchanges and participants listen on loopback (server/http/outgoing.ts refuses it by default).
    OUTGOING_ALLOW: "127.0.0.0/8,::1",
    ...(options.env.TLS_CERT ? {} : { TLS_DEV: "yes" }),
    ...options.env,
  };
  if (!options.env.DATABASE_URL) delete env.DATABASE_URL;

  let output = "";
  // node itself (not the tsx wrapper), so that a signal reaches the server
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };

  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    if (await ready(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const rootFile = env.DATA_DIR ? path.resolve(env.DATA_DIR, "tls", "root-ca.pem") : "";
  return {
    url: `https://127.0.0.1:${port}`,
    panelUrl: `https://127.0.0.1:${panelPort}`,
    port,
    panelPort,
    rootPem: rootFile && existsSync(rootFile) ? readFileSync(rootFile, "utf8") : "",
    process: child,
    output: () => output,
    stop,
  };
}
