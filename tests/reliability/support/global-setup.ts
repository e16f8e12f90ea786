// The reliability project's global setup: one migrated and seeded template
// database per run (TEST_DB picks PGlite or PostgreSQL); suites copy it.
import type { TestProject } from "vitest/node";
import { createTemplate, dropTemplate, TEST_DB, type Template } from "./db";

let template: Template | undefined;

export async function setup(project: TestProject): Promise<void> {
  template = await createTemplate(TEST_DB);
  project.provide("reliabilityTemplate", template);
}

export async function teardown(): Promise<void> {
  if (template) await dropTemplate(template);
}

declare module "vitest" {
  export interface ProvidedContext {
    reliabilityTemplate: Template;
  }
}
