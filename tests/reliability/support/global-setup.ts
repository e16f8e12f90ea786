// The reliability project's global setup: one migrated and seeded template
// database per run (TEST_DB picks PGlite or PostgreSQL), shared with the
// integration project's; suites copy it.
import type { TestProject } from "vitest/node";
import { acquireTemplate, releaseTemplate, TEST_DB, type Template } from "./db";
import { ensureServerBuild } from "../../support/server";

let acquired = false;

export async function setup(project: TestProject): Promise<void> {
  // Built here, once, before the suites' workers start servers from it.
  await ensureServerBuild();
  const template = await acquireTemplate(TEST_DB);
  acquired = true;
  project.provide("reliabilityTemplate", template);
}

export async function teardown(): Promise<void> {
  if (acquired) await releaseTemplate(TEST_DB);
}

declare module "vitest" {
  export interface ProvidedContext {
    reliabilityTemplate: Template;
  }
}
