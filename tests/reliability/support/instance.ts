// An application instance of the reliability suites: tests/support/server.ts's
// launcher on a database of ./db.ts, with the template's seed values. It can
// be killed and left down (to inspect a PGlite directory, or to crash it) and
// started again later on the same port.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { launchApp, type AppProcess } from "../../support/server";
import { cloneTemplate, type Template, type TestDatabase } from "./db";

export { freePort } from "../../support/server";

export function template(): Template {
  return inject("reliabilityTemplate");
}

/** A fresh copy of the run's seeded template. */
export function freshDatabase(): Promise<TestDatabase> {
  return cloneTemplate(template());
}

export interface AppInstance extends Pick<AppProcess, "url" | "port" | "process" | "running" | "output" | "start" | "kill"> {
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
  const scratch = mkdtempSync(path.join(tmpdir(), "taxi-rel-app-"));
  const app = await launchApp({
    port: options.port,
    env: {
      DATA_DIR: scratch,
      SEED_API_KEY: t.apiKey,
      SEED_ADMIN_EMAIL: t.adminEmail,
      SEED_ADMIN_PASSWORD: t.adminPassword,
      SEED_DEMO: "1",
      APP_SECRET: t.appSecret,
      OUTBOX_POLL_MS: "100",
      EXCHANGE_JOB_INTERVAL_MS: "500",
      EXCHANGE_CHECK_SECONDS: "0",
      // The built-in simulator (on by default) would write by itself.
      SIMULATE: "0",
      ...database.env,
      ...options.env,
    },
  });
  return {
    url: app.url,
    port: app.port,
    get process() {
      return app.process;
    },
    get running() {
      return app.running;
    },
    output: app.output,
    start: app.start,
    kill: app.kill,
    stop: async () => {
      await app.kill("SIGTERM");
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
