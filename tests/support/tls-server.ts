// The application over TLS: tests/support/server.ts's launcher with HTTPS
// and the participants' panel listener. The generated development set
// (TLS_DEV) unless the caller gives TLS_CERT/TLS_KEY; the caller brings the
// database (env DATA_DIR or DATABASE_URL, e.g. from
// tests/support/exchange/db.ts's prepareDatabase).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { launchApp } from "./server";

export { freePort } from "./server";

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

export async function startTlsServer(options: { env: Record<string, string>; appSecret: string }): Promise<TlsServer> {
  const app = await launchApp({
    tls: true,
    env: {
      SEED_API_KEY: "tls-test-key-0123456789abcdef",
      SEED_ADMIN_EMAIL: "admin@tls.test",
      SEED_ADMIN_PASSWORD: "tls-test-password",
      SEED_DEMO: "0",
      APP_SECRET: options.appSecret,
      EXCHANGE_CHECK_SECONDS: "0",
      ...options.env,
    },
  });
  try {
    await app.start();
  } catch (error) {
    await app.kill("SIGKILL");
    throw error;
  }
  const dataDir = app.env.DATA_DIR;
  const rootFile = dataDir ? path.resolve(dataDir, "tls", "root-ca.pem") : "";
  return {
    url: app.url,
    panelUrl: app.panelUrl,
    port: app.port,
    panelPort: app.panelPort,
    rootPem: rootFile && existsSync(rootFile) ? readFileSync(rootFile, "utf8") : "",
    process: app.process!,
    output: app.output,
    stop: () => app.kill("SIGTERM"),
  };
}
