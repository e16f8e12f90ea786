// One started server per test run (per database kind), shared by the
// integration test files through vitest's provide/inject.
import type { TestProject } from "vitest/node";
import { startServer, type StartedServer } from "./server";

let server: StartedServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startServer();
  project.provide("baseUrl", server.url);
  project.provide("apiKey", server.apiKey);
  project.provide("adminEmail", server.adminEmail);
  project.provide("adminPassword", server.adminPassword);
  project.provide("testDb", server.db);
  project.provide("databaseUrl", server.databaseUrl ?? "");
}

export async function teardown(): Promise<void> {
  await server?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    adminEmail: string;
    adminPassword: string;
    testDb: "pglite" | "postgres";
    databaseUrl: string;
  }
}
