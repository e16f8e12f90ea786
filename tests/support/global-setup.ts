// One started server per test run (per database kind), shared by the
// integration test files through vitest's provide/inject. It starts on a copy
// of the run's seeded template (shared with the reliability project's global
// setup), so the demo city is not seeded again; the template is provided too.
import type { TestProject } from "vitest/node";
import { AMI_SECRET, AMI_USER, PBX_WEBHOOK_SECRET } from "./ami-server";
import { DEFAULT_APP_SECRET, freePortBelowEphemeral, startServer, type StartedServer } from "./server";
import { acquireTemplate, cloneTemplate, releaseTemplate, TEST_DB, type TestDatabase } from "../reliability/support/db";

let server: StartedServer | undefined;
let database: TestDatabase | undefined;
let acquired = false;

export async function setup(project: TestProject): Promise<void> {
  const template = await acquireTemplate(TEST_DB);
  acquired = true;
  database = await cloneTemplate(template);
  // The integration files derive keys from the suite's usual APP_SECRET (the seed does not depend on it).
  // No demand markup: files compare prices of calls made at once or one after another, while the count of
  // free orders moves with background work (tests/unit/demand.test.ts covers the markup).
  // The PBX (tests/integration/pbx.test.ts plays it on amiPort): the server keeps trying to reach it until that file listens.
  const amiPort = await freePortBelowEphemeral();
  const pbxEnv = {
    AMI_URL: `ami://${AMI_USER}:${AMI_SECRET}@127.0.0.1:${amiPort}`,
    AMI_RECONNECT_MAX_SECONDS: "0.5",
    AMI_PING_SECONDS: "1",
    PBX_WEBHOOK_SECRETS: `cloud=${PBX_WEBHOOK_SECRET}`,
  };
  server = await startServer({ db: TEST_DB, env: { ...database.env, DEMAND_STEP_PERCENT: "0", ...pbxEnv }, seeded: { ...template, appSecret: process.env.APP_SECRET ?? DEFAULT_APP_SECRET } });
  project.provide("reliabilityTemplate", template);
  project.provide("baseUrl", server.url);
  project.provide("apiKey", server.apiKey);
  project.provide("adminEmail", server.adminEmail);
  project.provide("adminPassword", server.adminPassword);
  project.provide("testDb", server.db);
  project.provide("databaseUrl", server.databaseUrl ?? "");
  project.provide("amiPort", amiPort);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  await database?.drop();
  if (acquired) await releaseTemplate(TEST_DB);
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    adminEmail: string;
    adminPassword: string;
    testDb: "pglite" | "postgres";
    databaseUrl: string;
    amiPort: number;
  }
}
